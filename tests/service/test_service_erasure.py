"""Forgetting a person: a running match they sit in is resigned first, their profile and
ratings go, the match's record still replays with an anonymous seat; and finished matches
older than the operator keeps them are deleted on the service's heartbeat."""

from __future__ import annotations

import json
import random

from bots.service import ManualClock, ServiceConfig, TableService
from core import Match
from storage import Store
from tests.service.helpers import ALICE, BADR, CARLA, GROUP, QUIET, FakePlatform
from tests.service.test_service_results import start


async def test_forgetting_someone_mid_match_resigns_it_then_erases_them(
    service: TableService, platform: FakePlatform, store: Store
) -> None:
    earlier = await start(service)
    await service.resign(earlier, BADR.player_id)
    running = await start(service)

    forgotten = await service.forget(ALICE.player_id)

    assert (forgotten.found, forgotten.resigned, forgotten.left) == (True, 1, 0)
    ended = platform.of("match_ended")[-1].result
    assert ended.reason == "resigned" and ended.winner == 1
    assert await store.get_player(ALICE.player_id) is None
    assert await store.rating_history(ALICE.player_id) == []
    assert [line.player_id for line in (await service.leaderboard(GROUP)).lines] == [BADR.player_id]
    assert (await service.stats(ALICE.player_id)).line is None
    for table_id in (earlier, running):
        stored = await store.get_table(table_id)
        assert stored is not None and stored.status == "finished"
        anonymous = stored.seats[0]
        assert anonymous.player_id not in (None, ALICE.player_id) and anonymous.name is None
        assert stored.seats[1].player_id == BADR.player_id
        data = (await service.record(table_id)).data
        Match.from_record(json.loads(data))  # still replays
        assert ALICE.player_id.encode() not in data
    assert len({(await store.get_table(t)).seats[0].player_id for t in (earlier, running)}) == 1  # type: ignore[union-attr]


async def test_forgetting_someone_in_a_lobby_leaves_it(service: TableService, store: Store) -> None:
    lobby = await service.new_lobby(GROUP, BADR, "1v1")
    await service.join(lobby.table_id, ALICE)

    forgotten = await service.forget(ALICE.player_id)

    assert (forgotten.resigned, forgotten.left) == (0, 1)
    assert (await service.lobby(lobby.table_id)).seat_of(ALICE.player_id) is None
    assert await store.get_player(ALICE.player_id) is None


async def test_finished_matches_past_their_keeping_are_deleted_on_the_heartbeat(
    store: Store, clock: ManualClock, platform: FakePlatform
) -> None:
    config = ServiceConfig(
        computer_delay=0, heartbeat_seconds=60, poll_seconds=60, keep_finished_days=1
    )
    async with TableService(store, [platform], clock=clock, config=config, rng=random.Random(7)) as service:
        table_id = await start(service, GROUP, ALICE, CARLA)
        await service.resign(table_id, CARLA.player_id)
        assert await store.get_table(table_id) is not None
        store_clock_now = (await store.get_table(table_id)).updated_at  # type: ignore[union-attr]
        clock.jump(store_clock_now + 2 * 86400 - clock.now())
        await clock.advance(61)
        assert await store.get_table(table_id) is None
    assert QUIET.keep_finished_days == 0  # kept for good unless the operator says
