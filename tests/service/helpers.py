"""Helpers for the service tests: a fake platform adapter, people, playing turns."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from bots.service import (
    HandUpdated,
    HandView,
    ManualClock,
    Notice,
    Person,
    PoolNotice,
    ServiceConfig,
    TableService,
    TableView,
)

ALICE = Person("tg:1", "Alice", "en")
BADR = Person("tg:2", "بدر", "ar")
CARLA = Person("tg:3", "Carla", "en-US")
DINA = Person("tg:4", "دينا", "ar-EG")
GROUP = "tg:-100"


class FakePlatform:
    """Keeps every notice delivered, in order, the way a chat adapter would receive them."""

    name = "tg"
    owner = "tg"

    def __init__(self, name: str = "tg", owner: str | None = None) -> None:
        self.name = name
        self.owner = owner if owner is not None else name
        self.batches: list[list[Notice]] = []

    async def deliver(self, notices: Sequence[Notice]) -> None:
        assert notices, "an empty delivery"
        assert len({n.table_id for n in notices}) == 1, "one delivery, one table"
        self.batches.append(list(notices))

    @property
    def notices(self) -> list[Notice]:
        return [n for batch in self.batches for n in batch]

    def kinds(self) -> list[str]:
        return [n.kind for n in self.notices]

    def of(self, kind: str) -> list[Any]:
        return [n for n in self.notices if n.kind == kind]

    def last_hand(self, player_id: str) -> HandView:
        hands = [n.hand for n in self.notices if isinstance(n, HandUpdated) and n.player_id == player_id]
        assert hands, f"no hand delivered to {player_id}"
        return hands[-1]

    def last_table(self) -> TableView:
        tables = self.of("table_updated")
        assert tables
        table: TableView = tables[-1].table
        return table

    def clear(self) -> None:
        self.batches.clear()


class PoolPlatform(FakePlatform):
    """A fake adapter whose people may wait in the pool: keeps what it was told of it."""

    def __init__(self, name: str = "tg", owner: str | None = None) -> None:
        super().__init__(name, owner)
        self.told: list[PoolNotice] = []

    async def tell_pool(self, notices: Sequence[PoolNotice]) -> None:
        self.told.extend(notices)

    def told_to(self, player_id: str) -> list[PoolNotice]:
        return [n for n in self.told if n.view.player_id == player_id]


# On a shared store each service looks for overdue work every minute, not every second, so
# a test that moves its clock a day on does not make 86,400 looks.
QUIET = ServiceConfig(computer_delay=0, heartbeat_seconds=3600, poll_seconds=60)
#: The pool tests' settings: the computer offered after 45 s, the same two kept apart 10 minutes.
POOL_CONFIG = dataclasses.replace(QUIET, pool_wait_seconds=45.0, pool_apart_seconds=600.0)


async def play_turn(service: TableService, table_id: str, player_id: str) -> HandView:
    """The person plays the first card of their hand, first plan."""
    hand = await service.hand(table_id, player_id)
    return await service.play(table_id, player_id, hand.version, hand.hand[0])


async def play_out(service: TableService, clock: ManualClock, table_id: str, limit: int = 2000) -> TableView:
    """Play the match to its end: people play their first card, computers take their turns."""
    for _ in range(limit):
        await clock.run_due()
        table = await service.table(table_id)
        if not table.running:
            return table
        assert table.to_move is not None
        seat = table.seats[table.to_move]
        if seat.player_id is None:
            continue
        await play_turn(service, table_id, seat.player_id)
    raise AssertionError("the match did not end")


def deck_for(hands: list[str], floor: str, players: int = 2) -> list[str]:
    """A deck dealing these hands (seat 0 first: the dealer is the last seat) and floor."""
    from core import Card

    cards = [h.split() for h in hands]
    top = [cards[seat][i] for i in range(4) for seat in range(players)] + floor.split()
    rest = [c.code for c in Card.deck() if c.code not in top]
    # Keep jacks and the 7D away from the floor's replacements.
    return top + rest


def factory(*decks: list[str]) -> Any:
    """A match factory dealing the given decks, the last seat dealing (seat 0 plays first)."""
    from core import Match, Rules

    def make(players: int, rules: Rules) -> Match:
        return Match.new(players, rules, decks=list(decks), dealer=players - 1, seed=1)

    return make
