"""Message references: delivery's own rows, apart from the table's row.

Where a table's messages are (the lobby, the round's table, each hand) is kept so that a
restarted bot edits the same messages. It is kept beside the table, never on its row: a
reference kept while an action of the table is being committed must not conflict with it.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import asyncpg
import pytest

from storage import Store, TableRecord, open_store
from storage.schema import load_migrations

NewTable = Callable[..., TableRecord]


async def test_references_are_kept_per_table_and_read_back_as_kept(store: Store, new_table: NewTable) -> None:
    first = await store.create_table(new_table(chat_id="tg:-1"))
    second = await store.create_table(new_table(chat_id="tg:-2"))
    await store.keep_refs(first.table_id, {"lobby": [-1, 991], "hand:tg:7": [7, 1001, 3, True]})
    await store.keep_refs(second.table_id, {"lobby": [-2, 5], "note": {"name": "سارة ♠"}})

    assert await store.message_refs(first.table_id) == {"lobby": [-1, 991], "hand:tg:7": [7, 1001, 3, True]}
    assert await store.message_refs(second.table_id) == {"lobby": [-2, 5], "note": {"name": "سارة ♠"}}
    assert await store.message_refs("no such table") == {}


async def test_a_newer_value_replaces_a_key_and_none_forgets_it(store: Store, new_table: NewTable) -> None:
    table = await store.create_table(new_table())
    await store.keep_refs(table.table_id, {"lobby": [-1, 1], "table": [-1, 2, 1]})
    await store.keep_refs(table.table_id, {"lobby": None, "table": [-1, 3, 2], "closing": [-1, 2, 1]})

    assert await store.message_refs(table.table_id) == {"table": [-1, 3, 2], "closing": [-1, 2, 1]}


async def test_keeping_a_reference_leaves_the_table_row_alone(store: Store, new_table: NewTable) -> None:
    """A copy of the row read before the reference was kept is still current: an action
    committed meanwhile by another process is not refused for it, nor the reference lost."""
    table = await store.create_table(new_table())
    await store.keep_refs(table.table_id, {"lobby": [-1, 7]})

    assert await store.get_table(table.table_id) == table
    written = await store.update_table(table.model_copy(update={"warned": True}))
    assert written.revision == table.revision + 1
    assert await store.message_refs(table.table_id) == {"lobby": [-1, 7]}


@pytest.mark.sqlite_only
async def test_references_kept_on_table_rows_move_to_their_own_rows(db_path: Path) -> None:
    before = next(m.version for m in load_migrations() if m.name == "message_refs") - 1
    with sqlite3.connect(db_path, isolation_level=None) as conn:
        for migration in load_migrations()[:before]:
            for statement in migration.statements:
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {before}")
        conn.execute(
            "INSERT INTO tables (table_id, chat_id, platform, owner, status, mode, created_by, created_at,"
            " updated_at, message_refs) VALUES ('t1', 'tg:-1', 'tg', 'tg:9', 'running', '1v1', 'tg:1', 1, 2,"
            """ '{"table": [-1, 5, 1], "hand:tg:1": [1, 8, 3, true], "lobby": null, "n": 4, "s": "x"}')"""
        )
    conn.close()

    async with open_store(db_path) as store:
        assert await store.message_refs("t1") == {
            "table": [-1, 5, 1], "hand:tg:1": [1, 8, 3, True], "n": 4, "s": "x"
        }
        table = await store.get_table("t1")
        assert table is not None and table.status == "running"


async def test_references_kept_on_table_rows_move_to_their_own_rows_on_postgresql(
    postgres_schema: str,
) -> None:
    migrations = load_migrations("postgresql")
    before = next(m.version for m in migrations if m.name == "message_refs") - 1
    conn = await asyncpg.connect(postgres_schema)
    try:
        await conn.execute(
            "CREATE TABLE schema_version (version integer PRIMARY KEY, name text NOT NULL,"
            " applied_at double precision NOT NULL)"
        )
        for migration in migrations[:before]:
            for script in migration.statements:
                await conn.execute(script)
            await conn.execute(
                "INSERT INTO schema_version VALUES ($1, $2, 0)", migration.version, migration.name
            )
        await conn.execute(
            "INSERT INTO tables (table_id, chat_id, platform, owner, status, mode, created_by, created_at,"
            " updated_at, message_refs) VALUES ('t1', 'tg:-1', 'tg', 'tg:9', 'running', '1v1', 'tg:1', 1, 2,"
            """ '{"table": [-1, 5, 1], "hand:tg:1": [1, 8, 3, true], "lobby": null, "n": 4, "s": "x"}')"""
        )
    finally:
        await conn.close()

    async with open_store(postgres_schema) as store:
        assert await store.message_refs("t1") == {
            "table": [-1, 5, 1], "hand:tg:1": [1, 8, 3, True], "n": 4, "s": "x"
        }
        table = await store.get_table("t1")
        assert table is not None and table.status == "running"
