"""The store on one SQLite file, through aiosqlite.

One connection serves the whole process and an asyncio lock serializes its
use, so each write is one ``BEGIN IMMEDIATE ... COMMIT`` (writes queued
meanwhile share it, each in its own savepoint: see ``writer``) that no other
task's statements can slip into. ``BEGIN IMMEDIATE`` also takes the file's
write lock up front, so processes sharing the file (a Telegram and a Discord
bot) queue instead of failing half-way. Once queued, a write commits or rolls
back whole, whatever happens to its caller.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Self, TypeVar

import aiosqlite

from . import backup, codec, ranking, schema, tablesql
from .errors import NotFound, StorageError
from .keyed import KeyedLocks, Leads, Marks, Windows
from .lead import Lead
from .lock import ProcessLock
from .models import (
    DEFAULT_MU,
    DEFAULT_RATING,
    DEFAULT_SIGMA,
    OPEN_STATUSES,
    ChatSettings,
    DamagedTable,
    MatchResult,
    PlayerProfile,
    RatingEntry,
    Standing,
    StoredEvent,
    TableRecord,
)
from .writer import SyncWork, Work, Writer

T = TypeVar("T")

log = logging.getLogger(__name__)

_OPEN: Final = "status IN ({})".format(", ".join(f"'{s}'" for s in OPEN_STATUSES))
# A table is free to claim unless another holder's lease on it is still running.
_CLAIMABLE: Final = "(claim_until IS NULL OR claim_until < ? OR claim_holder = ?)"
_SELECT_TABLE: Final = f"SELECT {', '.join(codec.TABLE_COLUMNS)} FROM tables"
# A chat's new id takes over its settings (unless it has its own), its
# results and its closed tables; an open table moves with its own row write.
# A moved row counts as a new revision, so a write based on the row as read
# before the move (a message reference kept meanwhile) is refused and read
# again, rather than putting the old id back.
_MOVE_CHAT: Final = (
    "UPDATE OR IGNORE chat_settings SET chat_id = :new WHERE chat_id = :old",
    "UPDATE results SET chat_id = :new WHERE chat_id = :old",
    "UPDATE tables SET chat_id = :new, revision = revision + 1, updated_at = :now"
    f" WHERE chat_id = :old AND NOT {_OPEN}",
)
_SELECT_REFS: Final = "SELECT key, value FROM message_refs WHERE table_id = ?"
_KEEP_REF: Final = (
    "INSERT INTO message_refs (table_id, key, value, updated_at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (table_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at"
)
_FORGET_REF: Final = "DELETE FROM message_refs WHERE table_id = ? AND key = ?"
_PUT_SETTINGS: Final = """
INSERT INTO chat_settings (chat_id, language, rules, turn_seconds, ai_delay_ms, updated_at)
VALUES (:chat_id, :language, :rules, :turn_seconds, :ai_delay_ms, :updated_at)
ON CONFLICT (chat_id) DO UPDATE SET language = excluded.language, rules = excluded.rules,
    turn_seconds = excluded.turn_seconds, ai_delay_ms = excluded.ai_delay_ms,
    updated_at = excluded.updated_at
