"""A bot's stops move the clocks of its open tables without writing them: each open table's
``deadline`` and ``due_at`` are kept relative to its bot's shift (``storage.clocks``), which
``resume`` moves in one row. What is read and found is as if every row had moved; closed
tables keep their times. On both backends."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import asyncpg
import pytest

from storage import SqliteStore, Store, TableRecord, open_store
from storage.clocks import STEP, step
from storage.schema import load_migrations

NewTable = Callable[..., TableRecord]
BOT, OTHER_BOT = "tg:1", "tg:2"


async def stop(store: Store, owner: str, alive: float, down: float) -> float:
    """The service of ``owner`` was last alive at ``alive`` and starts ``down`` later."""
    await store.note_alive(owner, alive)
    return await store.resume(owner, alive + down, alive + down + 1, [owner])


async def test_a_resume_moves_every_open_clock_of_its_bot_and_writes_no_table_row(
    store: Store, new_table: NewTable
) -> None:
    tables = [
        await store.create_table(
            new_table(chat_id=f"tg:-{n}", owner=BOT, deadline=1000.0 + n, due_at=990.0 + n)
        )
        for n in range(3)
    ]
    theirs = await store.create_table(
        new_table(chat_id="tg:-9", owner=OTHER_BOT, deadline=1000.0, due_at=990.0)
    )
    before = {t.table_id: await store.stored_rows(t.table_id) for t in [*tables, theirs]}
    assert await stop(store, BOT, 400.0, 60.0) == 60.0
    for n, table in enumerate(tables):
        moved = await store.get_table(table.table_id)
        assert moved is not None
        assert (moved.deadline, moved.due_at) == (1060.0 + n, 1050.0 + n)
        assert (moved.revision, moved.updated_at) == (table.revision, table.updated_at)
    assert await store.get_table(theirs.table_id) == theirs
    after = {t.table_id: await store.stored_rows(t.table_id) for t in [*tables, theirs]}
    assert after == before  # not one table row was written
    assert await stop(store, BOT, 2000.0, 40.0) == 40.0  # the downtimes add up
    assert (await store.get_table(tables[0].table_id)).deadline == 1100.0  # type: ignore[union-attr]


async def test_a_time_written_after_a_resume_is_read_as_written_and_moved_by_the_next(
    store: Store, new_table: NewTable
) -> None:
    table = await store.create_table(new_table(owner=BOT, status="running", deadline=1000.0))
    await stop(store, BOT, 400.0, 60.0)
    moved = await store.get_table(table.table_id)
    assert moved is not None
    written = await store.update_table(moved.model_copy(update={"deadline": 2000.5, "due_at": 1990.25}))
    assert (written.deadline, written.due_at) == (2000.5, 1990.25)
    assert await store.get_table(table.table_id) == written
    appended = await store.append_events(
        table.table_id, 0, [{"kind": "play"}], table=written.model_copy(update={"deadline": 3000.0})
    )
    assert (appended.deadline, appended.due_at) == (3000.0, 1990.25)
    assert await store.open_rows(owners=[BOT]) == [appended]
    assert await store.open_table_for_chat(table.chat_id, BOT) == appended
    await stop(store, BOT, 5000.0, 30.0)
    again = await store.get_table(table.table_id)
    assert again is not None and (again.deadline, again.due_at) == (3030.0, 2020.25)


async def test_a_table_read_and_written_back_keeps_its_times_to_the_last_bit(
    store: Store, new_table: NewTable
) -> None:
    deadline = 1_765_000_123.456789
    table = await store.create_table(new_table(owner=BOT, deadline=deadline, due_at=deadline - 10.1))
    paused = await stop(store, BOT, 1_765_000_000.0, 3600.123456789)
    assert paused == step(3600.123456789) and abs(paused - 3600.123456789) <= STEP / 2
    moved = await store.get_table(table.table_id)
    assert moved is not None and moved.deadline == deadline + paused
    for _ in range(3):
        moved = await store.update_table(moved)
        assert moved.deadline == deadline + paused and moved.due_at == deadline - 10.1 + paused


async def test_a_closed_table_keeps_its_times_through_later_resumes(
    store: Store, new_table: NewTable
) -> None:
    done = await store.create_table(new_table(owner=BOT, status="finished", deadline=1000.0, due_at=990.0))
    table = await store.create_table(new_table(chat_id="tg:-2", owner=BOT, status="running", deadline=1000.0))
    await stop(store, BOT, 400.0, 60.0)
    closed = await store.update_table(
        (await store.get_table(table.table_id)).model_copy(update={"status": "finished"})  # type: ignore[union-attr]
    )
    assert closed.deadline == 1060.0
    await stop(store, BOT, 2000.0, 50.0)
    assert await store.get_table(done.table_id) == done
    assert await store.get_table(table.table_id) == closed
    assert (await store.stored_rows(table.table_id))["table"]["deadline"] == 1060.0  # type: ignore[index]


async def test_a_table_set_aside_keeps_its_due_time_as_it_was_when_closed(
    store: Store, new_table: NewTable
) -> None:
    table = await store.create_table(new_table(owner=BOT, status="running", deadline=1000.0, due_at=990.0))
    await stop(store, BOT, 400.0, 60.0)
    assert await store.set_aside(table.table_id, "RecordError: event 2")
    await stop(store, BOT, 2000.0, 50.0)
    aside = await store.get_table(table.table_id)
    assert aside is not None and (aside.status, aside.deadline, aside.due_at) == ("expired", None, 1050.0)
    assert (await store.stored_rows(table.table_id))["table"]["due_at"] == 1050.0  # type: ignore[index]


async def test_due_tables_finds_each_bots_tables_by_the_time_they_are_due_now(
    store: Store, new_table: NewTable
) -> None:
    mine = [
        await store.create_table(new_table(chat_id=f"tg:-{n}", owner=BOT, due_at=100.0 * n))
        for n in range(1, 4)
    ]  # due at 100, 200, 300; 160, 260, 360 after the stop
    theirs = await store.create_table(new_table(chat_id="tg:-9", owner=OTHER_BOT, due_at=250.0))
    await stop(store, BOT, 50.0, 60.0)
    both = [BOT, OTHER_BOT]
    assert await store.due_tables(both) == [
        (mine[0].table_id, 160.0),
        (theirs.table_id, 250.0),
        (mine[1].table_id, 260.0),
        (mine[2].table_id, 360.0),
    ]
    assert await store.due_tables(both, after=160.0, until=260.0) == [
        (theirs.table_id, 250.0), (mine[1].table_id, 260.0)
    ]
    assert await store.due_tables(both, after=160.0, limit=1) == [(theirs.table_id, 250.0)]
    assert await store.due_tables([BOT], until=159.0) == []
    assert await store.due_tables([BOT], after=360.0) == []
    assert await store.due_tables([BOT], limit=0) == []


async def test_ties_are_taken_in_table_order_a_few_at_a_time(store: Store, new_table: NewTable) -> None:
    tables = [
        await store.create_table(new_table(chat_id=f"tg:-{n}", owner=BOT, due_at=100.0)) for n in range(5)
    ]
    ids = sorted(t.table_id for t in tables)
    assert [t for t, _ in await store.due_tables([BOT], limit=2)] == ids[:2]
    assert [t for t, _ in await store.due_tables([BOT], limit=4)] == ids[:4]


async def test_claims_take_tables_when_they_are_due_after_the_stop(store: Store, new_table: NewTable) -> None:
    table = await store.create_table(new_table(owner=BOT, status="running", due_at=100.0))
    theirs = await store.create_table(new_table(chat_id="tg:-2", owner=OTHER_BOT, due_at=100.0))
    await stop(store, BOT, 50.0, 60.0)
    assert await store.claim_due([BOT, OTHER_BOT], 120.0, "a", lease=300.0) == [theirs.table_id]
    assert await store.claim_due([BOT, OTHER_BOT], 159.0, "b", lease=300.0) == []
    assert await store.claim_due([BOT, OTHER_BOT], 160.0, "b", lease=300.0) == [table.table_id]


async def test_a_table_without_an_owner_adopted_after_stops_keeps_its_times_until_the_next(
    store: Store, new_table: NewTable
) -> None:
    await stop(store, BOT, 50.0, 60.0)  # the bot has a shift already
    legacy = await store.create_table(new_table(chat_id="tg:-3", deadline=1000.0, due_at=990.0))
    await store.note_alive(BOT, 200.0)
    assert await store.resume(BOT, 230.0, 231.0, [BOT]) == 30.0
    adopted = await store.get_table(legacy.table_id)
    assert adopted is not None and (adopted.owner, adopted.deadline, adopted.due_at) == (BOT, 1030.0, 1020.0)


#: An open table as a schema before clock shifts stored it: its times as they are.
OLD_OPEN_TABLE = (
    "INSERT INTO tables (table_id, chat_id, platform, owner, status, mode, created_by, created_at,"
    " updated_at, seats, deadline, due_at) VALUES ('t1', 'tg:-5', 'tg', 'tg:1', 'running', '1v1',"
    " 'tg:42', 1, 1, '[{\"player_id\": \"tg:42\", \"name\": \"Amr\", \"team\": 0}]', 2000.0, 1990.0)"
)


async def assert_old_times_kept_and_moved(store: Store) -> None:
    """``OLD_OPEN_TABLE``, migrated, reads as it was written, and the next stop (100 s after
    the bot was last alive, at 1500) moves its times by as much."""
    before = await store.get_table("t1")
    assert before is not None and (before.deadline, before.due_at) == (2000.0, 1990.0)
    assert await store.due_tables([BOT]) == [("t1", 1990.0)]
    assert await store.resume(BOT, 1600.0, 1601.0, [BOT]) == 100.0
    after = await store.get_table("t1")
    assert after is not None and (after.deadline, after.due_at) == (2100.0, 2090.0)


@pytest.mark.sqlite_only
async def test_an_older_file_keeps_the_times_of_its_open_tables(db_path: Path) -> None:
    conn = sqlite3.connect(db_path, isolation_level=None)
    for migration in load_migrations()[:10]:
        for statement in migration.statements:
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {migration.version}")
    conn.execute(OLD_OPEN_TABLE)
    conn.execute("INSERT INTO service_clock (name, alive_at) VALUES ('tg:1', 1500.0)")
    conn.close()
    async with SqliteStore(db_path) as store:
        await assert_old_times_kept_and_moved(store)


async def test_an_older_postgres_schema_keeps_the_times_of_its_open_tables(postgres_schema: str) -> None:
    conn = await asyncpg.connect(postgres_schema)
    try:
        await conn.execute(
            "CREATE TABLE schema_version (version integer PRIMARY KEY, name text NOT NULL,"
            " applied_at double precision NOT NULL)"
        )
        for migration in load_migrations("postgresql")[:8]:
            for statement in migration.statements:
                await conn.execute(statement)
            await conn.execute(
                "INSERT INTO schema_version VALUES ($1, $2, 0)", migration.version, migration.name
            )
        await conn.execute(OLD_OPEN_TABLE)
        await conn.execute("INSERT INTO service_clock (name, alive_at) VALUES ('tg:1', 1500.0)")
    finally:
        await conn.close()
    async with open_store(postgres_schema) as store:
        await assert_old_times_kept_and_moved(store)


async def test_a_table_written_under_another_bot_keeps_its_times_and_moves_with_that_bots_stops(
    store: Store, new_table: NewTable
) -> None:
    table = await store.create_table(new_table(owner=BOT, status="running", deadline=1000.0, due_at=990.0))
    await stop(store, BOT, 400.0, 60.0)
    await stop(store, OTHER_BOT, 400.0, 25.0)
    moved = await store.get_table(table.table_id)
    assert moved is not None
    theirs = await store.update_table(moved.model_copy(update={"owner": OTHER_BOT}))
    assert (theirs.owner, theirs.deadline, theirs.due_at) == (OTHER_BOT, 1060.0, 1050.0)
    await stop(store, BOT, 2000.0, 100.0)  # no longer its bot
    assert await store.get_table(table.table_id) == theirs
    await stop(store, OTHER_BOT, 2000.0, 5.0)
    again = await store.get_table(table.table_id)
    assert again is not None and (again.deadline, again.due_at) == (1065.0, 1055.0)
    assert await store.due_tables([OTHER_BOT]) == [(table.table_id, 1055.0)]
