"""Writing tables and their event logs, synchronously, in the store writer's thread.

These run inside a transaction the store has opened, through one hand-off to
the writer's thread per group of writes rather than one per statement:
a play is a handful of statements, and the hand-offs cost more than SQLite.

Statements are kept few as well. Each one lets go of the GIL while SQLite
works and has to win it back from the event loop's thread, which is busy
exactly when the bot is, so a row write is one ``UPDATE ... RETURNING`` whose
``WHERE`` does the version and revision checks; only a refused write reads
the row, to say why.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from typing import Any, Final, TypeVar

from .. import clocks, codec
from ..errors import NotFound, OpenTableExists, VersionConflict
from ..models import TableRecord

T = TypeVar("T")

_OPEN: Final = clocks.OPEN
_RETURNING: Final = clocks.RETURNING


def _value(column: str) -> str:
    """A column's value as written: its placeholder (a time, less the bot's shift)."""
    return clocks.written(column, f":{column}", ":owner", ":status")


_INSERT_TABLE: Final = "INSERT INTO tables ({}) VALUES ({}) {}".format(
    ", ".join(codec.TABLE_COLUMNS), ", ".join(_value(c) for c in codec.TABLE_COLUMNS), _RETURNING
)
_FIXED_COLUMNS: Final = ("table_id", "version", "created_at")
# A row write lets go of any claim on the table (``Store.claim``): the work it was taken
# for is done, and ``due_at`` as written says when there is more.
_LET_GO: Final = "claim_holder = NULL, claim_until = NULL"
_SET_ROW: Final = "UPDATE tables SET {}, {}".format(
    ", ".join(f"{c} = {_value(c)}" for c in codec.TABLE_COLUMNS if c not in _FIXED_COLUMNS), _LET_GO
)
_UPDATE_TABLE: Final = f"{_SET_ROW} WHERE table_id = :table_id AND revision = :base_revision {_RETURNING}"
_APPEND_TABLE: Final = (
    f"{_SET_ROW}, version = :new_version WHERE table_id = :table_id AND revision = :base_revision"
    f" AND version = :expected_version {_RETURNING}"
)
_APPEND_ONLY: Final = (
    "UPDATE tables SET version = :new_version, revision = revision + 1, updated_at = :updated_at,"
    f" {_LET_GO} WHERE table_id = :table_id AND version = :expected_version {_RETURNING}"
)
_INSERT_EVENT: Final = "INSERT INTO events (table_id, version, kind, data, at) VALUES (?, ?, ?, ?, ?)"


def fetch_table(db: sqlite3.Connection, table_id: str) -> TableRecord | None:
    row = db.execute(f"{clocks.SELECT_TABLE} WHERE table_id = ?", (table_id,)).fetchone()
    return codec.table_from_row(row) if row is not None else None


def must_fetch_table(db: sqlite3.Connection, table_id: str) -> TableRecord:
    table = fetch_table(db, table_id)
    if table is None:
        raise NotFound(f"no table {table_id!r}")
    return table


def check_chat_free(db: sqlite3.Connection, table: TableRecord) -> None:
    row = db.execute(
        f"SELECT table_id FROM tables WHERE owner = ? AND chat_id = ? AND {_OPEN} AND table_id != ?",
        (table.owner, table.chat_id, table.table_id),
    ).fetchone()
    if row is not None:
        raise OpenTableExists(f"chat {table.chat_id!r} already has open table {row[0]!r}")


def guarded(statement: Callable[[], T]) -> T:
    """Run a write, turning the schema's refusals into the store's errors.

    A new table is checked first, for a clear message; a row write leaves the
    one-open-table-per-chat rule to the schema's unique index, since the
    service never reopens a table. The database has the last word either way.
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
    return codec.table_from_row(guarded(lambda: db.execute(_INSERT_TABLE, params).fetchone()))


def _row_params(table: TableRecord, now: float) -> dict[str, Any]:
    params = codec.table_params(table)
    params.update(revision=table.revision + 1, base_revision=table.revision, updated_at=now)
    return params


def _written(db: sqlite3.Connection, statement: str, params: dict[str, Any], table_id: str,
             expected_version: int | None = None, revision: int | None = None) -> TableRecord:
    """Run one checked row write; if its ``WHERE`` matched nothing, say why."""
    row = guarded(lambda: db.execute(statement, params).fetchone())
    if row is not None:
        return codec.table_from_row(row)
    stored = must_fetch_table(db, table_id)
    if expected_version is not None and stored.version != expected_version:
        raise VersionConflict(f"table {table_id!r} is at version {stored.version}, not {expected_version}")
    raise VersionConflict(
        f"table {table_id!r} changed since it was read (revision {revision}, stored {stored.revision})"
    )


def update_table(db: sqlite3.Connection, table: TableRecord, now: float) -> TableRecord:
    """Write every field of ``table`` but its version, if it was based on the stored revision."""
    params = _row_params(table, now)
    return _written(db, _UPDATE_TABLE, params, table.table_id, revision=table.revision)


def append_events(
    db: sqlite3.Connection,
    table_id: str,
    expected_version: int,
    encoded: Sequence[tuple[str, str]],
    table: TableRecord | None,
    now: float,
) -> TableRecord:
    """Insert events ``expected_version + 1 ...`` and move the row, or refuse with VersionConflict."""
    new_version = expected_version + len(encoded)
    if table is not None:
        params = _row_params(table, now)
        params.update(new_version=new_version, expected_version=expected_version)
        stored = _written(db, _APPEND_TABLE, params, table_id, expected_version, table.revision)
    else:
        params = {"table_id": table_id, "new_version": new_version, "expected_version": expected_version,
                  "updated_at": now}
        stored = _written(db, _APPEND_ONLY, params, table_id, expected_version)
    rows: list[tuple[Any, ...]] = [
        (table_id, expected_version + offset, kind, data, now)
        for offset, (kind, data) in enumerate(encoded, start=1)
    ]
    guarded(lambda: db.executemany(_INSERT_EVENT, rows))
    return stored
