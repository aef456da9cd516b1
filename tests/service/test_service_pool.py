"""The pairing pool: people who ask to play someone now are paired in waves and seated at a
rated match of their own, which each plays in their private chat, on their own platform,
in their own language; a crash loses nobody."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bots.service import (
    AlreadyLooking,
    AlreadyPaired,
    AlreadyPlaying,
    BadInput,
    ForSeat,
    HandUpdated,
    ManualClock,
    NotLooking,
    NotSeated,
    Person,
    PoolLooking,
    PoolNotHere,
    PoolOffer,
    PoolPaired,
    Reacted,
    TableService,
    TooManyReactions,
    is_pool_chat,
)
from storage import PoolEntry, Store
from tests.service.helpers import ALICE, BADR, CARLA, POOL_CONFIG, PoolPlatform, play_out
from tests.storage.backends import BACKENDS

pytestmark = pytest.mark.parametrize("backend", BACKENDS, indirect=True)

CONFIG = POOL_CONFIG
DANA = Person("dc:7", "Dana", "en")


def private(person: Person) -> str:
    return person.player_id  # a person's private chat has their own id on Telegram


async def seated_pair(pool: TableService, tg: PoolPlatform) -> str:
    """Alice and Badr look for someone, a wave pairs them: their table's id."""
    for person in (ALICE, BADR):
        await pool.pool_join(person, private(person))
    assert await pool.pool_wave() == 1
    table_id = tg.told[-1].view.table_id
    assert table_id is not None
    return table_id


async def test_two_people_are_paired_at_a_rated_match_each_in_their_own_chat_and_language(
    pool: TableService, tg: PoolPlatform, clock: ManualClock, store: Store
) -> None:
    first = await pool.pool_join(ALICE, private(ALICE))
    assert (first.state, first.looking, first.offered) == ("waiting", 1, False)
    clock.jump(1)
    second = await pool.pool_join(BADR, private(BADR))
    assert second.looking == 2

    assert await pool.pool_wave() == 1

    paired = [n for n in tg.told if isinstance(n, PoolPaired)]
    assert {(n.view.player_id, n.view.opponents) for n in paired} == {
        (ALICE.player_id, ("بدر",)), (BADR.player_id, ("Alice",))
    }
    table_id = paired[0].view.table_id
    assert table_id is not None and all(n.view.table_id == table_id for n in paired)
    table = await pool.table(table_id)
    assert table.running and table.rated and not table.practice and table.mode == "1v1"
    assert is_pool_chat(table.chat_id)
    assert table.turn_seconds == CONFIG.pool_turn_seconds
    # The public notices come once per person, in their language; hands to their own only.
    shown = [n for n in tg.notices if isinstance(n, ForSeat)]
    assert {(n.player_id, n.lang) for n in shown} == {(ALICE.player_id, "en"), (BADR.player_id, "ar")}
    hands = [n for n in tg.notices if isinstance(n, HandUpdated)]
    assert {n.player_id for n in hands} == {ALICE.player_id, BADR.player_id}
    assert all(n.hand.player_id == n.player_id for n in hands)

    done = await play_out(pool, clock, table_id)
    assert not done.running and done.winner is not None
    ends = [n for n in tg.notices if isinstance(n, ForSeat) and n.notice.kind == "match_ended"]
    assert {n.player_id for n in ends} == {ALICE.player_id, BADR.player_id}
    for person in (ALICE, BADR):
        profile = await store.get_player(person.player_id)
        assert profile is not None and profile.rated_matches == 1


async def test_joining_twice_keeps_one_entry(pool: TableService, store: Store) -> None:
    await pool.pool_join(ALICE, private(ALICE))
    with pytest.raises(AlreadyLooking):
        await pool.pool_join(ALICE, private(ALICE))
    assert [e.player_id for e in await store.pool_entries(["tg"])] == [ALICE.player_id]


async def test_cancel_leaves_the_pool_once(pool: TableService, store: Store) -> None:
    await pool.pool_join(ALICE, private(ALICE))
    left = await pool.pool_cancel(ALICE)
    assert left.state == "left"
    assert await store.pool_entry(ALICE.player_id) is None
    with pytest.raises(NotLooking):
        await pool.pool_cancel(ALICE)
    with pytest.raises(NotLooking):
        await pool.pool_keep_waiting(ALICE)


