"""The store on one SQLite file, through aiosqlite.

One connection serves the whole process and an asyncio lock serializes its
use, so each write is one ``BEGIN IMMEDIATE ... COMMIT`` that no other task's
statements can slip into. ``BEGIN IMMEDIATE`` also takes the file's write lock
up front, so processes sharing the file (a Telegram and a Discord bot) queue
instead of failing half-way. A write runs shielded from cancellation: once
started it commits or rolls back whole, whatever happens to the caller.
"""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Self, TypeVar

import aiosqlite

from . import codec, ranking, schema
from .errors import NotFound, OpenTableExists, StorageError, VersionConflict
from .models import (
    DEFAULT_MU,
    DEFAULT_RATING,
    DEFAULT_SIGMA,
    OPEN_STATUSES,
    ChatSettings,
    MatchResult,
    PlayerProfile,
    RatingEntry,
    Standing,
    StoredEvent,
    TableRecord,
)

T = TypeVar("T")
Work = Callable[[aiosqlite.Connection], Awaitable[T]]

_OPEN: Final = "status IN ({})".format(", ".join(f"'{s}'" for s in OPEN_STATUSES))
_SELECT_TABLE: Final = f"SELECT {', '.join(codec.TABLE_COLUMNS)} FROM tables"
_INSERT_TABLE: Final = "INSERT INTO tables ({}) VALUES ({})".format(
    ", ".join(codec.TABLE_COLUMNS), ", ".join(f":{c}" for c in codec.TABLE_COLUMNS)
)
_FIXED_COLUMNS: Final = ("table_id", "version", "created_at")
_UPDATE_TABLE: Final = "UPDATE tables SET {}, version = :new_version WHERE table_id = :table_id".format(
    ", ".join(f"{c} = :{c}" for c in codec.TABLE_COLUMNS if c not in _FIXED_COLUMNS)
)
_PUT_SETTINGS: Final = """
INSERT INTO chat_settings (chat_id, language, rules, turn_seconds, ai_delay_ms, updated_at)
VALUES (:chat_id, :language, :rules, :turn_seconds, :ai_delay_ms, :updated_at)
ON CONFLICT (chat_id) DO UPDATE SET language = excluded.language, rules = excluded.rules,
    turn_seconds = excluded.turn_seconds, ai_delay_ms = excluded.ai_delay_ms,
    updated_at = excluded.updated_at
"""
_UPSERT_PLAYER: Final = """
INSERT INTO players (player_id, name, mu, sigma, rating, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (player_id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
"""


