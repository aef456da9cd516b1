"""Start-up reads what does not grow with the database: tables load when first touched,
and every clock is armed from the stored due times (on a shared PostgreSQL store, due
work is claimed by a process when it is due). On both backends."""

from __future__ import annotations

import random
import time

import pytest

from bots.service import HandUpdated, LobbyClosed, ManualClock, MatchEnded, TableService
from storage import open_store
from tests.service.helpers import ALICE, BADR, CARLA, QUIET, FakePlatform
from tests.storage.backends import BACKENDS

pytestmark = pytest.mark.parametrize("backend", BACKENDS, indirect=True)
#: How late due work may run on a shared store: the process that armed it is gone, and
#: another claims it at its next look.
TAKEOVER = QUIET.takeover_seconds + QUIET.poll_seconds


def later_clock() -> ManualClock:
    """A service clock an hour ahead of the store's: at the restart, rows written now are
    long past, as a bot's quiet tables are."""
    return ManualClock(start=time.time() + 3600)


async def test_tables_left_alone_before_the_stop_are_not_loaded_at_start_up_but_on_first_touch(
    database: str,
) -> None:
    clock = later_clock()
    async with (
        open_store(database) as store,
        TableService(store, [FakePlatform()], clock=clock, config=QUIET, rng=random.Random(3)) as service,
    ):
        lobby = await service.new_lobby("tg:-1", ALICE)
        await service.join(lobby.table_id, BADR)
        await service.start_match(lobby.table_id, ALICE)
        waiting = await service.new_lobby("tg:-2", CARLA)

    after = FakePlatform()
    async with (
        open_store(database) as store,
        TableService(store, [after], clock=clock, config=QUIET) as service,
    ):
        assert service.table_counts() == {}  # nothing read but the due times
        assert after.notices == []
        table = await service.table(lobby.table_id)
        mover = table.seats[table.to_move or 0].player_id or ""
        hand = await service.hand(lobby.table_id, mover)
        await service.play(lobby.table_id, mover, hand.version, hand.hand[0])
        assert service.table_counts() == {"running": 1}
        reopened = await service.open_table("tg:-2")
        assert reopened is not None and reopened.table_id == waiting.table_id
        assert service.table_counts() == {"running": 1, "lobby": 1}
        assert any(isinstance(n, HandUpdated) for n in after.notices)


async def test_the_clock_of_a_table_not_loaded_still_fires_on_time(database: str) -> None:
    clock = later_clock()
    async with (
        open_store(database) as store,
        TableService(store, [FakePlatform()], clock=clock, config=QUIET, rng=random.Random(3)) as service,
    ):
        lobby = await service.new_lobby("tg:-1", ALICE)
        await service.join(lobby.table_id, BADR)
        started = await service.start_match(lobby.table_id, ALICE)
        left = started.seconds_left
        waiting = await service.new_lobby("tg:-2", CARLA)

    after = FakePlatform()
    async with (
        open_store(database) as store,
        TableService(store, [after], clock=clock, config=QUIET) as service,
    ):
        assert service.table_counts() == {}
        assert left is not None
        await clock.advance(left + 1 + TAKEOVER)  # the turn's clock runs out: its side loses the match
        ended = [n for n in after.notices if isinstance(n, MatchEnded)]
        assert [n.table_id for n in ended] == [lobby.table_id]
        assert (await service.table(lobby.table_id)).status == "finished"
        await clock.advance(QUIET.lobby_idle_seconds + TAKEOVER)  # the untouched lobby closes
        closed = [n for n in after.notices if isinstance(n, LobbyClosed)]
        assert [n.table_id for n in closed] == [waiting.table_id]


async def test_a_computer_whose_turn_came_before_the_stop_plays_once_after_it(database: str) -> None:
    clock = later_clock()
    async with (
        open_store(database) as store,
        TableService(store, [FakePlatform()], clock=clock, config=QUIET, rng=random.Random(4)) as service,
    ):
        table = await service.practice("tg:-3", ALICE, players=4)
        while table.to_move is not None and table.seats[table.to_move].player_id == ALICE.player_id:
            hand = await service.hand(table.table_id, ALICE.player_id)
            await service.play(table.table_id, ALICE.player_id, hand.version, hand.hand[0])
            table = await service.table(table.table_id)
        version = table.version  # a computer is to move, and the service stops before it does

    after = FakePlatform()
    async with (
        open_store(database) as store,
        TableService(store, [after], clock=clock, config=QUIET) as service,
    ):
        await clock.advance(TAKEOVER)
        resumed = await service.table(table.table_id)
        assert resumed.version > version
        assert resumed.seats[resumed.to_move or 0].player_id == ALICE.player_id