async def test_a_group_or_another_platform_is_not_the_pool(pool: TableService) -> None:
    with pytest.raises(PoolNotHere):
        await pool.pool_join(DANA, "dc:7")  # this service serves no Discord
    with pytest.raises(PoolNotHere):
        await pool.pool_join(ALICE, "dc:1")


async def test_someone_alone_is_offered_the_computer_once_and_may_keep_waiting(
    pool: TableService, tg: PoolPlatform, clock: ManualClock
) -> None:
    await pool.pool_join(ALICE, private(ALICE))
    clock.jump(CONFIG.pool_wait_seconds - 1)
    await pool.pool_wave()
    assert not [n for n in tg.told if isinstance(n, PoolOffer)]
    clock.jump(2)
    await pool.pool_wave()
    clock.jump(20)
    await pool.pool_wave()
    offers = [n for n in tg.told if isinstance(n, PoolOffer)]
    assert len(offers) == 1 and offers[0].view.offered and offers[0].view.level == "beginner"
    still = await pool.pool_keep_waiting(ALICE)
    assert still.state == "waiting" and still.offered
    instead = await pool.pool_computer(ALICE)
    assert instead.state == "left" and instead.level == "beginner"
    practice = await pool.practice(private(ALICE), ALICE, level=instead.level)
    assert practice.practice and practice.running


async def test_nobody_plays_twice_nor_cancels_a_match_begun(pool: TableService) -> None:
    await pool.pool_join(ALICE, private(ALICE))
    await pool.pool_join(BADR, private(BADR))
    await pool.pool_wave()
    with pytest.raises(AlreadyPlaying):
        await pool.pool_join(ALICE, private(ALICE))
    with pytest.raises(AlreadyPaired):
        await pool.pool_cancel(BADR)
    status = await pool.pool_status(BADR)
    assert status is not None and status.state == "seated" and status.table_id is not None
    await pool.resign(status.table_id, BADR.player_id)
    # Their match is over: they may look again.
    again = await pool.pool_join(BADR, private(BADR))
    assert again.state == "waiting"


async def test_the_same_two_wait_apart_and_a_block_keeps_them_apart(
    pool: TableService, clock: ManualClock, tg: PoolPlatform
) -> None:
    table_id = await seated_pair(pool, tg)
    await pool.resign(table_id, ALICE.player_id)
    for person in (ALICE, BADR):
        await pool.pool_join(person, private(person))
    assert await pool.pool_wave() == 0  # just played each other
    clock.jump(CONFIG.pool_apart_seconds + 1)
    assert await pool.pool_wave() == 1
    second = [n for n in tg.told if isinstance(n, PoolPaired)][-1].view.table_id
    assert second is not None and second != table_id
    await pool.resign(second, BADR.player_id)
    assert await pool.pool_block(ALICE, second) == ("بدر",)
    for person in (ALICE, BADR):
        await pool.pool_join(person, private(person))
    clock.jump(CONFIG.pool_apart_seconds + 1)
    assert await pool.pool_wave() == 0
    await pool.pool_join(CARLA, private(CARLA))
    assert await pool.pool_wave() == 1  # each may still meet someone else


async def test_ratings_far_apart_wait_until_the_gap_allowed_widens(
    pool: TableService, clock: ManualClock, store: Store
) -> None:
    await store.upsert_player(ALICE.player_id, ALICE.name, "en")
    profile = await store.get_player(ALICE.player_id)
    assert profile is not None
    await store.upsert_player(BADR.player_id, BADR.name, "ar")
    strong = profile.model_copy(update={"player_id": CARLA.player_id, "name": CARLA.name, "rating": 30.0})
    await pool.pool_join(ALICE, private(ALICE))
    entry = await store.pool_entry(ALICE.player_id)
    assert entry is not None
    far = entry.model_copy(update={"player_id": CARLA.player_id, "name": CARLA.name,
                                   "chat_id": CARLA.player_id, "rating": strong.rating})
    assert (await store.enter_pool(far))[1]
    assert await pool.pool_wave() == 0
    clock.jump(60)
    assert await pool.pool_wave() == 1


