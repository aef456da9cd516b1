"""The store on a PostgreSQL server, through asyncpg, for several bot processes at once.

Each call takes a connection from a pool; each write is one transaction, committed
before the call returns. What SQLite gets from having one process (a table row no
one else writes meanwhile) is got here from the server: ``append_events`` locks the
table's row before it checks the version, the (table_id, version) primary key still
refuses a doubled event, claims skip rows another process holds (``FOR UPDATE SKIP
LOCKED``), ``hold`` is a session advisory lock and ``take_window`` one locked row.

``hold`` takes its connection from a pool of its own, so that blocks holding keys can
never take every connection the store's reads and writes need.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Any, Final, Self, TypeVar

import asyncpg

from . import codec, pgschema, pgsql
from .errors import NotFound, StorageError
from .keyed import KeyedLocks, check_window
from .lead import Lead
from .location import redact, redact_text
from .models import (
    DEFAULT_MU,
    DEFAULT_RATING,
    DEFAULT_SIGMA,
    ChatSettings,
    DamagedTable,
    MatchResult,
    PlayerProfile,
    RatingEntry,
    Standing,
    StoredEvent,
    TableRecord,
)
from .pgsql import OPEN, SELECT_TABLE, Connection

T = TypeVar("T")
log = logging.getLogger(__name__)

# What a server that went away, or never answered, looks like from the driver.
_FAILURES: Final = (
    asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError, TimeoutError
)
_CLAIMABLE: Final = "(claim_until IS NULL OR claim_until < $2 OR claim_holder = $3)"
_CLAIM_DUE: Final = f"""
WITH picked AS (
    SELECT table_id FROM tables
    WHERE owner = ANY($1::text[]) AND {OPEN} AND due_at <= $2 AND {_CLAIMABLE}
    ORDER BY due_at, table_id LIMIT $5
    FOR UPDATE SKIP LOCKED
), claimed AS (
    UPDATE tables AS t SET claim_holder = $3, claim_until = $2 + $4
    FROM picked WHERE t.table_id = picked.table_id
    RETURNING t.table_id, t.due_at
)
SELECT table_id FROM claimed ORDER BY due_at, table_id
"""
_CLAIM: Final = (
    "UPDATE tables SET claim_holder = $3, claim_until = $2 + $4"
    f" WHERE table_id = $1 AND {OPEN} AND {_CLAIMABLE} RETURNING true"
)
# One statement, so one round trip: the key's row is locked by the upsert itself, and the
# stamps still inside the window decide, from the row as it was, whether this call counts.
_KEPT: Final = "SELECT {} FROM unnest(w.stamps) AS s WHERE s > $3 - $4"
_TAKE_WINDOW: Final = f"""
INSERT INTO rate_windows AS w (key, stamps, granted) VALUES ($1, ARRAY[$3::double precision], true)
ON CONFLICT (key) DO UPDATE SET
    granted = ({_KEPT.format("count(*)")}) < $2,
    stamps = CASE
        WHEN ({_KEPT.format("count(*)")}) < $2
        THEN ARRAY({_KEPT.format("s")} ORDER BY s) || $3::double precision
        ELSE ARRAY({_KEPT.format("s")} ORDER BY s)
    END
RETURNING granted, stamps
"""
# Arrays compare element by element, a prefix first, as Python's tuples do.
_ADVANCE_MARK: Final = """
INSERT INTO marks AS m (key, stamp) VALUES ($1, $2::bigint[])
ON CONFLICT (key) DO UPDATE SET stamp = excluded.stamp, touched = excluded.touched
    WHERE m.stamp <= excluded.stamp
