"""Canned reactions between strangers: the only words that pass between them.

People the pool paired (``pool``) share no chat, and no free text is ever relayed from
one to the other: each may send a few fixed reactions, translated for whoever reads
them (``REACTIONS``), at most ``PER_MINUTE`` a minute, counted for every process of
the bots (``Store.take_window``). The others at the table see the sender's display
name and the reaction, in their own language (``Reacted``).
"""

from __future__ import annotations

import math
from typing import Final

from storage import TableRecord

from .errors import BadInput, NotSeated, TooManyReactions
from .ids import Person, is_pool_chat
from .languages import Languages
from .live import seat_of
from .notices import Notice, Reacted
from .strangers import reaction_words
from .usecase import UseCase

#: The reactions, by key, in the order they are offered; their words are the renderer's.
REACTIONS: Final = ("good_luck", "well_played", "good_game", "thanks")
#: How many reactions one person may send in a minute.
PER_MINUTE: Final = 3


class Reactions(UseCase):
    """The reactions half of the table service."""

    async def react(self, table_id: str, person: Person, reaction: str) -> None:
        """Send ``reaction`` (a key of ``REACTIONS``) from ``person`` to the others at the
        stranger match ``table_id``, running or just over. NotSeated if they are not at it;
        TooManyReactions past ``PER_MINUTE`` a minute; BadInput for an unknown reaction or a
        table with a chat of its own (its people can talk there)."""
        if reaction not in REACTIONS:
            raise BadInput(f"no reaction {reaction!r}")
        record, _ = await self._t.closed_table(table_id)
        if seat_of(record, person.player_id) is None:
            raise NotSeated()
        if not is_pool_chat(record.chat_id):
            raise BadInput(f"table {table_id!r} has a chat of its own")
        wait = await self._store.take_window(f"react:{person.player_id}", PER_MINUTE, 60.0, self._clock.now())
        if wait > 0:
            raise TooManyReactions(seconds=max(1, math.ceil(wait)))
        index = seat_of(record, person.player_id)
        assert index is not None
        name = record.seats[index].name or person.name
        await self._t.deliver(await reacted(self._lang, record, index, name, reaction), record.seats)
        if self._t.crossed(record):  # the others' process shows it to them (``crossing``)
            await self._store.announce(table_id, reaction_words(index, reaction))


async def reacted(languages: Languages, record: TableRecord, sender: int, name: str, reaction: str
                  ) -> list[Notice]:
    """``reaction`` from the person at seat ``sender`` (shown as ``name``), as each other
    person at the table reads it, in their own language."""
    notices: list[Notice] = []
    for seat in record.seats:
        if seat.player_id is not None and seat.player_id != record.seats[sender].player_id:
            await languages.know_player(seat.player_id)
            lang = languages.of(seat.player_id, None)
            notices.append(Reacted(record.table_id, record.chat_id, seat.player_id, name, reaction, lang))
    return notices