async def test_a_wave_that_died_between_marking_and_opening_loses_nobody(
    database: str, clock: ManualClock, tg: PoolPlatform
) -> None:
    from storage import open_store

    async with open_store(database) as store:
        for person in (ALICE, BADR):
            await store.enter_pool(PoolEntry(player_id=person.player_id, platform="tg",
                                             chat_id=person.player_id, name=person.name,
                                             joined_at=clock.now()))
        # A process marked them seated at a table, and died before it opened it.
        assert await store.seat_pool([ALICE.player_id, BADR.player_id], "never0opened", clock.now())
    async with open_store(database) as store, TableService(
        store, [tg], clock=clock, config=CONFIG, rng=random.Random(7)
    ) as svc:
        await svc.pool_join(CARLA, private(CARLA))  # waits across the next stop
    async with open_store(database) as store, TableService(
        store, [tg], clock=clock, config=CONFIG, rng=random.Random(7)
    ) as svc:
        assert await svc.pool_wave() == 1
        resumed = [n for n in tg.told if isinstance(n, PoolLooking) and n.resumed]
        everyone = [ALICE.player_id, BADR.player_id, CARLA.player_id]
        assert sorted(n.view.player_id for n in resumed) == everyone
        paired = [n for n in tg.told if isinstance(n, PoolPaired)]
        assert len(paired) == 2 and paired[0].view.table_id != "never0opened"


async def test_waves_run_with_the_heartbeat(store: Store, clock: ManualClock, tg: PoolPlatform) -> None:
    config = dataclasses.replace(CONFIG, heartbeat_seconds=1.0, pool_wave_seconds=2.0)
    async with TableService(store, [tg], clock=clock, config=config, rng=random.Random(7)) as svc:
        await svc.pool_join(ALICE, private(ALICE))
        await svc.pool_join(BADR, private(BADR))
        for _ in range(4):
            await clock.advance(1.0)
        assert [n.view.player_id for n in tg.told if isinstance(n, PoolPaired)]


async def test_a_telegram_person_and_a_discord_person_play_each_on_their_own_platform(
    store: Store, clock: ManualClock, tg: PoolPlatform
) -> None:
    dc = PoolPlatform("dc")
    async with TableService(store, [tg, dc], clock=clock, config=CONFIG, rng=random.Random(7)) as svc:
        await svc.pool_join(ALICE, private(ALICE))
        await svc.pool_join(DANA, "dc:70")
        assert await svc.pool_wave() == 1
        assert [n.view.opponents for n in tg.told if isinstance(n, PoolPaired)] == [("Dana",)]
        assert [n.view.opponents for n in dc.told if isinstance(n, PoolPaired)] == [("Alice",)]
        for platform, person in ((tg, ALICE), (dc, DANA)):
            people = {n.player_id for n in platform.notices}
            assert people == {person.player_id}, "each platform hears of its own person only"
        table_id = tg.told[-1].view.table_id
        assert table_id is not None
        done = await play_out(svc, clock, table_id)
        assert not done.running
        assert any(isinstance(n, ForSeat) and n.notice.kind == "match_ended" for n in dc.notices)


async def test_a_rematch_waits_for_that_same_opponent_who_must_press_it_too(
    pool: TableService, tg: PoolPlatform
) -> None:
    table_id = await seated_pair(pool, tg)
    await pool.resign(table_id, BADR.player_id)
    await pool.pool_rematch(ALICE, private(ALICE), table_id)
    await pool.pool_join(CARLA, private(CARLA))
    assert await pool.pool_wave() == 0  # Alice waits for Badr alone, Carla for anyone
    await pool.pool_rematch(BADR, private(BADR), table_id)
    assert await pool.pool_wave() == 1  # just met, but both asked for each other
    again = [n for n in tg.told if isinstance(n, PoolPaired)][-2:]
    assert {n.view.player_id for n in again} == {ALICE.player_id, BADR.player_id}
    with pytest.raises(NotSeated):
        await pool.pool_rematch(CARLA, private(CARLA), table_id)


async def test_four_people_asking_for_2v2_sit_at_one_table_as_two_teams(
    pool: TableService, tg: PoolPlatform
) -> None:
    dina = Person("tg:4", "دينا", "ar")
    for person in (ALICE, BADR, CARLA):
        await pool.pool_join(person, private(person), "2v2")
    assert await pool.pool_wave() == 0
    await pool.pool_join(dina, private(dina), "2v2")
    assert await pool.pool_wave() == 1
    paired = [n for n in tg.told if isinstance(n, PoolPaired)]
    assert len(paired) == 4
    assert all((len(n.view.opponents), len(n.view.partners)) == (2, 1) for n in paired)
    table_id = paired[0].view.table_id
    assert table_id is not None
    table = await pool.table(table_id)
    assert table.mode == "2v2" and table.players == 4
    assert sorted(len(table.seats_of_team(team)) for team in (0, 1)) == [2, 2]


