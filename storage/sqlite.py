"""The store on one SQLite file, through aiosqlite.

One connection serves the whole process and an asyncio lock serializes its
use, so each write is one ``BEGIN IMMEDIATE ... COMMIT`` (writes queued
meanwhile share it, each in its own savepoint) that no other task's
statements can slip into. ``BEGIN IMMEDIATE`` also takes the file's write lock
up front, so processes sharing the file (a Telegram and a Discord bot) queue
instead of failing half-way. A write runs shielded from cancellation: once
started it commits or rolls back whole, whatever happens to the caller.
"""

from __future__ import annotations

import asyncio
import functools
import sqlite3
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Self, TypeVar

import aiosqlite

from . import codec, ranking, schema, tablesql
from .errors import NotFound, StorageError
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
SyncWork = Callable[[sqlite3.Connection], T]


@dataclass(slots=True)
class _Pending:
    work: Any
    sync: bool
    future: asyncio.Future[Any]


async def _in_thread(conn: aiosqlite.Connection, work: SyncWork[T]) -> T:
    """Run ``work`` on the plain sqlite3 connection in aiosqlite's worker thread.

    aiosqlite (0.20-0.22) offers no public call for this; ``_execute`` and
    ``_conn`` are what its own methods use.
    """
    value: T = await conn._execute(lambda: work(conn._conn))  # type: ignore[no-untyped-call]
    return value


def _begin(db: sqlite3.Connection, path: str) -> None:
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as error:  # busy past the timeout, disk gone ...
        raise StorageError(f"cannot write {path!r}: {error}") from error


def _wrapped(error: BaseException, path: str) -> BaseException:
    if isinstance(error, sqlite3.Error):
        wrapped = StorageError(f"writing {path!r} failed: {error}")
        wrapped.__cause__ = error
        return wrapped
    return error


def _run_batch(db: sqlite3.Connection, *, batch: list[_Pending], path: str) -> list[tuple[bool, Any]]:
    """One transaction for a group of sync writes, each in its own savepoint."""
    _begin(db, path)
    outcomes: list[tuple[bool, Any]] = []
    grouped = len(batch) > 1
    try:
        for pending in batch:
            if grouped:
                db.execute("SAVEPOINT write")
            try:
                value = pending.work(db)
            except Exception as error:
                if grouped:
                    db.execute("ROLLBACK TO write")
                    db.execute("RELEASE write")
                elif db.in_transaction:
                    db.execute("ROLLBACK")
                outcomes.append((False, _wrapped(error, path)))
                continue
            if grouped:
                db.execute("RELEASE write")
            outcomes.append((True, value))
        if db.in_transaction:
            db.execute("COMMIT")
    except BaseException as error:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise _wrapped(error, path) from error
    return outcomes


