"""The database file: created from nothing, migrated once, opened durably."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from storage import SqliteStore, StorageError, TableRecord
from storage.schema import connect, load_migrations, split_statements

EXPECTED_TABLES = {
    "chat_settings",
    "players",
    "tables",
    "events",
    "results",
    "result_seats",
    "rating_history",
    "pool_entries",
    "pool_pairs",
    "pool_blocks",
    "pool_abandons",
    "pool_invites",
}


def _inspect(path: Path) -> tuple[int, set[str]]:
    with sqlite3.connect(path) as conn:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        names = {r[0] for r in conn.execute("SELECT name FROM sqlite_schema WHERE type='table'")}
    return version, names


async def test_opening_a_missing_file_creates_the_whole_schema(db_path: Path) -> None:
    assert not db_path.exists()
    async with SqliteStore(db_path):
        pass
    version, names = _inspect(db_path)
    assert version == load_migrations()[-1].version
    assert names >= EXPECTED_TABLES


async def test_reopening_migrates_nothing_and_keeps_the_data(
    db_path: Path, new_table: Callable[..., TableRecord]
) -> None:
    async with SqliteStore(db_path) as store:
        created = await store.create_table(new_table())
    before = _inspect(db_path)
    for _ in range(2):
        async with SqliteStore(db_path) as store:
            assert await store.get_table(created.table_id) == created
    assert _inspect(db_path) == before


async def test_a_file_from_a_newer_program_is_refused(db_path: Path) -> None:
    async with SqliteStore(db_path):
        pass
    with sqlite3.connect(db_path) as conn:
        conn.execute("PRAGMA user_version = 999")
    with pytest.raises(StorageError, match="newer"):
        await SqliteStore(db_path).open()


async def test_connections_use_wal_full_sync_and_foreign_keys(db_path: Path) -> None:
    conn = await connect(db_path, busy_timeout=2.5)
    try:
        pragmas = {}
        for name in ("journal_mode", "synchronous", "foreign_keys", "busy_timeout"):
            async with conn.execute(f"PRAGMA {name}") as cursor:
                row = await cursor.fetchone()
                assert row is not None
                pragmas[name] = row[0]
    finally:
        await conn.close()
    assert pragmas == {
        "journal_mode": "wal",
        "synchronous": 2,
        "foreign_keys": 1,
        "busy_timeout": 2500,
    }


async def test_the_event_log_refuses_events_of_an_unknown_table(db_path: Path) -> None:
    async with SqliteStore(db_path):
        pass
    conn = await connect(db_path, busy_timeout=1.0)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="FOREIGN KEY"):
            await conn.execute(
                "INSERT INTO events (table_id, version, kind, data, at) VALUES ('x', 1, 'k', '{}', 0)"
            )
    finally:
        await conn.close()


def test_statements_split_where_sqlite_says_they_end() -> None:
    script = """
    -- a comment; with a semicolon
    CREATE TABLE a (x TEXT DEFAULT 'semi;colon');
    CREATE TRIGGER t AFTER INSERT ON a BEGIN
        UPDATE a SET x = 'y;';
    END;
    -- trailing comment
    """
    statements = split_statements(script)
    assert len(statements) == 2
    with sqlite3.connect(":memory:") as conn:
        for statement in statements:
            conn.execute(statement)
        conn.execute("INSERT INTO a DEFAULT VALUES")
        assert conn.execute("SELECT x FROM a").fetchall() == [("y;",)]


def test_an_unterminated_statement_is_an_error() -> None:
    with pytest.raises(StorageError, match="unterminated"):
        split_statements("CREATE TABLE a (x TEXT)")


async def test_a_write_that_waits_too_long_for_the_lock_fails_cleanly(
    db_path: Path, new_table: Callable[..., TableRecord]
) -> None:
    async with SqliteStore(db_path, busy_timeout=0.2) as store:
        lobby = await store.create_table(new_table())
        other = sqlite3.connect(db_path, isolation_level=None)
        try:
            other.execute("BEGIN IMMEDIATE")
            with pytest.raises(StorageError, match="locked"):
                await store.update_table(lobby.model_copy(update={"warned": True}))
            assert await store.get_table(lobby.table_id) == lobby  # readers are not blocked
            other.execute("ROLLBACK")
        finally:
            other.close()
        updated = await store.update_table(lobby.model_copy(update={"warned": True}))
    assert updated.warned and updated.revision == lobby.revision + 1