async def test_strangers_exchange_canned_reactions_a_few_a_minute(
    pool: TableService, tg: PoolPlatform, clock: ManualClock
) -> None:
    table_id = await seated_pair(pool, tg)
    for reaction in ("good_luck", "well_played", "thanks"):
        await pool.react(table_id, ALICE, reaction)
    reacted = [n for n in tg.notices if isinstance(n, Reacted)]
    assert [(n.player_id, n.sender, n.reaction, n.lang) for n in reacted] == [
        (BADR.player_id, "Alice", r, "ar") for r in ("good_luck", "well_played", "thanks")
    ]
    with pytest.raises(TooManyReactions):
        await pool.react(table_id, ALICE, "good_game")
    with pytest.raises(NotSeated):
        await pool.react(table_id, CARLA, "good_game")
    with pytest.raises(BadInput):
        await pool.react(table_id, BADR, "anything you like")
    clock.jump(61)
    await pool.react(table_id, ALICE, "good_game")
    assert len([n for n in tg.notices if isinstance(n, Reacted)]) == 4


async def test_who_abandons_matches_often_is_paired_with_others_who_do(
    pool: TableService, tg: PoolPlatform, clock: ManualClock, store: Store
) -> None:
    table_id = await seated_pair(pool, tg)
    await pool.resign(table_id, ALICE.player_id)
    assert await store.abandons([ALICE.player_id, BADR.player_id], clock.now() - 60) == {ALICE.player_id: 1}
    for n in range(2):
        await store.note_abandon(ALICE.player_id, f"earlier{n}", clock.now())
        await store.note_abandon(CARLA.player_id, f"earlier{n}", clock.now())
    await store.note_abandon(CARLA.player_id, "earlier2", clock.now())
    clock.jump(CONFIG.pool_apart_seconds + 1)
    dina = Person("tg:4", "دينا", "ar")
    for person in (ALICE, dina):
        await pool.pool_join(person, private(person))
    assert await pool.pool_wave() == 0  # Alice abandoned three; Dina none
    await pool.pool_join(CARLA, private(CARLA))
    assert await pool.pool_wave() == 1
    paired = [n for n in tg.told if isinstance(n, PoolPaired)][-2:]
    assert {n.view.player_id for n in paired} == {ALICE.player_id, CARLA.player_id}


async def test_the_online_ladder_lists_the_players_of_stranger_matches_only(
    pool: TableService, tg: PoolPlatform, clock: ManualClock
) -> None:
    table_id = await seated_pair(pool, tg)
    await pool.resign(table_id, BADR.player_id)
    lobby = await pool.new_lobby("tg:-100", CARLA)
    await pool.join(lobby.table_id, Person("tg:4", "دينا", "ar"))
    await pool.start_match(lobby.table_id, CARLA)
    await pool.resign(lobby.table_id, "tg:4")
    ladder = await pool.leaderboard(online=True)
    assert ladder.online and [line.name for line in ladder.lines] == ["Alice", "بدر"]
    everyone = await pool.leaderboard()
    assert {line.name for line in everyone.lines} == {"Alice", "بدر", "Carla", "دينا"}


async def test_who_began_another_match_while_waiting_leaves_the_pool_unseated(
    pool: TableService, store: Store
) -> None:
    for person in (ALICE, BADR):
        await pool.pool_join(person, private(person))
    practice = await pool.practice(private(ALICE), ALICE)
    assert practice.running
    assert await pool.pool_wave() == 0
    assert await store.pool_entry(ALICE.player_id) is None
    waiting = await store.pool_entry(BADR.player_id)
    assert waiting is not None and waiting.state == "waiting"


async def test_a_lobby_rematch_of_a_stranger_match_is_refused(pool: TableService, tg: PoolPlatform) -> None:
    table_id = await seated_pair(pool, tg)
    await pool.resign(table_id, ALICE.player_id)
    with pytest.raises(BadInput):
        await pool.rematch(table_id, BADR)
