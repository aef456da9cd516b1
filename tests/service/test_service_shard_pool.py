"""Two shard processes of one Discord bot on one PostgreSQL database share the pairing pool:
Discord brings every press in a DM to the process that holds shard 0, so that process alone
pairs; the other puts the people who ask in a server of its shards in the pool, and the
pairing process seats them and tells them, once. Without that both paired Discord's people
and each drew their match for them, so each person got two of every message."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from dataclasses import dataclass

import pytest

from bots.service import ForSeat, ManualClock, Person, PoolOffer, PoolPaired, TableService
from storage import open_store
from tests.service.helpers import QUIET, PoolPlatform

MAHA = Person("dc:11", "مها", "ar")
OMAR = Person("dc:12", "Omar", "en")
OWNER = "dc:900"  # one bot: both processes are its shards


class Shard(PoolPlatform):
    """A Discord shard process's adapter: ``pairs`` as the bot sets it (shard 0 held)."""

    def __init__(self, *, pairs: bool) -> None:
        super().__init__("dc", OWNER)
        self.pairs = pairs


@dataclass
class Shards:
    """The process that holds shard 0 (``zero``, its service ``on_zero``) and another."""

    clock: ManualClock
    zero: Shard
    on_zero: TableService
    other: Shard
    on_other: TableService


@pytest.fixture
async def shards(postgres_schema: str) -> AsyncIterator[Shards]:
    clock = ManualClock()
    first, second = Shard(pairs=True), Shard(pairs=False)
    async with AsyncExitStack() as stack:
        services = []
        for n, platform in enumerate((first, second)):
            store = await stack.enter_async_context(open_store(postgres_schema))
            service = TableService(store, [platform], clock=clock, config=QUIET, rng=random.Random(n),
                                   alone=False)
            services.append(await stack.enter_async_context(service))
        yield Shards(clock, first, services[0], second, services[1])


async def test_only_the_shard_0_process_pairs_and_each_person_is_told_once(shards: Shards) -> None:
    zero, on_zero, other, on_other = shards.zero, shards.on_zero, shards.other, shards.on_other
    # Maha asks in a server of the other process's shard, Omar in his DM (shard 0).
    looking = await on_other.pool_join(MAHA, MAHA.player_id)
    assert looking.state == "waiting"
    await on_zero.pool_join(OMAR, OMAR.player_id)

    assert await on_other.pool_wave() == 0  # not the pairing process: it leaves them be
    assert await on_zero.pool_wave() == 1
    await on_other.pool.follow_seated()
    await on_zero.pool.follow_seated()
    assert await on_other.pool_wave() == 0

    paired = {p.player_id: [n for n in zero.told_to(p.player_id) if isinstance(n, PoolPaired)]
              for p in (MAHA, OMAR)}
    assert [n.view.opponents for n in paired[MAHA.player_id]] == [("Omar",)]
    assert [n.view.opponents for n in paired[OMAR.player_id]] == [("مها",)]
    table_id = paired[MAHA.player_id][0].view.table_id
    assert table_id is not None and paired[OMAR.player_id][0].view.table_id == table_id
    # The match is drawn once, by the pairing process: each seat's own table, in their language.
    drawn = [n for n in zero.notices if isinstance(n, ForSeat)]
    assert sorted({(n.player_id, n.lang) for n in drawn}) == [(MAHA.player_id, "ar"), (OMAR.player_id, "en")]
    assert other.told == [] and other.notices == []
    assert table_id not in on_other.tables.live


async def test_the_other_process_hands_its_waiting_people_to_the_pairing_one(shards: Shards) -> None:
    zero, on_zero, other, on_other = shards.zero, shards.on_zero, shards.other, shards.on_other
    await on_other.pool_join(MAHA, MAHA.player_id)
    await on_other.pool_wave()
    assert other.told == []
    # The pairing process's waves tell her how the search goes: after the wait, the
    # computer is offered (nobody else looks).
    assert await on_zero.pool_wave() == 0
    told = len(zero.told_to(MAHA.player_id))
    await shards.clock.advance(60.0)
    assert await on_zero.pool_wave() == 0
    assert [type(n) for n in zero.told_to(MAHA.player_id)[told:]] == [PoolOffer]
    await on_other.pool_wave()
    assert other.told == []
    # And she can stop looking from her DM, which is the pairing process's.
    left = await on_zero.pool_cancel(MAHA)
    assert left.state == "left"
