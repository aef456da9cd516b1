"""Leading a bot: one process of all those on a database acts for it at a time.

Telegram counts its flood limits per bot token, so the process that speaks for a token
must see every write of it to pace them. ``Store.leadership`` elects that process: on
PostgreSQL a session advisory lock held by a connection of its own (a process that dies
lets it go with its connection, and a waiting process takes over at once); on SQLite one
process uses the file anyway, so it leads at once.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field


@dataclass(eq=False)
class Lead:
    """What a leading process holds. ``waited``: another process led when this one asked.
    ``lost`` is set if the lead was lost while held (the connection holding it was cut):
    another process may lead from then on, so this one must stop acting."""

    key: str
    waited: bool = False
    lost: asyncio.Event = field(default_factory=asyncio.Event)