"""
_UPSERT_PLAYER: Final = """
INSERT INTO players (player_id, name, platform_language, mu, sigma, rating, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (player_id) DO UPDATE SET name = excluded.name,
    platform_language = COALESCE(excluded.platform_language, platform_language),
    updated_at = excluded.updated_at
RETURNING *
"""

#: The leads of each file, shared by the stores of this process on it.
_LEADS: dict[str, Leads] = {}


class SqliteStore:
    """A ``storage.Store`` on the SQLite file at ``path`` (created if missing).

    One process uses the file (``shared`` is False): ``hold`` locks and rate windows
    are kept in the process, and claims only ever meet claims of the same process.

    ``clock`` gives the epoch seconds stamped on rows; tests may pass their own.
    ``exclusive``: hold ``storage.lock.ProcessLock`` while open, so that a second bot
    process on the same file refuses to start (``DatabaseInUse``).
    """

    def __init__(
        self,
        path: str | Path,
        *,
        busy_timeout: float = 10.0,
        clock: Callable[[], float] = time.time,
        exclusive: bool = False,
    ) -> None:
        self.shared = False
        self.path = Path(path)
        self._named = bool(str(path).strip())
        self._process_lock = ProcessLock(self.path) if exclusive else None
        self._busy_timeout = busy_timeout
        self._clock = clock
        self._conn: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self._writer = Writer(str(self.path), self._connection, self._lock)
        self._held = KeyedLocks()
        self._windows = Windows()
        self._marks = Marks()
        # Stores of one file in one process lead together (other processes are kept off the
        # file by ``ProcessLock``).
        self._leading = _LEADS.setdefault(str(self.path.resolve()), Leads())

    # Life cycle --------------------------------------------------------------

    async def open(self) -> None:
        if self._conn is not None:
            return
        if not self._named:
            raise StorageError("the database path is empty: set BASRA_DATABASE (or --database) to a file")
        if self.path.is_dir() or not self.path.name:
            raise StorageError(f"{str(self.path)!r} is a directory, not a database file")
        if not self.path.parent.is_dir():
            raise StorageError(f"cannot open {str(self.path)!r}: its folder does not exist")
        # SQLite would open a read-only file for reading only, and fail at the first write.
        if self.path.exists() and not os.access(self.path, os.W_OK):
            raise StorageError(f"cannot use {str(self.path)!r}: the file is read-only")
        # Its write-ahead log and lock live beside it.
        if not os.access(self.path.parent, os.W_OK | os.X_OK):
            raise StorageError(f"cannot use {str(self.path)!r}: its folder is read-only")
        if self._process_lock is not None:
            self._process_lock.acquire()
        try:
            try:
                conn = await schema.connect(self.path, self._busy_timeout)
            except (sqlite3.Error, OSError) as error:
                raise StorageError(f"cannot open {str(self.path)!r}: {error}") from error
            try:
                await self._back_up_before_migrating(conn)
                await schema.migrate(conn)
            except (sqlite3.Error, OSError) as error:
                await conn.close()
                raise StorageError(f"cannot use {str(self.path)!r}: {error}") from error
            except StorageError as error:  # a schema newer than the program's: name the file
                await conn.close()
                raise StorageError(f"cannot use {str(self.path)!r}: {error}") from error
            except BaseException:
                await conn.close()
                raise
        except BaseException:
            if self._process_lock is not None:
                self._process_lock.release()
            raise
        self._conn = conn

    async def _back_up_before_migrating(self, conn: aiosqlite.Connection) -> None:
        """Say which file this is, and copy it beside itself if a migration is about to
        change it: a service started in another folder begins on a new, empty file, and the
        path in the log is how to tell."""
        migrations = schema.load_migrations()
        current, latest = await schema.schema_version(conn), migrations[-1].version if migrations else 0
        where = str(self.path.resolve())
        if current == 0:
            log.info("database %s: empty, creating schema %d", where, latest)
        elif current < latest:
            copied = await asyncio.to_thread(backup.keep_before_migration, self.path, current + 1)
            log.info("database %s (schema %d): backed up to %s before migrating it to schema %d",
                     where, current, copied.path.name, latest)
        else:
            log.info("database %s (schema %d)", where, current)

    async def close(self) -> None:
        await self._writer.wait()
        async with self._lock:
            await self._writer.close()
            conn, self._conn = self._conn, None
            if conn is not None:
                await conn.close()
            if self._process_lock is not None:
                self._process_lock.release()

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
        async with self._writer.reading() as conn:
            try:
                return await work(conn)
            except sqlite3.Error as error:
                raise StorageError(f"reading {str(self.path)!r} failed: {error}") from error

    async def _write(self, work: Work[T]) -> T:
        """Run ``work`` as its own all-or-nothing step of a durable transaction."""
        value: T = await self._writer.write(work, False)
        return value

    async def _write_sync(self, work: SyncWork[T]) -> T:
        """``_write`` for work done with plain sqlite3 calls in the connection's thread.

        Such writes are committed in groups without a hand-off to that thread
        each, let alone one per statement: this is the path every play takes.
        """
        value: T = await self._writer.write(work, True)
        return value

    # Tables ------------------------------------------------------------------

    async def create_table(self, table: TableRecord) -> TableRecord:
        if table.version != 0:
            raise ValueError(f"new table {table.table_id!r} must start at version 0")
        return await self._write_sync(lambda db: tablesql.insert_table(db, table, self._clock()))

    async def update_table(self, table: TableRecord) -> TableRecord:
        return await self._write_sync(lambda db: tablesql.update_table(db, table, self._clock()))

    async def get_table(self, table_id: str) -> TableRecord | None:
        return await self._read(lambda conn: _fetch_table(conn, table_id))

    async def open_table_for_chat(self, chat_id: str, owner: str | None = None) -> TableRecord | None:
        async def work(conn: aiosqlite.Connection) -> TableRecord | None:
            mine, params = ("", (chat_id,)) if owner is None else (" AND owner = ?", (chat_id, owner))
            rows = await conn.execute_fetchall(f"{_SELECT_TABLE} WHERE chat_id = ?{mine} AND {_OPEN}", params)
            return next((codec.readable_table(row) for row in rows), None)

        return await self._read(work)

    async def last_finished_table(self, chat_id: str, owner: str) -> TableRecord | None:
        async def work(conn: aiosqlite.Connection) -> TableRecord | None:
            rows = await conn.execute_fetchall(
                f"{_SELECT_TABLE} WHERE owner = ? AND chat_id = ? AND status = 'finished' AND version > 0"
                " ORDER BY created_at DESC, rowid DESC LIMIT 1",
                (owner, chat_id),
            )
            return next((codec.table_from_row(row) for row in rows), None)

        return await self._read(work)

    async def open_tables(self) -> list[TableRecord]:
        """Every open table whose row can be read (``open_rows`` also lists the others)."""
        return [t for t in await self.open_rows() if isinstance(t, TableRecord)]

    async def open_rows(
        self,
        *,
        owners: Sequence[str] | None = None,
        updated_since: float | None = None,
        player: str | None = None,
    ) -> list[TableRecord | DamagedTable]:
        where: list[str] = [_OPEN]
        params: list[Any] = []
        if player is not None:
            where.append("EXISTS (SELECT 1 FROM json_each(tables.seats)"
                         " WHERE json_extract(value, '$.player_id') = ?)")
            params.append(player)
        if owners is not None:
            if not owners:
                return []
            where.append(f"owner IN ({', '.join('?' for _ in owners)})")
            params.extend(owners)
        if updated_since is not None:
            where.append("updated_at >= ?")
            params.append(updated_since)
        sql = f"{_SELECT_TABLE} WHERE {' AND '.join(where)} ORDER BY created_at, table_id"

        async def work(conn: aiosqlite.Connection) -> list[TableRecord | DamagedTable]:
            return [codec.table_or_damage(row) for row in await conn.execute_fetchall(sql, params)]

        return await self._read(work)

    async def changed_tables(self, owners: Sequence[str], since: float) -> list[str]:
        if not owners:
            return []
        marks = ", ".join("?" for _ in owners)
        sql = (
            f"SELECT table_id FROM tables WHERE owner IN ({marks}) AND updated_at >= ?"
            " ORDER BY updated_at DESC, table_id"
        )

        async def work(conn: aiosqlite.Connection) -> list[str]:
            rows = await conn.execute_fetchall(sql, (*owners, since))
            return [str(row[0]) for row in rows]

        return await self._read(work)

    async def due_tables(self, owners: Sequence[str]) -> list[tuple[str, float]]:
        if not owners:
            return []
        marks = ", ".join("?" for _ in owners)

        async def work(conn: aiosqlite.Connection) -> list[tuple[str, float]]:
            rows = await conn.execute_fetchall(
                f"SELECT table_id, due_at FROM tables WHERE owner IN ({marks}) AND {_OPEN}"
                " AND due_at IS NOT NULL ORDER BY due_at, table_id",
                tuple(owners),
            )
            return [(str(row[0]), float(row[1])) for row in rows]

        return await self._read(work)

    # Claims, locks and rate windows --------------------------------------------

    async def claim_due(
        self, owners: Sequence[str], now: float, holder: str, lease: float, limit: int = 100
    ) -> list[str]:
        if not owners or limit < 1:
            return []
        marks = ", ".join("?" for _ in owners)
        sql = (
            "UPDATE tables SET claim_holder = ?, claim_until = ? WHERE table_id IN ("
            f"SELECT table_id FROM tables WHERE owner IN ({marks}) AND {_OPEN} AND due_at <= ?"
            f" AND {_CLAIMABLE} ORDER BY due_at, table_id LIMIT ?) RETURNING table_id, due_at"
        )
        params = (holder, now + lease, *owners, now, now, holder, limit)

        def work(db: sqlite3.Connection) -> list[str]:
            rows = db.execute(sql, params).fetchall()
            return [str(row[0]) for row in sorted(rows, key=lambda row: (row[1], row[0]))]

        return await self._write_sync(work)

    async def claim(self, table_id: str, now: float, holder: str, lease: float) -> bool:
        sql = (
            f"UPDATE tables SET claim_holder = ?, claim_until = ? WHERE table_id = ? AND {_OPEN}"
            f" AND {_CLAIMABLE} RETURNING table_id"
        )

        def work(db: sqlite3.Connection) -> bool:
            return db.execute(sql, (holder, now + lease, table_id, now, holder)).fetchone() is not None

        return await self._write_sync(work)

    def hold(self, key: str) -> AbstractAsyncContextManager[None]:
        return self._held.hold(key)

    def leadership(self, key: str) -> AbstractAsyncContextManager[Lead]:
        return self._leading.hold(key)

    async def take_window(self, key: str, calls: int, period: float, now: float) -> float:
        return self._windows.take(key, calls, period, now)

    async def advance_mark(self, key: str, stamp: Sequence[int]) -> bool:
        return self._marks.advance(key, tuple(stamp))

    def changes(self, on_change: Callable[[str | None], None]) -> AbstractAsyncContextManager[None]:
        return contextlib.nullcontext()  # one process: it knows what it changed

    async def message_refs(self, table_id: str) -> dict[str, Any]:
        async def work(conn: aiosqlite.Connection) -> dict[str, Any]:
            async with conn.execute(_SELECT_REFS, (table_id,)) as cursor:
                return {str(row[0]): codec.loads(row[1]) for row in await cursor.fetchall()}

        return await self._read(work)

    async def keep_refs(self, table_id: str, refs: Mapping[str, Any]) -> None:
        now = self._clock()
        kept = [(table_id, key, codec.dumps(value), now) for key, value in refs.items() if value is not None]
        gone = [(table_id, key) for key, value in refs.items() if value is None]

        def work(db: sqlite3.Connection) -> None:
            if kept:
                db.executemany(_KEEP_REF, kept)
            if gone:
                db.executemany(_FORGET_REF, gone)

        await self._write_sync(work)

    async def forget_idle(self, idle: float) -> int:
        return 0  # kept in this process, and bounded there (``storage.keyed``)

    async def set_aside(self, table_id: str) -> None:
        async def work(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "UPDATE tables SET status = CASE status WHEN 'lobby' THEN 'cancelled' ELSE 'expired' END,"
                f" deadline = NULL WHERE table_id = ? AND {_OPEN}",
                (table_id,),
            )

        await self._write(work)

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
            await self._writer.in_thread(append)
            await ranking.apply_result(conn, result, self._clock())
            return await self._writer.in_thread(lambda db: tablesql.must_fetch_table(db, table_id))

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
        async def work(conn: aiosqlite.Connection) -> None:
            ids = {"old": old_chat_id, "new": new_chat_id, "now": self._clock()}
            for statement in _MOVE_CHAT:
                await conn.execute(statement, ids)

        await self._write(work)

    async def get_player(self, player_id: str) -> PlayerProfile | None:
        return await self._read(lambda conn: _fetch_player(conn, player_id))

    async def upsert_player(
        self, player_id: str, name: str, platform_language: str | None = None
    ) -> PlayerProfile:
        def work(db: sqlite3.Connection) -> PlayerProfile:
            now = self._clock()
            params = (player_id, name, platform_language, DEFAULT_MU, DEFAULT_SIGMA, DEFAULT_RATING, now, now)
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

    async def resume(self, name: str, at: float, until: float, owners: Sequence[str]) -> float:
        platforms = sorted({owner.partition(":")[0] for owner in owners})

        async def work(conn: aiosqlite.Connection) -> float:
            for owner in owners:
                await conn.execute(
                    "UPDATE tables SET owner = ? WHERE owner = '' AND platform = ?",
                    (owner, owner.partition(":")[0]),
                )
            alive: float | None = None
            # Before tables had owners, a service's clock was named by its platforms alone.
            for known in dict.fromkeys((name, "+".join(platforms))):
                rows = list(
                    await conn.execute_fetchall("SELECT alive_at FROM service_clock WHERE name = ?", (known,))
                )
                if rows:
                    alive = float(rows[0][0])
                    break
            paused = max(0.0, at - alive) if alive is not None else 0.0
            if paused > 0 and owners:
                marks = ", ".join("?" for _ in owners)
                await conn.execute(
                    "UPDATE tables SET deadline = deadline + ?, due_at = due_at + ?"
                    " WHERE (deadline IS NOT NULL OR due_at IS NOT NULL)"
                    f" AND {_OPEN} AND owner IN ({marks})",
                    (paused, paused, *owners),
                )
            await conn.execute(
                "INSERT INTO service_clock (name, alive_at) VALUES (?, ?)"
                " ON CONFLICT (name) DO UPDATE SET alive_at = excluded.alive_at",
                (name, until),
            )
            return paused

        value: float = await self._write(work)
        return value

    async def last_alive(self, name: str) -> float | None:
        async def work(conn: aiosqlite.Connection) -> float | None:
            rows = list(
                await conn.execute_fetchall("SELECT alive_at FROM service_clock WHERE name = ?", (name,))
            )
            return float(rows[0][0]) if rows else None

        return await self._read(work)


async def _fetch_table(conn: aiosqlite.Connection, table_id: str) -> TableRecord | None:
    rows = await conn.execute_fetchall(f"{_SELECT_TABLE} WHERE table_id = ?", (table_id,))
    return next((codec.readable_table(row) for row in rows), None)


async def _fetch_player(conn: aiosqlite.Connection, player_id: str) -> PlayerProfile | None:
    rows = await conn.execute_fetchall("SELECT * FROM players WHERE player_id = ?", (player_id,))
    return next((codec.player_from_row(row) for row in rows), None)