class SqliteStore:
    """A ``storage.Store`` on the SQLite file at ``path`` (created if missing).

    ``clock`` gives the epoch seconds stamped on rows; tests may pass their own.
    """

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout: float = 10.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.path = Path(path)
        self._busy_timeout = busy_timeout
        self._clock = clock
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self._writes: set[asyncio.Task[Any]] = set()

    # Life cycle --------------------------------------------------------------

    async def open(self) -> None:
        if self._conn is not None:
            return
        conn = await schema.connect(self.path, self._busy_timeout)
        try:
            await schema.migrate(conn)
        except BaseException:
            await conn.close()
            raise
        self._conn = conn

    async def close(self) -> None:
        while self._writes:
            await asyncio.wait(set(self._writes))
        async with self._lock:
            conn, self._conn = self._conn, None
            if conn is not None:
                await conn.close()

    async def __aenter__(self) -> Self:
        await self.open()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    def _connection(self) -> aiosqlite.Connection:
        if self._conn is None:
            raise StorageError(f"store {str(self.path)!r} is not open")
        return self._conn

    async def _read(self, work: Work[T]) -> T:
        async with self._lock:
            try:
                return await work(self._connection())
            except sqlite3.Error as error:
                raise StorageError(f"reading {str(self.path)!r} failed: {error}") from error

    async def _write(self, work: Work[T]) -> T:
        """Run ``work`` as one transaction that a cancelled caller cannot cut short."""
        task = asyncio.ensure_future(self._transaction(work))
        self._writes.add(task)
        task.add_done_callback(self._write_done)
        return await asyncio.shield(task)

    def _write_done(self, task: asyncio.Task[Any]) -> None:
        self._writes.discard(task)
        if not task.cancelled():
            task.exception()  # retrieved here too, in case its caller was cancelled

    async def _transaction(self, work: Work[T]) -> T:
        async with self._lock:
            conn = self._connection()
            try:
                await conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as error:  # busy past the timeout, disk gone ...
                raise StorageError(f"cannot write {str(self.path)!r}: {error}") from error
            try:
                value = await work(conn)
                await conn.execute("COMMIT")
            except BaseException as error:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error):
                    raise StorageError(f"writing {str(self.path)!r} failed: {error}") from error
                raise
            return value

    # Tables ------------------------------------------------------------------

    async def create_table(self, table: TableRecord) -> TableRecord:
        if table.version != 0:
            raise ValueError(f"new table {table.table_id!r} must start at version 0")
        params = codec.table_params(table)

        async def work(conn: aiosqlite.Connection) -> TableRecord:
            if await _fetch_table(conn, table.table_id) is not None:
                raise VersionConflict(f"table {table.table_id!r} already exists")
            if table.is_open:
                await _check_chat_free(conn, table)
            params.update(revision=0, updated_at=self._clock())
            await _guarded(conn.execute(_INSERT_TABLE, params))
            return await _must_fetch_table(conn, table.table_id)

        return await self._write(work)

    async def update_table(self, table: TableRecord) -> TableRecord:
        params = codec.table_params(table)

        async def work(conn: aiosqlite.Connection) -> TableRecord:
            stored = await _must_fetch_table(conn, table.table_id)
            await self._write_table(conn, stored, table, params, stored.version)
            return await _must_fetch_table(conn, table.table_id)

        return await self._write(work)

    async def _write_table(
        self,
        conn: aiosqlite.Connection,
        stored: TableRecord,
        table: TableRecord,
        params: dict[str, Any],
        new_version: int,
    ) -> None:
        if table.revision != stored.revision:
            raise VersionConflict(
                f"table {table.table_id!r} changed since it was read "
                f"(revision {table.revision}, stored {stored.revision})"
            )
        if table.is_open:
            await _check_chat_free(conn, table)
        params.update(revision=stored.revision + 1, updated_at=self._clock(), new_version=new_version)
        await _guarded(conn.execute(_UPDATE_TABLE, params))

    async def get_table(self, table_id: str) -> TableRecord | None:
        return await self._read(lambda conn: _fetch_table(conn, table_id))

    async def open_table_for_chat(self, chat_id: str) -> TableRecord | None:
        async def work(conn: aiosqlite.Connection) -> TableRecord | None:
            rows = await conn.execute_fetchall(f"{_SELECT_TABLE} WHERE chat_id = ? AND {_OPEN}", (chat_id,))
            return next((codec.table_from_row(row) for row in rows), None)

        return await self._read(work)

    async def open_tables(self) -> list[TableRecord]:
        async def work(conn: aiosqlite.Connection) -> list[TableRecord]:
            rows = await conn.execute_fetchall(f"{_SELECT_TABLE} WHERE {_OPEN} ORDER BY created_at, table_id")
            return [codec.table_from_row(row) for row in rows]

        return await self._read(work)

    # Event log ---------------------------------------------------------------

    async def append_events(
        self,
        table_id: str,
        expected_version: int,
        events: Sequence[Mapping[str, Any]],
        *,
        table: TableRecord | None = None,
        result: MatchResult | None = None,
    ) -> TableRecord:
        if not events:
            raise ValueError(f"no events to append to table {table_id!r}")
        if table is not None and table.table_id != table_id:
            raise ValueError(f"record of table {table.table_id!r} given for {table_id!r}")
        if result is not None and result.table_id != table_id:
            raise ValueError(f"result of table {result.table_id!r} given for {table_id!r}")
        encoded = [(codec.event_kind(event), codec.dumps(dict(event))) for event in events]
        new_version = expected_version + len(encoded)

        async def work(conn: aiosqlite.Connection) -> TableRecord:
            stored = await _must_fetch_table(conn, table_id)
            if stored.version != expected_version:
                raise VersionConflict(
                    f"table {table_id!r} is at version {stored.version}, not {expected_version}"
                )
            now = self._clock()
            rows = [
                (table_id, expected_version + offset, kind, data, now)
                for offset, (kind, data) in enumerate(encoded, start=1)
            ]
            await _guarded(
                conn.executemany(
                    "INSERT INTO events (table_id, version, kind, data, at) VALUES (?, ?, ?, ?, ?)",
                    rows,
                )
            )
            if table is not None:
                params = codec.table_params(table)
                await self._write_table(conn, stored, table, params, new_version)
            else:
                await conn.execute(
                    "UPDATE tables SET version = ?, revision = revision + 1, updated_at = ?"
                    " WHERE table_id = ?",
                    (new_version, now, table_id),
                )
            if result is not None:
                await ranking.apply_result(conn, result, now)
            return await _must_fetch_table(conn, table_id)

        return await self._write(work)

    async def load_events(self, table_id: str, after_version: int = 0) -> list[StoredEvent]:
        async def work(conn: aiosqlite.Connection) -> list[StoredEvent]:
            rows = await conn.execute_fetchall(
                "SELECT version, kind, data, at FROM events"
                " WHERE table_id = ? AND version > ? ORDER BY version",
                (table_id, after_version),
            )
            return [codec.event_from_row(row) for row in rows]

        return await self._read(work)

    # Chats and players -------------------------------------------------------

    async def get_chat_settings(self, chat_id: str) -> ChatSettings:
        async def work(conn: aiosqlite.Connection) -> ChatSettings:
            rows = await conn.execute_fetchall("SELECT * FROM chat_settings WHERE chat_id = ?", (chat_id,))
            return next((codec.settings_from_row(r) for r in rows), ChatSettings(chat_id=chat_id))

        return await self._read(work)

    async def find_chat_settings(self, chat_id: str) -> ChatSettings | None:
        async def work(conn: aiosqlite.Connection) -> ChatSettings | None:
            rows = await conn.execute_fetchall("SELECT * FROM chat_settings WHERE chat_id = ?", (chat_id,))
            return next((codec.settings_from_row(r) for r in rows), None)

        return await self._read(work)

    async def put_chat_settings(self, settings: ChatSettings) -> None:
        params = settings.model_dump()
        params["rules"] = codec.dumps(settings.rules)

        async def work(conn: aiosqlite.Connection) -> None:
            await conn.execute(_PUT_SETTINGS, {**params, "updated_at": self._clock()})

        await self._write(work)

    async def get_player(self, player_id: str) -> PlayerProfile | None:
        return await self._read(lambda conn: _fetch_player(conn, player_id))

    async def upsert_player(self, player_id: str, name: str) -> PlayerProfile:
        async def work(conn: aiosqlite.Connection) -> PlayerProfile:
            now = self._clock()
            await conn.execute(
                _UPSERT_PLAYER,
                (player_id, name, DEFAULT_MU, DEFAULT_SIGMA, DEFAULT_RATING, now, now),
            )
            profile = await _fetch_player(conn, player_id)
            assert profile is not None
            return profile

        return await self._write(work)

    async def set_player_language(self, player_id: str, language: str | None) -> None:
        async def work(conn: aiosqlite.Connection) -> None:
            async with conn.execute(
                "UPDATE players SET language = ?, updated_at = ? WHERE player_id = ?",
                (language, self._clock(), player_id),
            ) as cursor:
                if cursor.rowcount == 0:
                    raise NotFound(f"no player {player_id!r}")

        await self._write(work)

    # Results, ratings, leaderboards ------------------------------------------

    async def record_result(self, result: MatchResult) -> bool:
        return await self._write(lambda conn: ranking.apply_result(conn, result, self._clock()))

    async def rating_history(self, player_id: str, limit: int = 20) -> list[RatingEntry]:
        return await self._read(lambda conn: ranking.rating_history(conn, player_id, limit))

    async def leaderboard(self, chat_id: str | None = None, limit: int = 10) -> list[Standing]:
        return await self._read(lambda conn: ranking.standings(conn, chat_id, limit=limit))

    async def player_stats(self, player_id: str, chat_id: str | None = None) -> Standing | None:
        lines = await self._read(lambda conn: ranking.standings(conn, chat_id, player_id=player_id))
        return lines[0] if lines else None

    # The service's own clock ---------------------------------------------------

    async def note_alive(self, name: str, at: float) -> None:
        async def work(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "INSERT INTO service_clock (name, alive_at) VALUES (?, ?)"
                " ON CONFLICT (name) DO UPDATE SET alive_at = excluded.alive_at",
                (name, at),
            )

        await self._write(work)

    async def last_alive(self, name: str) -> float | None:
        async def work(conn: aiosqlite.Connection) -> float | None:
            rows = list(
                await conn.execute_fetchall("SELECT alive_at FROM service_clock WHERE name = ?", (name,))
            )
            return float(rows[0][0]) if rows else None

        return await self._read(work)