_OPEN: Final = "status IN ({})".format(", ".join(f"'{s}'" for s in OPEN_STATUSES))
_SELECT_TABLE: Final = f"SELECT {', '.join(codec.TABLE_COLUMNS)} FROM tables"
# A chat's new id takes over its settings (unless it has its own), its
# results and its closed tables; an open table moves with its own row write.
_MOVE_CHAT: Final = (
    "UPDATE OR IGNORE chat_settings SET chat_id = :new WHERE chat_id = :old",
    "UPDATE results SET chat_id = :new WHERE chat_id = :old",
    "UPDATE tables SET chat_id = :new WHERE chat_id = :old AND status NOT IN ('lobby', 'running')",
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
RETURNING *
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
        self._queue: list[_Pending] = []
        self._flusher: asyncio.Task[None] | None = None

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
        """Run ``work`` as its own all-or-nothing step of a durable transaction."""
        value: T = await self._enqueue(work, False)
        return value

    async def _write_sync(self, work: SyncWork[T]) -> T:
        """``_write`` for work done with plain sqlite3 calls in the connection's thread.

        A group of such writes costs one hand-off to that thread, not one per
        statement: this is the path every play takes.
        """
        value: T = await self._enqueue(work, True)
        return value

    async def _enqueue(self, work: Any, sync: bool) -> Any:
        """Queue a write; writes that queue up while a commit is in progress are
        committed together (group commit). Each runs inside its own savepoint, so
        one that fails is undone alone, and every caller hears back only after
        the one ``COMMIT`` (and its fsync). A cancelled caller cannot cut its
        write short: the flushing task finishes it either way.
        """
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        future.add_done_callback(_retrieve)
        self._queue.append(_Pending(work, sync, future))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.ensure_future(self._flush())
            self._writes.add(self._flusher)
            self._flusher.add_done_callback(self._writes.discard)
        return await asyncio.shield(future)

    async def _flush(self) -> None:
        while self._queue:
            async with self._lock:
                batch, self._queue = self._queue, []
                try:
                    conn = self._connection()
                    if all(p.sync for p in batch):
                        outcomes = await _in_thread(
                            conn, functools.partial(_run_batch, batch=batch, path=str(self.path))
                        )
                    else:
                        outcomes = await self._run_mixed(conn, batch)
                except BaseException as error:
                    for pending in batch:
                        if not pending.future.done():
                            pending.future.set_exception(error)
                    if not isinstance(error, Exception):
                        raise
                    continue
                for pending, (ok, value) in zip(batch, outcomes, strict=True):
                    if ok:
                        pending.future.set_result(value)
                    else:
                        pending.future.set_exception(value)

    async def _run_mixed(self, conn: aiosqlite.Connection, batch: list[_Pending]) -> list[tuple[bool, Any]]:
        """A group holding async work: the same transaction, statement by statement."""
        await _in_thread(conn, lambda db: _begin(db, str(self.path)))
        outcomes: list[tuple[bool, Any]] = []
        grouped = len(batch) > 1
        try:
            for pending in batch:
                if grouped:
                    await conn.execute("SAVEPOINT write")
                try:
                    if pending.sync:
                        value = await _in_thread(conn, pending.work)
                    else:
                        value = await pending.work(conn)
                except Exception as error:
                    if grouped:
                        await conn.execute("ROLLBACK TO write")
                        await conn.execute("RELEASE write")
                    elif conn.in_transaction:
                        await conn.execute("ROLLBACK")
                    outcomes.append((False, _wrapped(error, str(self.path))))
                    continue
                if grouped:
                    await conn.execute("RELEASE write")
                outcomes.append((True, value))
            if conn.in_transaction:
                await conn.execute("COMMIT")
        except BaseException as error:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise _wrapped(error, str(self.path)) from error
        return outcomes

    # Tables ------------------------------------------------------------------

    async def create_table(self, table: TableRecord) -> TableRecord:
        if table.version != 0:
            raise ValueError(f"new table {table.table_id!r} must start at version 0")
        return await self._write_sync(lambda db: tablesql.insert_table(db, table, self._clock()))

    async def update_table(self, table: TableRecord) -> TableRecord:
        return await self._write_sync(lambda db: tablesql.update_table(db, table, self._clock()))

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

        def append(db: sqlite3.Connection) -> TableRecord:
            return tablesql.append_events(db, table_id, expected_version, encoded, table, self._clock())

        if result is None:
            return await self._write_sync(append)

        async def work(conn: aiosqlite.Connection) -> TableRecord:
            await _in_thread(conn, append)
            await ranking.apply_result(conn, result, self._clock())
            return await _in_thread(conn, lambda db: tablesql.must_fetch_table(db, table_id))

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

    async def move_chat(self, old_chat_id: str, new_chat_id: str) -> None:
        ids = {"old": old_chat_id, "new": new_chat_id}

        async def work(conn: aiosqlite.Connection) -> None:
            for statement in _MOVE_CHAT:
                await conn.execute(statement, ids)

        await self._write(work)

    async def get_player(self, player_id: str) -> PlayerProfile | None:
        return await self._read(lambda conn: _fetch_player(conn, player_id))

    async def upsert_player(self, player_id: str, name: str) -> PlayerProfile:
        def work(db: sqlite3.Connection) -> PlayerProfile:
            now = self._clock()
            params = (player_id, name, DEFAULT_MU, DEFAULT_SIGMA, DEFAULT_RATING, now, now)
            return codec.player_from_row(db.execute(_UPSERT_PLAYER, params).fetchone())

        return await self._write_sync(work)

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


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Mark a write's failure as seen even if its caller was cancelled meanwhile."""
    if not future.cancelled():
        future.exception()


async def _fetch_table(conn: aiosqlite.Connection, table_id: str) -> TableRecord | None:
    rows = await conn.execute_fetchall(f"{_SELECT_TABLE} WHERE table_id = ?", (table_id,))
    return next((codec.table_from_row(row) for row in rows), None)


async def _fetch_player(conn: aiosqlite.Connection, player_id: str) -> PlayerProfile | None:
    rows = await conn.execute_fetchall("SELECT * FROM players WHERE player_id = ?", (player_id,))
    return next((codec.player_from_row(row) for row in rows), None)
