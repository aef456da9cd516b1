"""Writing tables and their event logs, synchronously, in the connection's own thread.

These run inside a transaction the store has opened, through one hand-off to
aiosqlite's worker thread per group of writes rather than one per statement:
a play is a handful of statements, and the hand-offs cost more than SQLite.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

from . import codec
from .errors import NotFound, OpenTableExists, VersionConflict
from .models import OPEN_STATUSES, TableRecord

T = TypeVar("T")

_OPEN: Final = "status IN ({})".format(", ".join(f"'{s}'" for s in OPEN_STATUSES))
SELECT_TABLE: Final = f"SELECT {', '.join(codec.TABLE_COLUMNS)} FROM tables"
_INSERT_TABLE: Final = "INSERT INTO tables ({}) VALUES ({})".format(
    ", ".join(codec.TABLE_COLUMNS), ", ".join(f":{c}" for c in codec.TABLE_COLUMNS)
)
_FIXED_COLUMNS: Final = ("table_id", "version", "created_at")
_UPDATE_TABLE: Final = "UPDATE tables SET {}, version = :new_version WHERE table_id = :table_id".format(
    ", ".join(f"{c} = :{c}" for c in codec.TABLE_COLUMNS if c not in _FIXED_COLUMNS)
)
_INSERT_EVENT: Final = "INSERT INTO events (table_id, version, kind, data, at) VALUES (?, ?, ?, ?, ?)"


def fetch_table(db: sqlite3.Connection, table_id: str) -> TableRecord | None:
    row = db.execute(f"{SELECT_TABLE} WHERE table_id = ?", (table_id,)).fetchone()
    return codec.table_from_row(row) if row is not None else None


def must_fetch_table(db: sqlite3.Connection, table_id: str) -> TableRecord:
    table = fetch_table(db, table_id)
    if table is None:
        raise NotFound(f"no table {table_id!r}")
    return table


def check_chat_free(db: sqlite3.Connection, table: TableRecord) -> None:
    row = db.execute(
        f"SELECT table_id FROM tables WHERE chat_id = ? AND {_OPEN} AND table_id != ?",
        (table.chat_id, table.table_id),
    ).fetchone()
    if row is not None:
        raise OpenTableExists(f"chat {table.chat_id!r} already has open table {row[0]!r}")


def guarded(statement: Callable[[], T]) -> T:
    """Run a write, turning the schema's refusals into the store's errors.

    The checks before each write make these rare; they still guard any writer
    that skipped them, because the database has the last word.
    """
    try:
        return statement()
    except sqlite3.IntegrityError as error:
        message = str(error)
        if "tables.chat_id" in message:
            raise OpenTableExists(message) from error
        if "UNIQUE" in message or "PRIMARY KEY" in message:
            raise VersionConflict(message) from error
        raise


def insert_table(db: sqlite3.Connection, table: TableRecord, now: float) -> TableRecord:
    if fetch_table(db, table.table_id) is not None:
        raise VersionConflict(f"table {table.table_id!r} already exists")
    if table.is_open:
        check_chat_free(db, table)
    params = codec.table_params(table)
    params.update(revision=0, updated_at=now)
    guarded(lambda: db.execute(_INSERT_TABLE, params))
    return must_fetch_table(db, table.table_id)


def write_table(
    db: sqlite3.Connection, stored: TableRecord, table: TableRecord, new_version: int, now: float
) -> None:
    """Write every field of ``table`` if it was based on the stored revision."""
    if table.revision != stored.revision:
        raise VersionConflict(
            f"table {table.table_id!r} changed since it was read "
            f"(revision {table.revision}, stored {stored.revision})"
        )
    if table.is_open:
        check_chat_free(db, table)
    params = codec.table_params(table)
    params.update(revision=stored.revision + 1, updated_at=now, new_version=new_version)
    guarded(lambda: db.execute(_UPDATE_TABLE, params))


def update_table(db: sqlite3.Connection, table: TableRecord, now: float) -> TableRecord:
    stored = must_fetch_table(db, table.table_id)
    write_table(db, stored, table, stored.version, now)
    return must_fetch_table(db, table.table_id)


def append_events(
    db: sqlite3.Connection,
    table_id: str,
    expected_version: int,
    encoded: Sequence[tuple[str, str]],
    table: TableRecord | None,
    now: float,
) -> TableRecord:
    """Insert events ``expected_version + 1 ...`` and move the row, or refuse with VersionConflict."""
    stored = must_fetch_table(db, table_id)
    if stored.version != expected_version:
        raise VersionConflict(f"table {table_id!r} is at version {stored.version}, not {expected_version}")
    rows: list[tuple[Any, ...]] = [
        (table_id, expected_version + offset, kind, data, now)
        for offset, (kind, data) in enumerate(encoded, start=1)
    ]
    guarded(lambda: db.executemany(_INSERT_EVENT, rows))
    new_version = expected_version + len(rows)
    if table is not None:
        write_table(db, stored, table, new_version, now)
    else:
        db.execute(
            "UPDATE tables SET version = ?, revision = revision + 1, updated_at = ? WHERE table_id = ?",
            (new_version, now, table_id),
        )
    return must_fetch_table(db, table_id)
