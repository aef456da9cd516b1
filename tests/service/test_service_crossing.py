"""A Telegram person and a Discord person paired by the pool when their bots run as separate
processes on one PostgreSQL database: the Telegram process (its bot's leader, alone) and the
Discord process (on the shared store) each act on the match for their own person and each
tells only its own, from what the other did too; the clock is kept by one of them; a
reaction crosses through the store."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack

import pytest

from bots.service import (
    ClockWarning,
    ForSeat,
    HandUpdated,
    ManualClock,
    Person,
    PoolPaired,
    Reacted,
    TableService,
)
from storage import Store, open_store
from tests.service.helpers import ALICE, QUIET, PoolPlatform

DANA = Person("dc:7", "دانة", "ar")
CONFIG = QUIET


class Processes:
    """Two bot processes on one database: Telegram's (first) and Discord's (second)."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.tg = PoolPlatform("tg", "tg:100")
        self.dc = PoolPlatform("dc", "dc:200")
        self.stores: list[Store] = []
        self.telegram: TableService
        self.discord: TableService


@pytest.fixture
async def two(postgres_schema: str) -> AsyncIterator[Processes]:
    clock = ManualClock()
    both = Processes(clock)
    async with AsyncExitStack() as stack:
        services = []
        for n, (platform, alone) in enumerate(((both.tg, True), (both.dc, False))):
            store = await stack.enter_async_context(open_store(postgres_schema))
            service = TableService(
                store, [platform], clock=clock, config=CONFIG, rng=random.Random(n), alone=alone
            )
            services.append(await stack.enter_async_context(service))
            both.stores.append(store)
        both.telegram, both.discord = services
        yield both