async def _fetch_table(conn: aiosqlite.Connection, table_id: str) -> TableRecord | None:
    rows = await conn.execute_fetchall(f"{_SELECT_TABLE} WHERE table_id = ?", (table_id,))
    return next((codec.table_from_row(row) for row in rows), None)


async def _must_fetch_table(conn: aiosqlite.Connection, table_id: str) -> TableRecord:
    table = await _fetch_table(conn, table_id)
    if table is None:
        raise NotFound(f"no table {table_id!r}")
    return table


async def _fetch_player(conn: aiosqlite.Connection, player_id: str) -> PlayerProfile | None:
    rows = await conn.execute_fetchall("SELECT * FROM players WHERE player_id = ?", (player_id,))
    return next((codec.player_from_row(row) for row in rows), None)


async def _check_chat_free(conn: aiosqlite.Connection, table: TableRecord) -> None:
    rows = await conn.execute_fetchall(
        f"SELECT table_id FROM tables WHERE chat_id = ? AND {_OPEN} AND table_id != ?",
        (table.chat_id, table.table_id),
    )
    for row in rows:
        raise OpenTableExists(f"chat {table.chat_id!r} already has open table {row[0]!r}")


async def _guarded(statement: Awaitable[Any]) -> None:
    """Run a write, turning the schema's refusals into the store's errors.

    The checks before each write make these rare; they still guard any writer
    that skipped them, because the database has the last word.
    """
    try:
        cursor = await statement
    except sqlite3.IntegrityError as error:
        message = str(error)
        if "tables.chat_id" in message:
            raise OpenTableExists(message) from error
        if "UNIQUE" in message or "PRIMARY KEY" in message:
            raise VersionConflict(message) from error
        raise
    await cursor.close()
