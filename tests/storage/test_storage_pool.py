"""The pairing pool ("play someone now"): who waits, who a wave seated, who was paired with
whom, who blocked whom and who abandoned which match; seating is all or nothing, and two
processes never seat one person twice. On both backends."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest

from storage import PoolEntry, Store, open_store

NOW = 1_700_000_000.0
DAY = 86400.0


def entry(player_id: str, joined_at: float = NOW, **fields: Any) -> PoolEntry:
    """A waiting person of Telegram unless ``fields`` say otherwise."""
    platform = player_id.partition(":")[0]
    values: dict[str, Any] = {
        "player_id": player_id,
        "platform": platform,
        "chat_id": player_id,
        "name": f"Player {player_id}",
        "joined_at": joined_at,
    }
    values.update(fields)
    return PoolEntry(**values)


async def enter(store: Store, *player_ids: str) -> list[PoolEntry]:
    """Enter each person, one second apart, in the order given."""
    return [(await store.enter_pool(entry(p, NOW + n)))[0] for n, p in enumerate(player_ids)]


async def states(store: Store, *player_ids: str) -> list[tuple[str, str | None] | None]:
    found = [await store.pool_entry(p) for p in player_ids]
    return [None if e is None else (e.state, e.table_id) for e in found]


async def test_an_entry_is_stored_whole_and_entering_again_gives_the_first(store: Store) -> None:
    first = entry(
        "tg:1", name="سارة ♠", lang="ar", rating=21.5, provisional=True, mode="2v2", partner="tg:2",
        offered=True, message={"chat": 1, "message_id": [5, 6]},
    )
    assert await store.enter_pool(first) == (first, True)
    again = entry("tg:1", NOW + 30, name="Sara", mode="1v1")
    assert await store.enter_pool(again) == (first, False)
    assert await store.pool_entry("tg:1") == first
    assert await store.pool_entry("tg:2") is None


async def test_entries_are_read_by_platform_and_state_the_longest_waiting_first(store: Store) -> None:
    await store.enter_pool(entry("tg:3", NOW + 5))
    await store.enter_pool(entry("dc:1", NOW + 1))
    await store.enter_pool(entry("tg:1", NOW + 9))
    await store.enter_pool(entry("tg:2", NOW + 5))  # a tie: by id
    await store.enter_pool(entry("web:1", NOW))
    assert await store.seat_pool(["tg:3"], "t1", NOW + 10)

    def ids(entries: list[PoolEntry]) -> list[str]:
        return [e.player_id for e in entries]

    assert ids(await store.pool_entries(["tg"])) == ["tg:2", "tg:3", "tg:1"]
    assert ids(await store.pool_entries(["tg"], "waiting")) == ["tg:2", "tg:1"]
    assert ids(await store.pool_entries(["tg"], "seated")) == ["tg:3"]
    assert ids(await store.pool_entries(["tg", "dc"], "waiting")) == ["dc:1", "tg:2", "tg:1"]
    assert ids(await store.pool_entries(["web", "dc", "tg"])) == ["web:1", "dc:1", "tg:2", "tg:3", "tg:1"]
    assert await store.pool_entries(["xx"]) == []
    assert await store.pool_entries([]) == []


async def test_entries_are_read_since_a_time_they_joined(store: Store) -> None:
    await enter(store, "tg:1", "tg:2", "dc:3", "tg:4")  # one second apart
    assert await store.seat_pool(["tg:1", "tg:2", "dc:3", "tg:4"], "t1", NOW + 10)
    recent = await store.pool_entries(["tg"], "seated", joined_since=NOW + 1)
    assert [e.player_id for e in recent] == ["tg:2", "tg:4"]
    either = await store.pool_entries(["tg", "dc"], joined_since=NOW + 2)
    assert [e.player_id for e in either] == ["dc:3", "tg:4"]
    assert await store.pool_entries(["tg"], "waiting", joined_since=NOW) == []


async def test_an_update_writes_only_over_the_state_expected(store: Store) -> None:
    [waiting] = await enter(store, "tg:1")
    offered = waiting.model_copy(update={"offered": True, "message": {"id": 7}, "rating": 30.0})

    assert not await store.update_pool_entry(offered, "seated")
    assert await store.pool_entry("tg:1") == waiting
    assert await store.update_pool_entry(offered, "waiting")
    assert await store.pool_entry("tg:1") == offered

    moved = offered.model_copy(update={"state": "seated", "table_id": "t9"})
    assert await store.update_pool_entry(moved, "waiting")
    assert await store.pool_entry("tg:1") == moved
    assert not await store.update_pool_entry(offered, "waiting")  # it is seated now
    assert await store.pool_entry("tg:1") == moved
    assert not await store.update_pool_entry(entry("tg:404"), "waiting")
    assert await store.pool_entry("tg:404") is None


async def test_leaving_deletes_an_entry_only_in_the_state_given(store: Store) -> None:
    waiting, seated, other = await enter(store, "tg:1", "tg:2", "tg:3")
    assert await store.seat_pool(["tg:2"], "t1", NOW)
    seated = seated.model_copy(update={"state": "seated", "table_id": "t1"})

    assert await store.leave_pool("tg:2") is None  # waiting, by default
    assert await store.pool_entry("tg:2") == seated
    assert await store.leave_pool("tg:1", "seated") is None
    assert await store.pool_entry("tg:1") == waiting

    assert await store.leave_pool("tg:1") == waiting
    assert await store.leave_pool("tg:2", "seated") == seated
    assert await store.leave_pool("tg:3", None) == other
    assert await states(store, "tg:1", "tg:2", "tg:3") == [None, None, None]
    assert await store.leave_pool("tg:1", None) is None


async def test_a_seating_seats_everyone_or_no_one(store: Store) -> None:
    await enter(store, "tg:1", "tg:2", "tg:3", "tg:4")
    assert await store.seat_pool(["tg:3"], "t0", NOW + 10)
    before = [await store.pool_entry(p) for p in ("tg:1", "tg:2", "tg:3", "tg:4")]

    assert not await store.seat_pool(["tg:1", "tg:2", "tg:3"], "t1", NOW + 20)  # tg:3 is seated
    assert not await store.seat_pool(["tg:1", "tg:2", "tg:404"], "t1", NOW + 20)  # tg:404 is not in
    assert [await store.pool_entry(p) for p in ("tg:1", "tg:2", "tg:3", "tg:4")] == before
    assert await store.pool_pairs_since(["tg:1", "tg:2", "tg:3"], 0.0) == set()

    assert await store.seat_pool(["tg:2", "tg:1", "tg:4", "tg:1"], "t2", NOW + 30)
    assert await states(store, "tg:1", "tg:2", "tg:3", "tg:4") == [
        ("seated", "t2"), ("seated", "t2"), ("seated", "t0"), ("seated", "t2")
    ]
    assert await store.pool_pairs_since(["tg:1", "tg:2", "tg:3", "tg:4"], 0.0) == {
        frozenset({"tg:1", "tg:2"}), frozenset({"tg:1", "tg:4"}), frozenset({"tg:2", "tg:4"})
    }
    seated = await store.pool_entry("tg:1")
    assert seated is not None and seated.name == "Player tg:1" and seated.joined_at == NOW
    with pytest.raises(ValueError):
        await store.seat_pool([], "t3", NOW)


async def test_two_seatings_of_overlapping_people_at_once_seat_each_person_once(store: Store) -> None:
    people = [f"tg:{n}" for n in range(6)]
    await enter(store, *people)
    seatings = [(["tg:0", "tg:1"], "a"), (["tg:1", "tg:2"], "b"), (["tg:2", "tg:3", "tg:4"], "c"),
                (["tg:4", "tg:5"], "d"), (["tg:5", "tg:0"], "e")]
    done = await asyncio.gather(*(store.seat_pool(ids, table, NOW) for ids, table in seatings))
    await assert_seated_once(store, people, seatings, done)


async def assert_seated_once(
    store: Store, people: list[str], seatings: list[tuple[list[str], str]], done: list[bool]
) -> None:
    """Each seating that says it won has all its people at its table, no two winners share a
    person, and the ones that lost changed nobody."""
    won = [seating for seating, ok in zip(seatings, done, strict=True) if ok]
    assert won
    for (first, _), (second, _) in itertools.combinations(won, 2):
        assert not set(first) & set(second)
    expected: dict[str, tuple[str, str | None]] = {p: ("waiting", None) for p in people}
    for ids, table in won:
        expected.update({p: ("seated", table) for p in ids})
    assert await states(store, *people) == [expected[p] for p in people]
    paired = {frozenset(pair) for ids, _ in won for pair in itertools.combinations(ids, 2)}
    assert await store.pool_pairs_since(people, 0.0) == paired


async def test_two_processes_seating_overlapping_people_at_once_seat_each_person_once(
    postgres_schema: str,
) -> None:
    async with open_store(postgres_schema) as first, open_store(postgres_schema) as second:
        for attempt in range(8):
            people = [f"tg:{attempt}-{n}" for n in range(5)]
            await enter(first, *people)
            seatings = [(people[0:3], f"a{attempt}"), (people[2:5], f"b{attempt}"),
                        (people[3:5], f"c{attempt}"), (people[0:2], f"d{attempt}")]
            done = await asyncio.gather(
                *(store.seat_pool(ids, table, NOW)
                  for store, (ids, table) in zip(itertools.cycle((first, second)), seatings))
            )
            # The two that share a person: never both (a seating of others that went first may
            # have left neither whole, as each store runs its calls on connections of its own).
            assert sum(done[:2]) <= 1
            assert any(done)
            await assert_seated_once(second, people, seatings, done)


async def test_two_processes_entering_one_person_at_once_add_one_entry(postgres_schema: str) -> None:
    async with open_store(postgres_schema) as first, open_store(postgres_schema) as second:
        for attempt in range(5):
            player = f"tg:{attempt}"
            mine, theirs = entry(player, name="mine"), entry(player, name="theirs")
            (one, added_one), (other, added_other) = await asyncio.gather(
                first.enter_pool(mine), second.enter_pool(theirs)
            )
            assert sorted([added_one, added_other]) == [False, True]
            assert one == other == await first.pool_entry(player)
            assert one in (mine, theirs)


async def test_pairs_are_found_since_a_time_and_forgotten_after_a_day(store: Store) -> None:
    await enter(store, "tg:1", "tg:2", "tg:3", "tg:4", "tg:5")
    assert await store.seat_pool(["tg:1", "tg:2"], "t1", NOW + 100)
    assert await store.seat_pool(["tg:3", "tg:4"], "t2", NOW + 200)
    for person in ("tg:1", "tg:2"):  # told, let go, and back
        await store.leave_pool(person, "seated")
    await store.enter_pool(entry("tg:1", NOW + 300))
    await store.enter_pool(entry("tg:2", NOW + 300))
    assert await store.seat_pool(["tg:1", "tg:2"], "t3", NOW + 300)

    everyone = ["tg:1", "tg:2", "tg:3", "tg:4", "tg:5"]
    one_two, three_four = frozenset({"tg:1", "tg:2"}), frozenset({"tg:3", "tg:4"})
    assert await store.pool_pairs_since(everyone, NOW) == {one_two, three_four}
    assert await store.pool_pairs_since(everyone, NOW + 200) == {one_two, three_four}  # at or after
    assert await store.pool_pairs_since(everyone, NOW + 201) == {one_two}
    assert await store.pool_pairs_since(everyone, NOW + 301) == set()
    assert await store.pool_pairs_since(["tg:1", "tg:3", "tg:4"], NOW) == {three_four}  # both among them
    assert await store.pool_pairs_since(["tg:1", "tg:5"], NOW) == set()

    # A seating a day after the first two forgets them, and keeps the one within the day.
    assert await store.seat_pool(["tg:5"], "t4", NOW + 250 + DAY)
    assert await store.pool_pairs_since(everyone, 0.0) == {one_two}
    assert await store.pool_pairs_since(everyone, NOW + 250) == {one_two}


async def test_a_block_keeps_two_apart_whichever_blocked_the_other(store: Store) -> None:
    await store.block_player("tg:1", "tg:2", NOW)
    await store.block_player("tg:1", "tg:2", NOW + 5)  # again: nothing more
    await store.block_player("tg:4", "tg:3", NOW)
    await store.block_player("tg:3", "tg:4", NOW)  # each blocked the other

    assert await store.blocked_pairs(["tg:1", "tg:2", "tg:3", "tg:4", "tg:5"]) == {
        frozenset({"tg:1", "tg:2"}), frozenset({"tg:3", "tg:4"})
    }
    assert await store.blocked_pairs(["tg:2", "tg:1"]) == {frozenset({"tg:1", "tg:2"})}
    assert await store.blocked_pairs(["tg:3", "tg:4"]) == {frozenset({"tg:3", "tg:4"})}
    assert await store.blocked_pairs(["tg:1", "tg:3", "tg:5"]) == set()
    assert await store.blocked_pairs([]) == set()
    with pytest.raises(ValueError):
        await store.block_player("tg:1", "tg:1", NOW)


async def test_an_erased_person_leaves_nothing_in_the_pool(store: Store) -> None:
    await store.enter_pool(entry("tg:1", mode="2v2", partner="tg:2"))
    await store.enter_pool(entry("tg:2", mode="2v2", partner="tg:1"))
    await enter(store, "tg:3", "tg:4")
    assert await store.seat_pool(["tg:1", "tg:2", "tg:3", "tg:4"], "t1", NOW)
    await store.block_player("tg:1", "tg:5", NOW)
    await store.block_player("tg:6", "tg:1", NOW)
    await store.block_player("tg:5", "tg:6", NOW)

    assert await store.forget_player("tg:1", "tg:erased-a") is True  # no profile, only the pool

    assert await store.pool_entry("tg:1") is None
    partner = await store.pool_entry("tg:2")
    assert partner is not None and partner.partner == "tg:erased-a"
    everyone = ["tg:1", "tg:2", "tg:3", "tg:4", "tg:5", "tg:6", "tg:erased-a"]
    assert await store.pool_pairs_since(everyone, 0.0) == {
        frozenset({"tg:2", "tg:3"}), frozenset({"tg:2", "tg:4"}), frozenset({"tg:3", "tg:4"})
    }
    assert await store.blocked_pairs(everyone) == {frozenset({"tg:5", "tg:6"})}
    assert await store.forget_player("tg:1", "tg:erased-b") is False
    assert await store.forget_player("tg:6", "tg:erased-c") is True  # a block they made is theirs
    assert await store.blocked_pairs(everyone) == set()


async def test_the_pool_outlasts_the_store_closed_and_opened_again(database: str) -> None:
    async with open_store(database) as store:
        waiting, seated = await enter(store, "tg:1", "tg:2")
        waiting = waiting.model_copy(update={"message": {"chat": "tg:1", "id": 42}})
        assert await store.update_pool_entry(waiting, "waiting")
        await store.enter_pool(entry("tg:3", NOW + 2))
        assert await store.seat_pool(["tg:2", "tg:3"], "t1", NOW + 10)
        await store.block_player("tg:1", "tg:3", NOW)
    async with open_store(database) as store:
        assert await store.pool_entry("tg:1") == waiting
        assert await store.enter_pool(entry("tg:1", NOW + 99)) == (waiting, False)
        assert [e.player_id for e in await store.pool_entries(["tg"], "seated")] == ["tg:2", "tg:3"]
        assert await store.pool_pairs_since(["tg:1", "tg:2", "tg:3"], NOW) == {frozenset({"tg:2", "tg:3"})}
        assert await store.blocked_pairs(["tg:1", "tg:2", "tg:3"]) == {frozenset({"tg:1", "tg:3"})}
        assert not await store.seat_pool(["tg:1", "tg:2"], "t2", NOW + 20)
        assert await store.pool_entry("tg:2") == seated.model_copy(
            update={"state": "seated", "table_id": "t1"}
        )


async def test_an_abandon_counts_once_a_match_and_only_since_a_time(store: Store) -> None:
    await store.note_abandon("tg:1", "t1", NOW)
    await store.note_abandon("tg:1", "t1", NOW + 50)  # again: nothing more, and still at NOW
    await store.note_abandon("tg:1", "t2", NOW + 100)
    await store.note_abandon("tg:2", "t2", NOW + 100)  # both of one match abandoned it
    await store.note_abandon("tg:3", "t3", NOW + 200)

    assert await store.abandons(["tg:1", "tg:2", "tg:4"], NOW) == {"tg:1": 2, "tg:2": 1}
    assert await store.abandons(["tg:1"], NOW + 1) == {"tg:1": 1}
    assert await store.abandons(["tg:1", "tg:2"], NOW + 100) == {"tg:1": 1, "tg:2": 1}  # at or after
    assert await store.abandons(["tg:1", "tg:2", "tg:3"], NOW + 101) == {"tg:3": 1}
    assert await store.abandons(["tg:1", "tg:2", "tg:3"], NOW + 201) == {}
    assert await store.abandons(["tg:3"], 0.0) == {"tg:3": 1}  # only those asked about
    assert await store.abandons(["tg:4"], 0.0) == {}
    assert await store.abandons([], 0.0) == {}


async def test_a_noting_forgets_the_abandons_older_than_thirty_days(store: Store) -> None:
    await store.note_abandon("tg:1", "t1", NOW)
    await store.note_abandon("tg:1", "t2", NOW + 100)
    await store.note_abandon("tg:2", "t3", NOW + 50 + 30 * DAY)
    assert await store.abandons(["tg:1", "tg:2"], 0.0) == {"tg:1": 1, "tg:2": 1}
    await store.note_abandon("tg:1", "t1", NOW + 60 + 30 * DAY)  # forgotten, so noted anew
    assert await store.abandons(["tg:1"], NOW + 60 + 30 * DAY) == {"tg:1": 1}


async def test_two_processes_noting_abandons_at_once_keep_each_mark_once(postgres_schema: str) -> None:
    async with open_store(postgres_schema) as first, open_store(postgres_schema) as second:
        people = [f"tg:{n}" for n in range(4)]
        for person in people:
            await first.note_abandon(person, "old", NOW)
        later = NOW + 1 + 30 * DAY
        marks = [(person, f"t{n}") for person in people for n in range(3)]
        await asyncio.gather(
            *(store.note_abandon(person, table, later)
              for person, table in marks for store in (first, second))
        )
        assert await second.abandons(people, 0.0) == dict.fromkeys(people, 3)


async def test_an_erased_person_leaves_no_abandons(store: Store) -> None:
    await store.note_abandon("tg:1", "t1", NOW)
    await store.note_abandon("tg:1", "t2", NOW)
    await store.note_abandon("tg:2", "t1", NOW)

    assert await store.forget_player("tg:1", "tg:erased-a") is True  # no profile, only the marks

    assert await store.abandons(["tg:1", "tg:2", "tg:erased-a"], 0.0) == {"tg:2": 1}
    assert await store.forget_player("tg:1", "tg:erased-b") is False


async def test_abandons_outlast_the_store_closed_and_opened_again(database: str) -> None:
    async with open_store(database) as store:
        await store.note_abandon("tg:1", "t1", NOW)
        await store.note_abandon("tg:1", "t2", NOW + 10)
        await store.note_abandon("tg:2", "t2", NOW + 10)
    async with open_store(database) as store:
        assert await store.abandons(["tg:1", "tg:2", "tg:3"], NOW) == {"tg:1": 2, "tg:2": 1}
        await store.note_abandon("tg:1", "t1", NOW + 20)  # noted before the store was closed
        assert await store.abandons(["tg:1"], NOW + 5) == {"tg:1": 1}