async def test_a_match_that_ended_just_before_the_stop_shows_its_result_again(database: str) -> None:
    clock = ManualClock()  # the stop comes right after the end: the table counts as recent
    async with (
        open_store(database) as store,
        TableService(store, [FakePlatform()], clock=clock, config=QUIET, rng=random.Random(3)) as service,
    ):
        lobby = await service.new_lobby("tg:-1", ALICE)
        await service.join(lobby.table_id, BADR)
        await service.start_match(lobby.table_id, ALICE)
        await service.resign(lobby.table_id, BADR.player_id)
        cancelled = await service.new_lobby("tg:-2", CARLA)
        await service.cancel(cancelled.table_id, CARLA)

    after = FakePlatform()
    async with (
        open_store(database) as store,
        TableService(store, [after], clock=clock, config=QUIET) as service,
    ):
        ended = [n for n in after.notices if isinstance(n, MatchEnded)]
        assert [n.table_id for n in ended] == [lobby.table_id]
        closed = [n for n in after.notices if isinstance(n, LobbyClosed)]
        assert [(n.table_id, n.reason) for n in closed] == [(cancelled.table_id, "cancelled")]
        assert service.table_counts() == {}


async def test_a_match_that_ended_long_before_the_stop_is_left_as_it_is(database: str) -> None:
    clock = later_clock()
    async with (
        open_store(database) as store,
        TableService(store, [FakePlatform()], clock=clock, config=QUIET, rng=random.Random(3)) as service,
    ):
        lobby = await service.new_lobby("tg:-1", ALICE)
        await service.join(lobby.table_id, BADR)
        await service.start_match(lobby.table_id, ALICE)
        await service.resign(lobby.table_id, BADR.player_id)

    after = FakePlatform()
    async with (
        open_store(database) as store,
        TableService(store, [after], clock=clock, config=QUIET) as service,
    ):
        assert after.notices == []


async def test_tables_asleep_in_the_store_wake_each_at_its_own_time_from_one_timer(
    database: str, backend: str
) -> None:
    clock = later_clock()
    tables = []
    async with (
        open_store(database) as store,
        TableService(store, [FakePlatform()], clock=clock, config=QUIET, rng=random.Random(3)) as service,
    ):
        for n in range(4):  # four matches whose clocks run out 10 s apart
            lobby = await service.new_lobby(f"tg:-{n + 1}", ALICE)
            await service.join(lobby.table_id, BADR)
            started = await service.start_match(lobby.table_id, ALICE)
            assert started.seconds_left is not None
            tables.append((lobby.table_id, clock.now() + started.seconds_left))
            await clock.advance(10)

    after = FakePlatform()
    async with (
        open_store(database) as store,
        TableService(store, [after], clock=clock, config=QUIET) as service,
    ):
        if backend != "sqlite":  # shared: due work is claimed at a process's next look
            await clock.advance(tables[-1][1] + 1 + TAKEOVER - clock.now())
            ended = {n.table_id for n in after.notices if isinstance(n, MatchEnded)}
            assert ended == {table_id for table_id, _ in tables}
            return
        assert clock.pending <= 3  # one process: the heartbeat, the redraw, one wake-up for all four
        for number, (_, deadline) in enumerate(tables, start=1):
            await clock.advance(deadline + 1 - clock.now())
            ended = [n.table_id for n in after.notices if isinstance(n, MatchEnded)]
            assert ended == [t for t, _ in tables[:number]]


async def test_after_a_stop_stored_tables_wake_later_by_its_length_behind_the_tables_loaded(
    database: str,
) -> None:
    """Acting alone (one process, or a Telegram bot's leading process on PostgreSQL), the
    tables not loaded are woken from the store's due times, moved by the stop."""
    clock = later_clock()
    tables = []
    async with (
        open_store(database) as store,
        TableService(
            store, [FakePlatform()], clock=clock, config=QUIET, rng=random.Random(3), alone=True
        ) as service,
    ):
        for n in range(4):  # four matches whose clocks run out 10 s apart
            lobby = await service.new_lobby(f"tg:-{n + 1}", ALICE)
            await service.join(lobby.table_id, BADR)
            started = await service.start_match(lobby.table_id, ALICE)
            assert started.seconds_left is not None
            tables.append((lobby.table_id, clock.now() + started.seconds_left))
            await clock.advance(10)

    clock.jump(600)  # down for ten minutes: every clock runs out ten minutes later
    after = FakePlatform()
    async with (
        open_store(database) as store,
        TableService(store, [after], clock=clock, config=QUIET, alone=True) as service,
    ):
        assert service.table_counts() == {}
        for table_id, deadline in tables[1:3]:  # loaded before their time: their own timers run them
            assert (await service.table(table_id)).seconds_left == round(deadline + 600 - clock.now())
        assert service.table_counts() == {"running": 2}
        for number, (_, deadline) in enumerate(tables, start=1):
            await clock.advance(deadline + 599 - clock.now())
            ended = [n.table_id for n in after.notices if isinstance(n, MatchEnded)]
            assert ended == [t for t, _ in tables[: number - 1]]
            await clock.advance(2)
            ended = [n.table_id for n in after.notices if isinstance(n, MatchEnded)]
            assert ended == [t for t, _ in tables[:number]]
