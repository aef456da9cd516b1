"""A new service on the same database file continues every lobby and match."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

import pytest

from bots.service import LobbyView, ManualClock, TableService, lifecycle
from bots.service.lifecycle import REDRAW_AT_ONCE, REDRAW_PER_SECOND
from storage import SqliteStore
from tests.service.helpers import ALICE, BADR, CARLA, QUIET, FakePlatform, play_out


async def test_lobbies_and_matches_continue_after_a_restart(db_path: Path) -> None:
    clock = ManualClock()
    before = FakePlatform()
    async with (
        SqliteStore(db_path) as store,
        TableService(store, [before], clock=clock, config=QUIET, rng=random.Random(5)) as service,
    ):
        waiting = await service.new_lobby("tg:-1", CARLA)
        lobby = await service.new_lobby("tg:-2", ALICE)
        await service.join(lobby.table_id, BADR)
        await service.start_match(lobby.table_id, ALICE)
        for _ in range(7):
            table = await service.table(lobby.table_id)
            pid = table.seats[table.to_move or 0].player_id or ""
            hand = await service.hand(lobby.table_id, pid)
            await service.play(lobby.table_id, pid, hand.version, hand.hand[-1])
        practice = await service.practice("tg:-3", ALICE, players=4)  # computers to move, not yet run
        seen = await service.table(lobby.table_id)
        hands = {s.player_id: await service.hand(lobby.table_id, s.player_id or "") for s in seen.seats}

    after = FakePlatform()
    async with (
        SqliteStore(db_path) as store,
        TableService(store, [after], clock=clock, config=QUIET) as service,
    ):
        assert {n.table_id for n in after.notices} == {waiting.table_id, lobby.table_id, practice.table_id}
        assert isinstance(await service.open_table("tg:-1"), LobbyView)
        table = await service.table(lobby.table_id)
        assert table == seen
        for pid, hand in hands.items():
            assert (await service.hand(lobby.table_id, pid or "")) == hand
        await service.join(waiting.table_id, BADR)
        final = await play_out(service, clock, lobby.table_id)
        assert final.status == "finished"
        await clock.run_due()  # the computers of the practice match take their turns
        resumed = await service.table(practice.table_id)
        assert resumed.seats[resumed.to_move or 0].player_id == ALICE.player_id
        assert (await play_out(service, clock, practice.table_id)).status == "finished"


async def open_lobbies(service: TableService, count: int) -> list[str]:
    return [(await service.new_lobby(f"tg:-{100 + n}", ALICE)).table_id for n in range(count)]


async def test_after_a_stop_that_delivered_everything_nothing_is_drawn_again(db_path: Path) -> None:
    clock = ManualClock()
    async with SqliteStore(db_path) as store:
        service = TableService(store, [FakePlatform()], clock=clock, config=QUIET, rng=random.Random(5))
        await service.start()
        await open_lobbies(service, 3)
        await service.close(delivered=True)

        after = FakePlatform()
        async with TableService(store, [after], clock=clock, config=QUIET) as again:
            assert after.notices == []
            assert isinstance(await again.open_table("tg:-101"), LobbyView)  # loaded when touched


async def test_after_a_stop_that_did_not_the_latest_tables_are_drawn_first_and_the_rest_paced(
    db_path: Path,
) -> None:
    clock = ManualClock()
    count = REDRAW_AT_ONCE + 10
    async with SqliteStore(db_path) as store:
        service = TableService(store, [FakePlatform()], clock=clock, config=QUIET, rng=random.Random(5))
        await service.start()
        opened = await open_lobbies(service, count)
        await service.close()  # some messages may not have gone out

        after = FakePlatform()
        async with TableService(store, [after], clock=clock, config=QUIET) as again:
            drawn = [n.table_id for n in after.notices]
            assert drawn == list(reversed(opened))[:REDRAW_AT_ONCE]  # the latest written first
            touched = opened[0]
            await again.join(touched, BADR)  # drawn by its own action: not again from the backlog
            await clock.advance(9.5 / REDRAW_PER_SECOND)
            assert len({n.table_id for n in after.notices}) == REDRAW_AT_ONCE + 10
            once = [n.table_id for n in after.notices if n.table_id == touched]
            assert len(once) == 1  # its join, not a redraw


async def test_the_tables_to_draw_again_are_listed_a_page_at_a_time_as_the_drawing_reaches_them(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lifecycle, "REDRAW_PAGE", 7)
    clock = ManualClock()
    count = REDRAW_AT_ONCE + 10
    async with SqliteStore(db_path) as store:
        service = TableService(store, [FakePlatform()], clock=clock, config=QUIET, rng=random.Random(5))
        await service.start()
        opened = await open_lobbies(service, count)
        await service.close()  # some messages may not have gone out

        listed: list[int] = []
        changed_tables = store.changed_tables

        async def listing(*args: Any, **kwargs: Any) -> list[tuple[str, float]]:
            page = await changed_tables(*args, **kwargs)
            listed.append(len(page))
            return page

        monkeypatch.setattr(store, "changed_tables", listing)
        after = FakePlatform()
        async with TableService(store, [after], clock=clock, config=QUIET) as again:
            assert [n.table_id for n in after.notices] == list(reversed(opened))[:REDRAW_AT_ONCE]
            assert listed == [7, 7, 7]  # only what the first 20 needed
            await clock.advance(10.5 / REDRAW_PER_SECOND)
            assert [n.table_id for n in after.notices] == list(reversed(opened))
            assert listed == [7, 7, 7, 7, 2]
            assert again.table_counts() == {"lobby": count}


class Telling(FakePlatform):
    """A platform that can tell which tables it still has writes for (``Undelivered``)."""

    def __init__(self) -> None:
        super().__init__()
        self.waiting: set[str] = set()

    def undelivered(self) -> set[str]:
        return set(self.waiting)


def crash(service: TableService) -> None:
    """The process is killed: nothing it armed runs any more, and it notes nothing more."""
    for live in list(service.tables.live.values()):
        live.cancel_timer()
    for timer in (service.lifecycle._takeover, service.lifecycle._heartbeat):
        if timer is not None:
            timer.cancel()


async def test_after_a_crash_only_what_was_still_to_send_and_what_changed_after_the_last_beat_is_drawn(
    db_path: Path,
) -> None:
    config = dataclasses.replace(QUIET, heartbeat_seconds=1.0)
    clock = ManualClock()
    async with SqliteStore(db_path, clock=clock.now) as store:  # rows written on the same clock
        before = Telling()
        service = TableService(store, [before], clock=clock, config=config, rng=random.Random(5))
        await service.start()
        opened = await open_lobbies(service, 30)
        before.waiting = {opened[3]}  # its message had not gone out yet
        await clock.advance(3.5)  # heartbeats note it
        late = [(await service.new_lobby(f"tg:-{200 + n}", ALICE)).table_id for n in range(2)]
        crash(service)

        after = Telling()
        async with TableService(store, [after], clock=clock, config=config) as again:
            await clock.advance(10)
            drawn = {n.table_id for n in after.notices}
            assert drawn == {opened[3], *late}  # not the 29 whose messages had all gone out
            assert [n.table_id for n in after.notices].count(opened[3]) == 1
            assert again.table_counts() == {"lobby": 3}


async def test_a_platform_that_cannot_tell_what_it_still_had_to_send_gets_every_recent_table_again(
    db_path: Path,
) -> None:
    config = dataclasses.replace(QUIET, heartbeat_seconds=1.0)
    clock = ManualClock()
    async with SqliteStore(db_path, clock=clock.now) as store:
        service = TableService(store, [FakePlatform()], clock=clock, config=config, rng=random.Random(5))
        await service.start()
        opened = await open_lobbies(service, 5)
        await clock.advance(3.5)
        crash(service)

        after = FakePlatform()
        async with TableService(store, [after], clock=clock, config=config):
            await clock.advance(10)
            assert {n.table_id for n in after.notices} == set(opened)