RETURNING true
"""
_NOW: Final = "extract(epoch FROM clock_timestamp())"
_CHANNEL: Final = "basra_tables"  # migration 005's trigger notifies it
# A window's stamps are the callers' clocks (wall-clock time, as the database's).
_FORGET_WINDOWS: Final = (
    f"DELETE FROM rate_windows WHERE coalesce(stamps[cardinality(stamps)], 0) < {_NOW} - $1"
)
_FORGET_MARKS: Final = f"DELETE FROM marks WHERE touched < {_NOW} - $1"
_HOLD_KEY: Final = "hashtextextended('basra hold ' || current_schema() || ' ' || $1, 0)"
# One statement: the keys given ``None`` are forgotten, the others kept.
_KEEP_REFS: Final = """
WITH given AS (
    SELECT key, value FROM unnest($2::text[], $3::text[]) AS g(key, value)
), forgotten AS (
    DELETE FROM message_refs AS m USING given
    WHERE m.table_id = $1 AND m.key = given.key AND given.value IS NULL
)
INSERT INTO message_refs (table_id, key, value, updated_at)
SELECT $1, key, value::json, $4 FROM given WHERE value IS NOT NULL
ON CONFLICT (table_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at
"""
_LEAD_KEY: Final = "hashtextextended('basra lead ' || current_schema() || ' ' || $1, 0)"
#: Seconds between two checks that the leading connection still holds its lead.
LEAD_CHECK: Final = 1.0
_PUT_SETTINGS: Final = """
INSERT INTO chat_settings (chat_id, language, rules, turn_seconds, ai_delay_ms, updated_at)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (chat_id) DO UPDATE SET language = excluded.language, rules = excluded.rules,
    turn_seconds = excluded.turn_seconds, ai_delay_ms = excluded.ai_delay_ms,
    updated_at = excluded.updated_at
"""
_UPSERT_PLAYER: Final = """
INSERT INTO players (player_id, name, platform_language, mu, sigma, rating, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
ON CONFLICT (player_id) DO UPDATE SET name = excluded.name,
    platform_language = COALESCE(excluded.platform_language, players.platform_language),
    updated_at = excluded.updated_at
RETURNING *
"""
_MOVE_CHAT: Final = (
    "UPDATE chat_settings SET chat_id = $2 WHERE chat_id = $1"
    " AND NOT EXISTS (SELECT 1 FROM chat_settings WHERE chat_id = $2)",
    "UPDATE results SET chat_id = $2 WHERE chat_id = $1",
    "UPDATE tables SET chat_id = $2, revision = revision + 1, updated_at = $3"
    f" WHERE chat_id = $1 AND NOT {OPEN}",
)
_NOTE_ALIVE: Final = (
    "INSERT INTO service_clock (name, alive_at) VALUES ($1, $2)"
    " ON CONFLICT (name) DO UPDATE SET alive_at = excluded.alive_at"
)


class PostgresStore:
    """A ``storage.Store`` on the PostgreSQL database at ``url`` (its schema made or
    brought up to date on ``open``), shared by any number of processes (``shared``).

    ``clock`` gives the epoch seconds stamped on rows. ``max_connections`` bounds the
    pool for reads and writes, ``max_holds`` the one for ``hold``; ``server_settings``
    go to every connection (``{"search_path": ...}`` keeps the tables in a schema).
    """

    def __init__(
        self,
        url: str,
        *,
        clock: Callable[[], float] = time.time,
        max_connections: int = 10,
        max_holds: int = 20,
        connect_timeout: float = 10.0,
        server_settings: Mapping[str, str] | None = None,
    ) -> None:
        self.shared = True
        self.url = url
        #: The database as any message names it: its URL without the password.
        self.where = redact(url)
        self._clock = clock
        self._max_connections = max_connections
        self._max_holds = max_holds
        self._connect_timeout = connect_timeout
        self._server_settings = dict(server_settings or {})
        self._pool: asyncpg.Pool[asyncpg.Record] | None = None
        self._hold_pool: asyncpg.Pool[asyncpg.Record] | None = None
        # The server processes of this store's own connections: what they commit, this
        # process knows already, so ``changes`` does not pass it on.
        self._own: set[int] = set()
        self._held = KeyedLocks()

    # Life cycle --------------------------------------------------------------

    async def open(self) -> None:
        if self._pool is not None:
            return
        try:
            # Its connections are given back as they were taken: every write's transaction is
            # closed by its block, and nothing sets, listens or locks on them. So they are not
            # reset (asyncpg's reset is four statements on every release, a third of a play's).
            pool = await asyncpg.create_pool(
                self.url, min_size=1, max_size=self._max_connections, timeout=self._connect_timeout,
                server_settings=self._server_settings, init=self._note_own, reset=_kept_as_is,
            )
            holds = await asyncpg.create_pool(
                self.url, min_size=0, max_size=self._max_holds, timeout=self._connect_timeout,
                server_settings=self._server_settings, init=self._note_own,
            )
        except (*_FAILURES, ValueError) as error:
            raise StorageError(f"cannot open {self.where}: {self._say(error)}") from None
        try:
            async with pool.acquire() as conn:
                before, after = await pgschema.migrate(conn)
        except BaseException as error:
            await pool.close()
            await holds.close()
            if isinstance(error, _FAILURES):
                raise StorageError(f"cannot use {self.where}: {self._say(error)}") from None
            if isinstance(error, StorageError):
                raise StorageError(f"cannot use {self.where}: {error}") from error
            raise
        if before == 0:
            log.info("database %s: empty, created schema %d", self.where, after)
        elif before < after:
            log.info("database %s: migrated from schema %d to %d", self.where, before, after)
        else:
            log.info("database %s (schema %d)", self.where, after)
        self._pool, self._hold_pool = pool, holds

    async def close(self) -> None:
        pool, self._pool = self._pool, None
        holds, self._hold_pool = self._hold_pool, None
        for each in (pool, holds):
            if each is not None:
                with contextlib.suppress(*_FAILURES):
                    await each.close()

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

    async def _note_own(self, conn: asyncpg.Connection[asyncpg.Record]) -> None:
        """Each new connection of the pools: its server process is this store's while it
        lasts (a process number the server gives again later is another's)."""
        pid = conn.get_server_pid()
        self._own.add(pid)
        conn.add_termination_listener(lambda _conn: self._own.discard(pid))

    def _say(self, error: BaseException) -> str:
        """The driver's message, with no trace of the URL's password."""
        return redact_text(str(error) or type(error).__name__, self.url)

    def _open_pool(self, pool: asyncpg.Pool[asyncpg.Record] | None) -> asyncpg.Pool[asyncpg.Record]:
        if pool is None:
            raise StorageError(f"store {self.where} is not open")
        return pool

    @contextlib.asynccontextmanager
    async def _failing(self, doing: str) -> AsyncIterator[None]:
        """Turn the driver's failures into the store's errors."""
        try:
            yield
        except asyncpg.UniqueViolationError as error:
            raise pgsql.translate(error) from error
        except _FAILURES as error:
            raise StorageError(f"{doing} {self.where} failed: {self._say(error)}") from error

    async def _read(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        async with self._failing("reading"), self._open_pool(self._pool).acquire() as conn:
            return await work(conn)

    async def _write(self, work: Callable[[Connection], Awaitable[T]]) -> T:
        """Run ``work`` in a transaction of its own, committed before this returns."""
        async with (
            self._failing("writing"),
            self._open_pool(self._pool).acquire() as conn,
            conn.transaction(),
        ):
            return await work(conn)

    # Tables ------------------------------------------------------------------

    async def create_table(self, table: TableRecord) -> TableRecord:
        if table.version != 0:
            raise ValueError(f"new table {table.table_id!r} must start at version 0")
        return await self._write(lambda conn: pgsql.insert_table(conn, table, self._clock()))

    async def update_table(self, table: TableRecord) -> TableRecord:
        return await self._write(lambda conn: pgsql.update_table(conn, table, self._clock()))

    async def get_table(self, table_id: str) -> TableRecord | None:
        async def work(conn: Connection) -> TableRecord | None:
            row = await conn.fetchrow(f"{SELECT_TABLE} WHERE table_id = $1", table_id)
            return codec.readable_table(row) if row is not None else None

        return await self._read(work)

    async def open_table_for_chat(self, chat_id: str, owner: str | None = None) -> TableRecord | None:
        async def work(conn: Connection) -> TableRecord | None:
            if owner is None:
                row = await conn.fetchrow(f"{SELECT_TABLE} WHERE chat_id = $1 AND {OPEN} LIMIT 1", chat_id)
            else:
                row = await conn.fetchrow(
                    f"{SELECT_TABLE} WHERE chat_id = $1 AND owner = $2 AND {OPEN}", chat_id, owner
                )
            return codec.readable_table(row) if row is not None else None

        return await self._read(work)

    async def last_finished_table(self, chat_id: str, owner: str) -> TableRecord | None:
        async def work(conn: Connection) -> TableRecord | None:
            row = await conn.fetchrow(
                f"{SELECT_TABLE} WHERE owner = $1 AND chat_id = $2 AND status = 'finished' AND version > 0"
                " ORDER BY created_at DESC, seq DESC LIMIT 1",
                owner, chat_id,
            )
            return codec.table_from_row(row) if row is not None else None

        return await self._read(work)

    async def open_tables(self) -> list[TableRecord]:
        return [t for t in await self.open_rows() if isinstance(t, TableRecord)]

    async def open_rows(
        self,
        *,
        owners: Sequence[str] | None = None,
        updated_since: float | None = None,
        player: str | None = None,
    ) -> list[TableRecord | DamagedTable]:
        where, args = [OPEN], list[object]()
        if player is not None:
            args.append(player)
            where.append(
                f"EXISTS (SELECT 1 FROM json_array_elements(seats) s WHERE s->>'player_id' = ${len(args)})"
            )
        if owners is not None:
            if not owners:
                return []
            args.append(list(owners))
            where.append(f"owner = ANY(${len(args)}::text[])")
        if updated_since is not None:
            args.append(updated_since)
            where.append(f"updated_at >= ${len(args)}")
        sql = f"{SELECT_TABLE} WHERE {' AND '.join(where)} ORDER BY created_at, table_id"

        async def work(conn: Connection) -> list[TableRecord | DamagedTable]:
            return [codec.table_or_damage(row) for row in await conn.fetch(sql, *args)]

        return await self._read(work)

    async def changed_tables(self, owners: Sequence[str], since: float) -> list[str]:
        if not owners:
            return []

        async def work(conn: Connection) -> list[str]:
            rows = await conn.fetch(
                "SELECT table_id FROM tables"
                " WHERE owner = ANY($1::text[]) AND updated_at >= $2 ORDER BY updated_at DESC, table_id",
                list(owners), since,
            )
            return [str(row[0]) for row in rows]

        return await self._read(work)

    async def due_tables(self, owners: Sequence[str]) -> list[tuple[str, float]]:
        if not owners:
            return []

        async def work(conn: Connection) -> list[tuple[str, float]]:
            rows = await conn.fetch(
                f"SELECT table_id, due_at FROM tables WHERE owner = ANY($1::text[]) AND {OPEN}"
                " AND due_at IS NOT NULL ORDER BY due_at, table_id",
                list(owners),
            )
            return [(str(row[0]), float(row[1])) for row in rows]

        return await self._read(work)

    async def set_aside(self, table_id: str) -> None:
        async def work(conn: Connection) -> None:
            await conn.execute(
                "UPDATE tables SET status = CASE status WHEN 'lobby' THEN 'cancelled' ELSE 'expired' END,"
                f" deadline = NULL WHERE table_id = $1 AND {OPEN}",
                table_id,
            )

        await self._write(work)

    # Claims, locks and rate windows ------------------------------------------

    async def claim_due(
        self, owners: Sequence[str], now: float, holder: str, lease: float, limit: int = 100
    ) -> list[str]:
        if not owners or limit < 1:
            return []

        async def work(conn: Connection) -> list[str]:
            rows = await conn.fetch(_CLAIM_DUE, list(owners), now, holder, lease, limit)
            return [str(row[0]) for row in rows]

        return await self._write(work)

    async def claim(self, table_id: str, now: float, holder: str, lease: float) -> bool:
        async def work(conn: Connection) -> bool:
            return bool(await conn.fetchval(_CLAIM, table_id, now, holder, lease))

        return await self._read(work)  # one statement: its own transaction

    def hold(self, key: str) -> AbstractAsyncContextManager[None]:
        return self._hold(key)

    @contextlib.asynccontextmanager
    async def _hold(self, key: str) -> AsyncIterator[None]:
        # Tasks of this process queue in it, so one connection at most waits per key.
        async with self._held.hold(key):
            pool = self._open_pool(self._hold_pool)
            async with self._failing("locking"):
                conn = await pool.acquire()
            try:
                async with self._failing("locking"):
                    await conn.execute(f"SELECT pg_advisory_lock({_HOLD_KEY})", key)
                try:
                    yield  # what the block raises is its own: it is not the store's to wrap
                finally:
                    # A connection that failed is closed by the pool, and the server lets its
                    # locks go; one given back is reset, which lets go of them too.
                    with contextlib.suppress(*_FAILURES):
                        await conn.execute(f"SELECT pg_advisory_unlock({_HOLD_KEY})", key)
            finally:
                with contextlib.suppress(*_FAILURES):
                    await pool.release(conn)

    def leadership(self, key: str) -> AbstractAsyncContextManager[Lead]:
        return self._lead(key)

    @contextlib.asynccontextmanager
    async def _lead(self, key: str) -> AsyncIterator[Lead]:
        # A connection of its own, outside the pools (whose connections are reset, letting
        # go of every advisory lock, each time they are given back): the lead lasts as long
        # as it does, and the server lets the lock go when its process dies.
        self._open_pool(self._pool)
        async with self._failing("leading on"):
            conn = await asyncpg.connect(self.url, timeout=self._connect_timeout,
                                         server_settings=self._server_settings)
        lead = Lead(key)
        conn.add_termination_listener(lambda _conn: lead.lost.set())
        watch: asyncio.Task[None] | None = None
        try:
            async with self._failing("leading on"):
                if not await conn.fetchval(f"SELECT pg_try_advisory_lock({_LEAD_KEY})", key):
                    lead.waited = True
                    log.info("another process leads %s: waiting to take over", key)
                    await conn.execute(f"SELECT pg_advisory_lock({_LEAD_KEY})", key)
            watch = asyncio.get_running_loop().create_task(self._watch_lead(conn, lead))
            yield lead
        finally:
            if watch is not None:
                watch.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await watch
            with contextlib.suppress(*_FAILURES):
                await conn.close(timeout=self._connect_timeout)

    async def _watch_lead(self, conn: asyncpg.Connection[asyncpg.Record], lead: Lead) -> None:
        """Ask the lead's connection every ``LEAD_CHECK`` seconds whether it still answers
        (a session lock lasts as long as its session): a cut that the socket does not report
        (a server gone silent) is found so too."""
        while not lead.lost.is_set():
            await asyncio.sleep(LEAD_CHECK)
            try:
                await conn.fetchval("SELECT 1", timeout=LEAD_CHECK)
            except (*_FAILURES, OSError) as error:
                log.error("the lead of %s was lost: %s", lead.key, self._say(error))
                lead.lost.set()

    async def take_window(self, key: str, calls: int, period: float, now: float) -> float:
        check_window(calls, period)

        async def work(conn: Connection) -> tuple[bool, list[float]]:
            row = await conn.fetchrow(_TAKE_WINDOW, key, calls, now, period)
            assert row is not None
            return bool(row["granted"]), list(row["stamps"])

        granted, stamps = await self._read(work)  # one statement: its own transaction
        return 0.0 if granted else max(0.0, min(stamps) + period - now)

    async def advance_mark(self, key: str, stamp: Sequence[int]) -> bool:
        async def work(conn: Connection) -> bool:
            return bool(await conn.fetchval(_ADVANCE_MARK, key, list(stamp)))

        return await self._read(work)  # one statement: its own transaction

    def changes(self, on_change: Callable[[str | None], None]) -> AbstractAsyncContextManager[None]:
        return self._changes(on_change)

    @contextlib.asynccontextmanager
    async def _changes(self, on_change: Callable[[str | None], None]) -> AsyncIterator[None]:
        # One connection of its own listens; if it is lost, another is opened, and since
        # changes may have gone unheard meanwhile, ``on_change(None)`` says so.
        self._open_pool(self._pool)
        lost = asyncio.Event()

        def heard(_conn: Any, pid: int, _channel: str, payload: object) -> None:
            schema, _, table_id = str(payload).partition(" ")
            if schema == ours and pid not in self._own:
                on_change(table_id)

        ours = ""

        async def connect() -> asyncpg.Connection[asyncpg.Record]:
            nonlocal ours
            conn = await asyncpg.connect(self.url, timeout=self._connect_timeout,
                                         server_settings=self._server_settings)
            ours = str(await conn.fetchval("SELECT current_schema()"))
            conn.add_termination_listener(lambda _conn: lost.set())
            await conn.add_listener(_CHANNEL, heard)
            return conn

        async with self._failing("listening to"):
            conn = await connect()

        async def keep_listening() -> None:
            nonlocal conn
            while True:
                await lost.wait()
                await asyncio.sleep(1.0)
                try:
                    conn = await connect()
                except (*_FAILURES, OSError) as error:
                    log.warning("listening to %s again failed: %s", self.where, self._say(error))
                    continue
                lost.clear()
                on_change(None)

        keeper = asyncio.get_running_loop().create_task(keep_listening())
        try:
            yield
        finally:
            keeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await keeper
            with contextlib.suppress(*_FAILURES, OSError):
                await conn.close()

    async def message_refs(self, table_id: str) -> dict[str, Any]:
        async def work(conn: Connection) -> dict[str, Any]:
            rows = await conn.fetch("SELECT key, value FROM message_refs WHERE table_id = $1", table_id)
            return {str(row[0]): codec.loads(row[1]) for row in rows}

        return await self._read(work)

    async def keep_refs(self, table_id: str, refs: Mapping[str, Any]) -> None:
        keys = list(refs)
        values = [None if value is None else codec.dumps(value) for value in refs.values()]

        async def work(conn: Connection) -> None:
            await conn.execute(_KEEP_REFS, table_id, keys, values, self._clock())

        await self._read(work)  # one statement: its own transaction

    async def forget_idle(self, idle: float) -> int:
        async def work(conn: Connection) -> int:
            windows = await conn.execute(_FORGET_WINDOWS, idle)
            marks = await conn.execute(_FORGET_MARKS, idle)
            return sum(int(status.rpartition(" ")[2]) for status in (windows, marks))

        return await self._write(work)

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

        async def work(conn: Connection) -> TableRecord:
            now = self._clock()
            stored = await pgsql.append_events(conn, table_id, expected_version, encoded, table, now)
            if result is None:
                return stored
            await pgsql.apply_result(conn, result, now)
            return await _must_fetch(conn, table_id)

        return await self._write(work)

    async def load_events(self, table_id: str, after_version: int = 0) -> list[StoredEvent]:
        async def work(conn: Connection) -> list[StoredEvent]:
            rows = await conn.fetch(
                "SELECT version, kind, data, at FROM events WHERE table_id = $1 AND version > $2"
                " ORDER BY version",
                table_id, after_version,
            )
            return [codec.event_from_row(row) for row in rows]

        return await self._read(work)

    # Chats and players -------------------------------------------------------

    async def get_chat_settings(self, chat_id: str) -> ChatSettings:
        return await self.find_chat_settings(chat_id) or ChatSettings(chat_id=chat_id)

    async def find_chat_settings(self, chat_id: str) -> ChatSettings | None:
        async def work(conn: Connection) -> ChatSettings | None:
            row = await conn.fetchrow("SELECT * FROM chat_settings WHERE chat_id = $1", chat_id)
            return codec.settings_from_row(row) if row is not None else None

        return await self._read(work)

    async def put_chat_settings(self, settings: ChatSettings) -> None:
        async def work(conn: Connection) -> None:
            await conn.execute(
                _PUT_SETTINGS, settings.chat_id, settings.language, codec.dumps(settings.rules),
                settings.turn_seconds, settings.ai_delay_ms, self._clock(),
            )

        await self._write(work)

    async def move_chat(self, old_chat_id: str, new_chat_id: str) -> None:
        async def work(conn: Connection) -> None:
            now = self._clock()
            await conn.execute(_MOVE_CHAT[0], old_chat_id, new_chat_id)
            await conn.execute(_MOVE_CHAT[1], old_chat_id, new_chat_id)
            await conn.execute(_MOVE_CHAT[2], old_chat_id, new_chat_id, now)

        await self._write(work)

    async def get_player(self, player_id: str) -> PlayerProfile | None:
        async def work(conn: Connection) -> PlayerProfile | None:
            row = await conn.fetchrow("SELECT * FROM players WHERE player_id = $1", player_id)
            return codec.player_from_row(row) if row is not None else None

        return await self._read(work)

    async def upsert_player(
        self, player_id: str, name: str, platform_language: str | None = None
    ) -> PlayerProfile:
        async def work(conn: Connection) -> PlayerProfile:
            row = await conn.fetchrow(
                _UPSERT_PLAYER, player_id, name, platform_language, DEFAULT_MU, DEFAULT_SIGMA,
                DEFAULT_RATING, self._clock(),
            )
            assert row is not None
            return codec.player_from_row(row)

        return await self._write(work)

    async def set_player_language(self, player_id: str, language: str | None) -> None:
        async def work(conn: Connection) -> None:
            status = await conn.execute(
                "UPDATE players SET language = $1, updated_at = $2 WHERE player_id = $3",
                language, self._clock(), player_id,
            )
            if status.endswith(" 0"):
                raise NotFound(f"no player {player_id!r}")

        await self._write(work)

    # Results, ratings, leaderboards ------------------------------------------

    async def record_result(self, result: MatchResult) -> bool:
        return await self._write(lambda conn: pgsql.apply_result(conn, result, self._clock()))

    async def rating_history(self, player_id: str, limit: int = 20) -> list[RatingEntry]:
        return await self._read(lambda conn: pgsql.rating_history(conn, player_id, limit))

    async def leaderboard(self, chat_id: str | None = None, limit: int = 10) -> list[Standing]:
        return await self._read(lambda conn: pgsql.standings(conn, chat_id, limit=limit))

    async def player_stats(self, player_id: str, chat_id: str | None = None) -> Standing | None:
        lines = await self._read(lambda conn: pgsql.standings(conn, chat_id, player_id=player_id))
        return lines[0] if lines else None

    # The service's own clock ---------------------------------------------------

    async def note_alive(self, name: str, at: float) -> None:
        async def work(conn: Connection) -> None:
            await conn.execute(_NOTE_ALIVE, name, at)

        await self._write(work)

    async def last_alive(self, name: str) -> float | None:
        async def work(conn: Connection) -> float | None:
            alive = await conn.fetchval("SELECT alive_at FROM service_clock WHERE name = $1", name)
            return None if alive is None else float(alive)

        return await self._read(work)

    async def resume(self, name: str, at: float, until: float, owners: Sequence[str]) -> float:
        platforms = sorted({owner.partition(":")[0] for owner in owners})

        async def work(conn: Connection) -> float:
            for owner in owners:
                await conn.execute(
                    "UPDATE tables SET owner = $1 WHERE owner = '' AND platform = $2",
                    owner, owner.partition(":")[0],
                )
            alive: float | None = None
            # Before tables had owners, a service's clock was named by its platforms alone.
            for known in dict.fromkeys((name, "+".join(platforms))):
                found = await conn.fetchval("SELECT alive_at FROM service_clock WHERE name = $1", known)
                if found is not None:
                    alive = float(found)
                    break
            paused = max(0.0, at - alive) if alive is not None else 0.0
            if paused > 0 and owners:
                await conn.execute(
                    "UPDATE tables SET deadline = deadline + $1, due_at = due_at + $1"
                    f" WHERE (deadline IS NOT NULL OR due_at IS NOT NULL) AND {OPEN}"
                    " AND owner = ANY($2::text[])",
                    paused, list(owners),
                )
            await conn.execute(_NOTE_ALIVE, name, until)
            return paused

        return await self._write(work)


async def _kept_as_is(_conn: asyncpg.Connection[asyncpg.Record]) -> None:
    """A connection of the main pool needs no reset (asyncpg rolls back an open transaction
    itself before calling this)."""


async def _must_fetch(conn: Connection, table_id: str) -> TableRecord:
    table = await pgsql.fetch_table(conn, table_id)
    if table is None:
        raise NotFound(f"no table {table_id!r}")
    return table
