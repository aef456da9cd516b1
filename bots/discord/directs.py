"""Each person's DM channel with the bot, where the pairing pool and their stranger matches
talk to them.

A DM channel has an id of its own, which a person's id does not give: it is noted when they
ask for an opponent (the pool keeps it as their entry's chat), read back from their pool
entry after a restart, and, failing both, opened with Discord (``create_dm``), which answers
with the same channel every time. Finding it may wait for the store or for Discord, so it is
done when a write runs, never while a table's notices are queued.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

import discord

from ..service import Person, is_pool_chat, platform_of, raw_id

if TYPE_CHECKING:
    from ..service import TableService

#: How many people's DM channels are kept (the latest noted; about 150 bytes each).
KEPT: Final = 10_000


class DirectChannels:
    """The DM channels known, by player id; the others found on demand."""

    def __init__(self, client: discord.Client, service: Callable[[], TableService | None]) -> None:
        self._client = client
        self._service = service
        self._known: OrderedDict[str, int] = OrderedDict()

    def note(self, player_id: str, channel_id: int) -> None:
        """``player_id``'s DM channel is ``channel_id``."""
        self._known[player_id] = channel_id
        self._known.move_to_end(player_id)
        while len(self._known) > KEPT:
            self._known.popitem(last=False)

    async def channel(self, player_id: str) -> discord.PartialMessageable:
        """The DM channel of ``player_id``, found as the module says."""
        known = self._known.get(player_id)
        if known is None:
            known = await self._find(player_id)
            self.note(player_id, known)
        return self._client.get_partial_messageable(known)

    async def _find(self, player_id: str) -> int:
        service = self._service()
        if service is not None:
            entry = await service.pool_status(Person(player_id, ""))
            if entry is not None and platform_of(entry.chat_id) == "dc" and not is_pool_chat(entry.chat_id):
                return int(raw_id(entry.chat_id))
        opened = await self._client.create_dm(discord.Object(int(raw_id(player_id))))
        return opened.id
