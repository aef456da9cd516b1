"""Helpers for the service tests: a fake platform adapter, people, playing turns."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bots.service import (
    HandUpdated,
    HandView,
    ManualClock,
    Notice,
    Person,
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

    def __init__(self, name: str = "tg") -> None:
        self.name = name
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


QUIET = ServiceConfig(computer_delay=0, heartbeat_seconds=3600)


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
