"""Where one action's notices go: a table's chat, or, at a stranger match, each person's own.

A match the pairing pool seated (``pool``) has no chat: its people are strangers, each
in their private chat, maybe on different platforms. Its public notices (the table, a
round's points, the result) become one ``ForSeat`` per person seated, in that person's
language, and each platform is handed its own people's share with their private notices
(their hands), in the order the action made them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Collection, Sequence
from typing import Final

from storage import DamagedTable, Seat, Store, TableRecord

from .ids import is_pool_chat, platform_of
from .notices import (
    ForSeat,
    LobbyClosed,
    LobbyUpdated,
    MatchEnded,
    Notice,
    RoundEnded,
    TableSetAside,
    TableUpdated,
)

PUBLIC = (LobbyUpdated, LobbyClosed, TableUpdated, RoundEnded, MatchEnded, TableSetAside)


def shares(notices: Sequence[Notice], seats: Sequence[Seat], lang_of: Callable[[str], str]
           ) -> dict[str, list[Notice]]:
    """Each platform's share of ``notices`` (one action's, of one table), by platform name:
    all of them to the table's own chat's platform, unless the table is a stranger match
    seated at ``seats``."""
    if not notices:
        return {}
    chat = notices[0].chat_id
    if not is_pool_chat(chat):
        return {platform_of(chat): list(notices)}
    people = [seat.player_id for seat in seats if seat.player_id is not None]
    routed: dict[str, list[Notice]] = {}
    for notice in notices:
        if isinstance(notice, ForSeat):
            routed.setdefault(platform_of(notice.player_id), []).append(notice)
        elif isinstance(notice, PUBLIC):
            for person in people:
                lang = lang_of(person)
                mine = ForSeat(dataclasses.replace(notice, lang=lang), person, lang)
                routed.setdefault(platform_of(person), []).append(mine)
        elif notice.player_id is not None:
            routed.setdefault(platform_of(notice.player_id), []).append(notice)
    return routed


#: How a stranger match ends that its loser abandoned (``Store.note_abandon``).
ABANDONED: Final = ("resigned", "timeout")


async def note_abandon(store: Store, record: TableRecord, seat: int | None, reason: str, at: float) -> None:
    """A stranger match ended with ``seat`` resigning or out of time: that person abandoned
    it, which the pool weighs when it pairs them next (``pool``). Other tables note nothing."""
    player = record.seats[seat].player_id if seat is not None else None
    if player is not None and reason in ABANDONED and is_pool_chat(record.chat_id):
        await store.note_abandon(player, record.table_id, at)


#: What a process says through the store (``Store.announce``) when someone at a match
#: between strangers reacts, for another process to show the reaction to its own people.
REACTED: Final = "react"


def reaction_words(seat: int, reaction: str) -> str:
    """What ``Store.announce`` carries of a reaction from ``seat``.

    >>> reaction_words(1, "good_game"), read_reaction("react 1 good_game")
    ('react 1 good_game', (1, 'good_game'))
    """
    return f"{REACTED} {seat} {reaction}"


def read_reaction(words: str) -> tuple[int, str] | None:
    """The seat and reaction ``reaction_words`` said, or None for other words."""
    kind, _, rest = words.partition(" ")
    seat, _, reaction = rest.partition(" ")
    if kind != REACTED or not seat.isdigit() or not reaction:
        return None
    return int(seat), reaction


def sits_here(record: TableRecord | DamagedTable, platforms: Collection[str]) -> bool:
    """Whether ``record`` is a match between strangers where someone of ``platforms`` sits."""
    seats = getattr(record, "seats", ())
    return is_pool_chat(record.chat_id) and any(
        seat.player_id is not None and platform_of(seat.player_id) in platforms for seat in seats
    )


def crossed(record: TableRecord, platforms: Collection[str], *, shared: bool) -> bool:
    """Whether ``record`` is a match between strangers on a store several processes share
    (``shared``) where someone sits whose platform is not one of ``platforms``: another
    process serves them, and acts on the table too, and each tells its own people what
    the other did (``crossing``)."""
    return shared and is_pool_chat(record.chat_id) and any(
        seat.player_id is not None and platform_of(seat.player_id) not in platforms for seat in record.seats
    )
