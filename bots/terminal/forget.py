"""``basra forget PLAYER_ID``: what ``/forget`` does, for an operator asked to erase someone.

The person's running matches are resigned and the lobbies they sit in left, by the table
service itself (so the result reaches the others' profiles as a resignation does), then the
store erases them in one transaction (``Store.forget_player``). The service runs here only
for that: it is not started, so it arms no clock and notes no time alive, and the bot's
own service is left as it was. The chats are not told at once: a running bot shows the
match as ended at its next press or redraw. On an SQLite file no bot may be running (the
file is held); on PostgreSQL the bots may go on meanwhile. Its one line is plain English,
for logs and scripts: the operator's, not a player's.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TextIO

from storage import TableRecord, open_store

from ..service import Notice, ServiceConfig, TableService, platform_of


class SilentPlatform:
    """A platform that tells no chat: the notices of the resignations go nowhere."""

    def __init__(self, name: str, owner: str) -> None:
        self.name = name
        self.owner = owner

    async def deliver(self, notices: Sequence[Notice]) -> None:
        return None


async def forget_player(database: Path | str, player: str, config: ServiceConfig, out: TextIO,
                        err: TextIO) -> int:
    """Erase ``player``; 0 when something was erased, 1 when nothing was stored about them,
    2 when ``player`` is not a player id."""
    try:
        platform_of(player)
    except ValueError:
        print(f"basra forget: {player!r} is not a player id (expected tg:<user id> or dc:<user id>)",
              file=err)
        return 2
    async with open_store(database, exclusive=True) as store:
        owners: dict[str, str] = {}
        for row in await store.open_rows(player=player):
            if isinstance(row, TableRecord) and row.owner:
                owners.setdefault(row.platform, row.owner)
        platforms = [SilentPlatform(name, owner) for name, owner in owners.items()] or [
            SilentPlatform("term", "term")
        ]
        service = TableService(store, platforms, config=config)
        try:
            forgotten = await service.forget(player)
        finally:
            await service.stop_clocks()
            await service.timers.thinker.close()
    if not forgotten.found:
        print(f"basra forget: nothing is stored about {player}", file=out)
        return 1
    print(
        f"basra forget: erased {player} (profile, name, settings, ratings);"
        f" {forgotten.resigned} running match(es) resigned, {forgotten.left} lobby(ies) left;"
        " their seats in finished matches are anonymous now",
        file=out,
    )
    return 0
