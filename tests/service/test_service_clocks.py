"""Turn clocks (RULES.md §7, issue 3), driven by a manual clock: no sleeping."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path
from typing import Any

import pytest

from bots.service import ManualClock, TableService
from storage import SqliteStore
from tests.service.helpers import ALICE, BADR, CARLA, DINA, GROUP, QUIET, FakePlatform


async def start_1v1(service: TableService) -> str:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    await service.start_match(lobby.table_id, ALICE)
    return lobby.table_id


async def test_a_warning_reaches_the_player_when_30_seconds_are_left(
    service: TableService, clock: ManualClock, platform: FakePlatform
) -> None:
    table_id = await start_1v1(service)
    table = await service.table(table_id)
    mover = table.seats[table.to_move or 0].player_id
    assert table.seconds_left == 120 and table.turn_seconds == 120
    platform.clear()
    await clock.advance(89)
    assert platform.kinds() == []
    await clock.advance(1)
    assert platform.kinds() == ["clock_warning"]
    warning = platform.notices[0]
    assert warning.player_id == mover and warning.seconds_left == 30  # type: ignore[union-attr]
    assert (await service.table(table_id)).seconds_left == 30


async def test_a_1v1_between_people_times_out_as_resignation(
    service: TableService, clock: ManualClock, platform: FakePlatform
) -> None:
    table_id = await start_1v1(service)
    table = await service.table(table_id)
    late = table.to_move
    assert late is not None
    await clock.advance(119)
    assert (await service.table(table_id)).running
    await clock.advance(1)
    final = await service.table(table_id)
    assert final.status == "finished" and final.winner == 1 - late % 2
    result = platform.of("match_ended")[-1].result
    assert result.reason == "timeout" and result.resigned_seat == late and result.counted


async def test_a_play_restarts_the_clock_for_the_next_player(
    service: TableService, clock: ManualClock, platform: FakePlatform
) -> None:
    table_id = await start_1v1(service)
    await clock.advance(100)  # warned, then plays with 20 s left
    table = await service.table(table_id)
    mover = table.seats[table.to_move or 0].player_id or ""
    hand = await service.hand(table_id, mover)
    await service.play(table_id, mover, hand.version, hand.hand[0])
    await clock.advance(119)
    assert (await service.table(table_id)).running
    assert (await service.table(table_id)).seconds_left == 1


async def test_in_a_4_seat_match_the_beginners_card_is_played_for_the_absent_seat(
    service: TableService, clock: ManualClock, platform: FakePlatform
) -> None:
    lobby = await service.new_lobby(GROUP, ALICE, "2v2")
    for person in (BADR, CARLA, DINA):
        await service.join(lobby.table_id, person)
    table = await service.start_match(lobby.table_id, ALICE)
    absent = table.to_move
    assert absent is not None
    await clock.advance(120)
    after = await service.table(table.table_id)
    assert after.running and after.to_move == (absent + 1) % 4
    assert after.last_play is not None and after.last_play.seat == absent and after.last_play.auto
    assert after.seats[absent].cards == 3


async def test_a_practice_match_waits_then_expires_after_24_hours_idle(
    service: TableService, clock: ManualClock, platform: FakePlatform
) -> None:
    table = await service.practice(GROUP, ALICE)
    await clock.run_due()
    now = await service.table(table.table_id)
    assert now.seats[now.to_move or 0].player_id == ALICE.player_id
    assert now.deadline is None and now.turn_seconds is None  # no clock shown
    await clock.advance(23 * 3600)
    assert (await service.table(table.table_id)).running
    assert platform.of("clock_warning") == []
    await clock.advance(3600)
    final = await service.table(table.table_id)
    assert final.status == "expired" and final.winner is None
    result = platform.of("match_ended")[-1].result
    assert result.reason == "expired" and not result.counted
    assert await service.open_table(GROUP) is None


async def test_after_a_restart_every_clock_resumes_with_the_time_it_had_left(
    db_path: Path, platform: FakePlatform
) -> None:
    clock = ManualClock()
    async with SqliteStore(db_path) as store:
        service = TableService(store, [platform], clock=clock, config=QUIET, rng=random.Random(3))
        await service.start()
        table_id = await start_1v1(service)
        await clock.advance(50)
        await service.close()
    clock.jump(3 * 3600)  # down for three hours
    platform.clear()
    async with SqliteStore(db_path) as store:
        service = TableService(store, [platform], clock=clock, config=QUIET)
        await service.start()
        assert platform.kinds()[:1] == ["table_updated"]  # fresh views re-delivered
        table = await service.table(table_id)
        assert table.running and table.seconds_left == 70
        await clock.advance(39)
        assert platform.of("clock_warning") == []
        await clock.advance(1)
        assert len(platform.of("clock_warning")) == 1
        await clock.advance(29)
        assert (await service.table(table_id)).running
        await clock.advance(1)
        assert (await service.table(table_id)).status == "finished"
        await service.close()


async def test_the_chat_sets_the_turn_clock(service: TableService, clock: ManualClock) -> None:
    await service.set_turn_seconds(GROUP, 45)
    table_id = await start_1v1(service)
    table = await service.table(table_id)
    assert table.turn_seconds == 45 and table.seconds_left == 45
    await clock.advance(45)
    assert (await service.table(table_id)).status == "finished"


async def test_with_the_system_clock_computer_seats_play_by_themselves(db_path: Path) -> None:
    from bots.service import ServiceConfig

    platform = FakePlatform()
    config = ServiceConfig(computer_delay=0, heartbeat_seconds=3600)
    async with SqliteStore(db_path) as store, TableService(store, [platform], config=config) as service:
        table = await service.practice(GROUP, ALICE, players=4)
        await service.drain(timeout=10)
        now = await service.table(table.table_id)
        assert now.seats[now.to_move or 0].player_id == ALICE.player_id
        assert platform.of("your_turn")[-1].player_id == ALICE.player_id


async def test_a_computer_thinks_off_the_event_loop(db_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The expert may think for 150 ms: other tables' presses and deliveries go on meanwhile.
    Each computer here waits until the loop lets it go; on the loop's own thread it never
    would be let go. (Here the computers think in a thread of this process, where the test
    can hold them; tests/service/test_service_thinking.py has them in worker processes.)"""
    from bots.service import ServiceConfig, thinking

    real = thinking.player
    let_go = threading.Event()
    released: list[bool] = []
    threads: list[int] = []

    class Waiting:
        def __init__(self, inner: Any) -> None:
            self.inner = inner

        def choose(self, view: Any) -> Any:
            threads.append(threading.get_ident())
            released.append(let_go.wait(timeout=5))
            return self.inner.choose(view)

    monkeypatch.setattr(thinking, "player", lambda level, seed=None: Waiting(real(level, seed=seed)))
    platform = FakePlatform()
    config = ServiceConfig(computer_delay=0, heartbeat_seconds=3600, computer_processes=0)
    async with SqliteStore(db_path) as store, TableService(store, [platform], config=config) as service:
        table = await service.practice(GROUP, ALICE, players=4)
        if table.seats[table.to_move or 0].player_id == ALICE.player_id:
            hand = await service.hand(table.table_id, ALICE.player_id)
            await service.play(table.table_id, ALICE.player_id, hand.version, hand.hand[0])
        for _ in range(500):
            if threads:
                break
            await asyncio.sleep(0.01)  # the loop runs while the computer waits
        assert threads and threading.get_ident() not in threads
        let_go.set()
        await service.drain(timeout=10)
        now = await service.table(table.table_id)
        assert now.seats[now.to_move or 0].player_id == ALICE.player_id
    assert released and all(released)


async def test_a_computer_seat_waits_its_pause_before_playing(db_path: Path) -> None:
    from bots.service import ServiceConfig

    clock = ManualClock()
    config = ServiceConfig(computer_delay=2.0, heartbeat_seconds=3600)
    platform = FakePlatform()
    async with (
        SqliteStore(db_path) as store,
        TableService(store, [platform], clock=clock, config=config, rng=random.Random(1)) as service,
    ):
        table = await service.practice(GROUP, ALICE)
        if table.to_move == table.seat_of(ALICE.player_id).seat:  # type: ignore[union-attr]
            hand = await service.hand(table.table_id, ALICE.player_id)
            table = (await service.play(table.table_id, ALICE.player_id, hand.version, hand.hand[0])).table
        version = table.version
        await clock.advance(1.9)
        assert (await service.table(table.table_id)).version == version
        await clock.advance(0.1)
        assert (await service.table(table.table_id)).version > version
