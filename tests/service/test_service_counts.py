"""What the service counts for the bots' health and metrics (``bots.metrics``): cards played
by who played them, open tables by status, whether it runs and its store can be read."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bots.service import ManualClock, TableService
from storage import SqliteStore, StorageError
from tests.service.helpers import ALICE, BADR, CARLA, DINA, GROUP, QUIET, FakePlatform

OTHER_GROUP = "tg:-200"


async def test_cards_played_are_counted_by_person_computer_and_clock(
    service: TableService, clock: ManualClock
) -> None:
    lobby = await service.new_lobby(GROUP, ALICE, "2v2")
    for person in (BADR, CARLA, DINA):
        await service.join(lobby.table_id, person)
    table = await service.start_match(lobby.table_id, ALICE)
    mover = table.seats[table.to_move or 0].player_id or ""
    hand = await service.hand(table.table_id, mover)
    await service.play(table.table_id, mover, hand.version, hand.hand[0])
    await clock.advance(120)  # the next seat is away: the clock plays for it
    assert service.plays == {"person": 1, "clock": 1}

    practice = await service.practice(OTHER_GROUP, ALICE, players=4)
    await clock.run_due()  # the computers before Alice
    before = service.plays["computer"]
    hand = await service.hand(practice.table_id, ALICE.player_id)
    await service.play(practice.table_id, ALICE.player_id, hand.version, hand.hand[0])
    await clock.run_due()
    assert service.plays["person"] == 2 and service.plays["computer"] == before + 3


async def test_open_tables_are_counted_by_status(service: TableService) -> None:
    assert service.table_counts() == {}
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.practice(OTHER_GROUP, BADR)
    assert service.table_counts() == {"lobby": 1, "running": 1}
    await service.cancel(lobby.table_id, ALICE)
    assert service.table_counts() == {"running": 1}


async def test_it_runs_from_its_start_to_its_close_and_reads_its_store(
    db_path: Path, platform: FakePlatform
) -> None:
    async with SqliteStore(db_path) as store:
        service = TableService(store, [platform], clock=ManualClock(), config=QUIET, rng=random.Random(1))
        assert not service.running
        await service.start()
        assert service.running
        await service.reach_store()
        await service.close()
        assert not service.running
    with pytest.raises(StorageError):
        await service.reach_store()  # the store is closed