async def until(condition: Callable[[], bool], what: str, seconds: float = 5.0) -> None:
    """Wait for what another process's announcement makes happen here."""
    for _ in range(int(seconds / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"not within {seconds} s: {what}")


def hands_to(platform: PoolPlatform, person: Person) -> list[HandUpdated]:
    return [n for n in platform.notices if isinstance(n, HandUpdated) and n.player_id == person.player_id]


async def paired(two: Processes) -> str:
    """Alice (Telegram) and Dana (Discord) each ask in their own process; the Telegram
    process's wave seats them, and the Discord process finds Dana seated: their table."""
    await two.telegram.pool_join(ALICE, ALICE.player_id)
    await two.discord.pool_join(DANA, DANA.player_id)
    assert await two.telegram.pool_wave() == 1
    table_id = two.tg.told_to(ALICE.player_id)[-1].view.table_id
    assert table_id is not None
    await two.discord.pool.follow_seated()
    return table_id


def leaks(platform: PoolPlatform, stranger: Person) -> list[object]:
    """What a platform was handed about the other platform's person's own hand."""
    return [
        n for n in platform.notices
        if isinstance(n, HandUpdated | ClockWarning) and n.player_id == stranger.player_id
    ]


async def test_a_telegram_person_and_a_discord_person_play_a_whole_match_each_told_by_their_own_process(
    two: Processes,
) -> None:
    table_id = await paired(two)

    alice_told = [n for n in two.tg.told_to(ALICE.player_id) if isinstance(n, PoolPaired)]
    dana_told = [n for n in two.dc.told_to(DANA.player_id) if isinstance(n, PoolPaired)]
    assert [n.view.opponents for n in alice_told] == [("دانة",)]
    assert [n.view.opponents for n in dana_told] == [("Alice",)]
    assert dana_told[0].view.table_id == table_id
    assert hands_to(two.tg, ALICE) and hands_to(two.dc, DANA)
    shown = [n for n in two.dc.notices if isinstance(n, ForSeat)]
    assert shown and all((n.player_id, n.lang) == (DANA.player_id, "ar") for n in shown)

    plays = 0
    while True:
        table = await two.telegram.table(table_id)
        if not table.running:
            break
        assert table.to_move is not None
        mover = table.seats[table.to_move].player_id
        if mover == ALICE.player_id:
            person, here, there, other = ALICE, two.telegram, two.dc, DANA
        else:
            person, here, there, other = DANA, two.discord, two.tg, ALICE
        hand = await here.hand(table_id, person.player_id)
        seen = len(hands_to(there, other))
        played = await here.play(table_id, person.player_id, hand.version, hand.hand[0])
        plays += 1
        # The other process hears of it and tells its own person: their hand, at the new version.
        await until(
            lambda there=there, other=other, seen=seen: len(hands_to(there, other)) > seen,  # type: ignore[misc]
            f"play {plays} told to {other.name}",
        )
        assert hands_to(there, other)[-1].hand.version >= played.version

    assert plays >= 24
    for platform, person in ((two.tg, ALICE), (two.dc, DANA)):
        await until(lambda p=platform, who=person: any(  # type: ignore[misc]
            isinstance(n, ForSeat) and n.notice.kind == "match_ended" and n.player_id == who.player_id
            for n in p.notices), f"the result told to {person.name}")
        ends = [n for n in platform.notices if isinstance(n, ForSeat) and n.notice.kind == "match_ended"]
        assert [n.player_id for n in ends] == [person.player_id]
    assert not leaks(two.tg, DANA) and not leaks(two.dc, ALICE)
    for person in (ALICE, DANA):
        profile = await two.stores[0].get_player(person.player_id)
        assert profile is not None and profile.rated_matches == 1
    assert not two.discord.tables.live  # the match over, the follower forgot it


async def test_the_keeping_process_times_the_other_platforms_person_and_their_process_tells_them(
    two: Processes,
) -> None:
    table_id = await paired(two)
    table = await two.telegram.table(table_id)
    if table.seats[table.to_move or 0].player_id == ALICE.player_id:
        hand = await two.telegram.hand(table_id, ALICE.player_id)
        await two.telegram.play(table_id, ALICE.player_id, hand.version, hand.hand[0])
    table = await two.telegram.table(table_id)
    assert table.seats[table.to_move or 0].player_id == DANA.player_id
    assert two.telegram.tables.live[table_id].timer is not None  # the keeper times it
    assert two.discord.tables.live[table_id].timer is None  # the other does not

    await two.clock.advance(CONFIG.pool_turn_seconds - CONFIG.warning_seconds + 0.1)
    await until(lambda: any(isinstance(n, ClockWarning) for n in two.dc.notices), "the warning told to Dana")
    assert not [n for n in two.tg.notices if isinstance(n, ClockWarning)]

    await two.clock.advance(CONFIG.warning_seconds)
    await until(
        lambda: any(isinstance(n, ForSeat) and n.notice.kind == "match_ended" for n in two.dc.notices),
        "the clock's end told to Dana",
    )
    done = await two.telegram.table(table_id)
    assert not done.running and done.winner is not None
    assert await two.stores[0].abandons([DANA.player_id], 0) == {DANA.player_id: 1}


async def test_a_reaction_crosses_to_the_other_process_and_nothing_else_does(two: Processes) -> None:
    table_id = await paired(two)
    await two.discord.react(table_id, DANA, "good_luck")
    await until(lambda: any(isinstance(n, Reacted) for n in two.tg.notices), "Dana's reaction shown to Alice")
    reacted = [n for n in two.tg.notices if isinstance(n, Reacted)]
    assert [(n.player_id, n.sender, n.reaction, n.lang) for n in reacted] == [
        (ALICE.player_id, "دانة", "good_luck", "en")
    ]
    assert not [n for n in two.dc.notices if isinstance(n, Reacted)]


async def test_a_process_that_restarts_draws_its_person_s_match_that_went_on_meanwhile(
    two: Processes, postgres_schema: str
) -> None:
    table_id = await paired(two)
    await two.discord.close()
    table = await two.telegram.table(table_id)
    if table.seats[table.to_move or 0].player_id == ALICE.player_id:
        hand = await two.telegram.hand(table_id, ALICE.player_id)
        played = await two.telegram.play(table_id, ALICE.player_id, hand.version, hand.hand[0])
    else:
        played = await two.telegram.hand(table_id, ALICE.player_id)

    dc = PoolPlatform("dc", "dc:200")
    async with open_store(postgres_schema) as store, TableService(
        store, [dc], clock=two.clock, config=CONFIG, rng=random.Random(9)
    ) as again:
        await again.pool_wave()
        await again.pool.follow_seated()
        hands = hands_to(dc, DANA)
        assert hands and hands[-1].hand.version >= played.version
        assert [n.view.table_id for n in dc.told if isinstance(n, PoolPaired)] == [table_id]
