"""A stranger match's notices, person by person, and where each person's messages show.

A match the pairing pool seated (``ids.is_pool_chat``) has no channel: each person plays it
in their DM with the bot. The service hands delivery each of this bot's people's share:
the public notices wrapped as ``ForSeat`` (in that person's language) and their own hand
notices. ``by_person`` unwraps them into one list per person, in order, so that each DM
shows its table, its round points and its result as a channel shows a match's; ``Place``
says where a table's public messages go and what their references are called there.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass

import discord

from ..service import (
    ClockWarning,
    ForSeat,
    HandUpdated,
    LobbyClosed,
    LobbyUpdated,
    MatchEnded,
    Notice,
    RoundEnded,
    TableUpdated,
    YourTurn,
)

#: The seat of a person none of whose notices names one (a table set aside): its
#: messages need no reference.
NO_SEAT = -1


@dataclass(frozen=True)
class Place:
    """Where a table's public messages show: the table's own channel, or, at a stranger
    match, the DM of the person at ``seat``.

    ``lane`` and ``deletes`` are the outbound lanes its writes and its deletions take;
    ``channel`` finds the channel when a write runs (a DM may have to be opened first).
    The references of a DM's messages carry the seat (``ref``), so that each person's
    table message, result and turn ping are their own.
    """

    lane: Hashable
    deletes: Hashable
    channel: Callable[[], Awaitable[discord.PartialMessageable]]
    seat: int | None = None

    @property
    def direct(self) -> bool:
        """Whether this is a person's DM at a stranger match."""
        return self.seat is not None

    def ref(self, name: str) -> str:
        """The name of a message reference here: ``"table"`` in a channel, ``"table@1"`` in
        the DM of the person at seat 1."""
        return name if self.seat is None else f"{name}@{self.seat}"

    def key(self, *parts: Hashable) -> tuple[Hashable, ...]:
        """An outbound write's key for one of this place's messages."""
        return parts if self.seat is None else (*parts, "seat", self.seat)


def by_person(notices: Sequence[Notice]) -> list[tuple[str, int, list[Notice]]]:
    """One stranger-match action's notices for each person they are for, in order: (their
    player id, their seat, their notices with each ``ForSeat`` unwrapped)."""
    people: dict[str, list[Notice]] = {}
    for notice in notices:
        if isinstance(notice, ForSeat):
            people.setdefault(notice.player_id, []).append(notice.notice)
        elif notice.player_id is not None:
            people.setdefault(notice.player_id, []).append(notice)
    return [(person, seat_in(mine, person), mine) for person, mine in people.items()]


def seat_in(notices: Sequence[Notice], player_id: str) -> int:
    """The seat of ``player_id`` at the match, as the first notice of the match that names
    seats says; else as a lobby lists them (its order is not the match's seats in two
    against two, where partners sit face to face); else ``NO_SEAT``."""
    for notice in notices:
        if isinstance(notice, TableUpdated):
            seat = notice.table.seat_of(player_id)
            if seat is not None:
                return seat.seat
        elif isinstance(notice, HandUpdated | YourTurn | ClockWarning):
            if notice.hand.player_id == player_id:
                return notice.hand.seat
        elif isinstance(notice, RoundEnded | MatchEnded):
            found = next((s.seat for s in notice.result.seats if s.player_id == player_id), None)
            if found is not None:
                return found
    for notice in notices:
        if isinstance(notice, LobbyUpdated | LobbyClosed):
            at = [i for i, s in enumerate(notice.lobby.seats) if s.player_id == player_id]
            if at:
                return at[0]
    return NO_SEAT
