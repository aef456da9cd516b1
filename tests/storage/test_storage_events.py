"""The match event log: versions in order, and a stale or doubled action refused."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from storage import NotFound, SqliteStore, Store, TableRecord, VersionConflict, open_store

NewTable = Callable[..., TableRecord]


def play(card: str, seat: int = 0) -> dict[str, object]:
    return {"kind": "play", "seat": seat, "card": card}


async def test_events_load_in_version_order_with_what_was_appended(
    store: Store, new_table: NewTable
) -> None:
    table = await store.create_table(new_table())
    deal = {"kind": "deal", "hands": [["AS", "10D"], ["7D", "JC"]], "floor": ["2C"]}
    after_deal = await store.append_events(table.table_id, 0, [deal])
    after_plays = await store.append_events(
        table.table_id, after_deal.version, [play("AS"), play("7D", 1), {"type": "timeout"}]
    )
    assert (after_deal.version, after_plays.version) == (1, 4)

    events = await store.load_events(table.table_id)
    assert [e.version for e in events] == [1, 2, 3, 4]
    assert [e.kind for e in events] == ["deal", "play", "play", "timeout"]
    assert [e.data for e in events] == [deal, play("AS"), play("7D", 1), {"type": "timeout"}]
    assert events[0].at < events[1].at
    assert [e.version for e in await store.load_events(table.table_id, after_version=2)] == [3, 4]
    assert (await store.get_table(table.table_id)).version == 4


async def test_a_doubled_append_is_refused_and_changes_nothing(
    store: Store, new_table: NewTable
) -> None:
    table = await store.create_table(new_table())
    first = await store.append_events(table.table_id, 0, [play("AS")])
    events_before = await store.load_events(table.table_id)

    with pytest.raises(VersionConflict, match="version 1, not 0"):
        await store.append_events(
            table.table_id, 0, [play("AS")], table=table.model_copy(update={"status": "running"})
        )
    with pytest.raises(VersionConflict, match="version 1, not 5"):
        await store.append_events(table.table_id, 5, [play("AS")])

    assert await store.load_events(table.table_id) == events_before
    assert await store.get_table(table.table_id) == first


@pytest.mark.sqlite_only
async def test_the_primary_key_refuses_a_doubled_version_whoever_writes(
    db_path: Path, new_table: NewTable
) -> None:
    async with SqliteStore(db_path) as store:
        table = await store.create_table(new_table())
        await store.append_events(table.table_id, 0, [play("AS")])
    with sqlite3.connect(db_path) as conn, pytest.raises(sqlite3.IntegrityError, match="UNIQUE"):
        conn.execute(
            "INSERT INTO events (table_id, version, kind, data, at) VALUES (?, 1, 'play', '{}', 0)",
            (table.table_id,),
        )


async def test_table_fields_change_in_the_same_transaction_as_the_events(
    store: Store, new_table: NewTable
) -> None:
    lobby = await store.create_table(new_table())
    started = lobby.model_copy(
        update={"status": "running", "deadline": 1_700_000_120.0, "header": {"seed": 7}}
    )
    stored = await store.append_events(lobby.table_id, 0, [{"kind": "start"}], table=started)
    assert stored == await store.get_table(lobby.table_id)
    assert (stored.status, stored.deadline, stored.header) == (
        "running",
        1_700_000_120.0,
        {"seed": 7},
    )
    assert (stored.version, stored.revision) == (1, 1)

    # A copy read before another write of the row must not overwrite it.
    with_refs = await store.update_table(stored.model_copy(update={"warned": True}))
    with pytest.raises(VersionConflict, match="revision"):
        await store.append_events(
            lobby.table_id, 1, [play("AS")], table=stored.model_copy(update={"deadline": 1.0})
        )
    assert [e.version for e in await store.load_events(lobby.table_id)] == [1]
    assert await store.get_table(lobby.table_id) == with_refs


async def test_an_append_without_a_record_still_outdates_older_copies(
    store: Store, new_table: NewTable
) -> None:
    table = await store.create_table(new_table(status="running"))
    await store.append_events(table.table_id, 0, [play("AS")])
    with pytest.raises(VersionConflict):
        await store.update_table(table.model_copy(update={"deadline": 99.0}))


async def test_appending_to_an_unknown_table_is_not_found(store: Store) -> None:
    with pytest.raises(NotFound):
        await store.append_events("no-such-table", 0, [play("AS")])


async def test_an_event_that_is_not_json_is_refused_before_writing(
    store: Store, new_table: NewTable
) -> None:
    table = await store.create_table(new_table())
    with pytest.raises((TypeError, ValueError)):
        await store.append_events(table.table_id, 0, [{"kind": "bad", "x": float("nan")}])
    assert await store.load_events(table.table_id) == []


async def test_racing_appends_on_one_version_have_exactly_one_winner(
    database: str, new_table: NewTable
) -> None:
    async with open_store(database) as one, open_store(database) as two:
        table = await one.create_table(new_table(status="running"))
        attempts = [
            (one if i % 2 else two).append_events(table.table_id, 0, [play(f"{i}C", i)]) for i in range(30)
        ]
        outcomes = await asyncio.gather(*attempts, return_exceptions=True)
        winners = [i for i, o in enumerate(outcomes) if isinstance(o, TableRecord)]
        assert len(winners) == 1
        assert all(isinstance(o, VersionConflict) for o in outcomes if not isinstance(o, TableRecord))
        events = await two.load_events(table.table_id)
    assert [(e.version, e.data["seat"]) for e in events] == [(1, winners[0])]


async def test_many_tasks_retrying_on_conflict_lose_and_double_nothing(
    database: str, new_table: NewTable
) -> None:
    tasks, per_task = 12, 6

    async def player(store: Store, table_id: str, seat: int) -> int:
        conflicts = 0
        for n in range(per_task):
            while True:
                current = await store.get_table(table_id)
                try:
                    await store.append_events(table_id, current.version, [play(f"{n}", seat)])
                    break
                except VersionConflict:
                    conflicts += 1
                    await asyncio.sleep(0)
        return conflicts

    async with open_store(database) as one, open_store(database) as two:
        table = await one.create_table(new_table(status="running"))
        conflicts = await asyncio.gather(
            *(player(one if s % 2 else two, table.table_id, s) for s in range(tasks))
        )
    async with open_store(database) as store:
        events = await store.load_events(table.table_id)
        final = await store.get_table(table.table_id)

    assert sum(conflicts) > 0, "the tasks never raced"
    assert [e.version for e in events] == list(range(1, tasks * per_task + 1))
    assert final.version == tasks * per_task
    played = [(e.data["seat"], e.data["card"]) for e in events]
    assert sorted(played) == sorted((s, f"{n}") for s in range(tasks) for n in range(per_task))
    for seat in range(tasks):
        assert [card for s, card in played if s == seat] == [f"{n}" for n in range(per_task)]


async def test_a_cancelled_append_is_written_whole_or_not_at_all(database: str, new_table: NewTable) -> None:
    async with open_store(database) as store:
        table = await store.create_table(new_table(status="running"))
        appending = asyncio.create_task(
            store.append_events(table.table_id, 0, [play("AS"), play("KD", 1), play("2C")])
        )
        await asyncio.sleep(0)
        appending.cancel()
        with pytest.raises(asyncio.CancelledError):
            await appending
    async with open_store(database) as store:
        events = await store.load_events(table.table_id)
        final = await store.get_table(table.table_id)
    assert len(events) in (0, 3)
    assert final.version == len(events)
