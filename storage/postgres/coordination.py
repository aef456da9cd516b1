"""What the processes on one PostgreSQL database agree on (``storage.Coordination``): claims
skip rows another process holds (``FOR UPDATE SKIP LOCKED``), ``hold`` and ``leadership``
are session advisory locks, rate windows and marks are rows, changes come by
``LISTEN``/``NOTIFY``, message references are rows of their own.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Final

import asyncpg

from .. import clocks, codec
from ..keyed import check_window
from ..lead import Lead
from .connection import _FAILURES, Connected, log
from .sql import OPEN, Connection

_CLAIMABLE: Final = "(claim_until IS NULL OR claim_until < $2 OR claim_holder = $3)"



def _claim_due(owners: int) -> str:
    """SQL: claim the due tables of ``owners`` bots ($1... their ids; then the time, the
    holder, the lease and the limit), rows another process holds skipped."""
    now, holder, lease, limit = (f"${owners + n}" for n in range(1, 5))
    claimable = f"(claim_until IS NULL OR claim_until < {now} OR claim_holder = {holder})"
    # Each bot's soonest due rows are locked as they are read, those another process has
    # locked passed over, and a row claimed since this statement began checked as it is now.
    due = clocks.due_query(
        [f"${n}" for n in range(1, owners + 1)], None, f"{now}::double precision", limit,
        claimable=claimable, lock="FOR UPDATE SKIP LOCKED",
    )
    return f"""
WITH due AS ({due}), claimed AS (
    UPDATE tables AS t SET claim_holder = {holder}, claim_until = {now} + {lease}
    FROM due WHERE t.table_id = due.table_id
    RETURNING t.table_id, due.due
)
SELECT table_id FROM claimed ORDER BY due, table_id
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

# A use that has expired is taken again in place (another process may not have pruned it
# yet); the row's lock makes two processes using one key at once one first and one second.
_USE_ONCE: Final = """
INSERT INTO used_once AS u (key, until) VALUES ($1, $2)
ON CONFLICT (key) DO UPDATE SET until = excluded.until WHERE u.until < $3
RETURNING true
"""

_NOW: Final = "extract(epoch FROM clock_timestamp())"

_CHANNEL: Final = "basra_tables"  # migration 005's trigger notifies it

# What ``announce`` says: "<schema> <table id> <words>" (a table's change has no words).
_ANNOUNCE: Final = "SELECT pg_notify($1, current_schema() || ' ' || $2 || ' ' || $3)"

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


class PostgresCoordination(Connected):
    """The ``Coordination`` half of ``PostgresStore``."""

    async def claim_due(
        self, owners: Sequence[str], now: float, holder: str, lease: float, limit: int = 100
    ) -> list[str]:
        if not owners or limit < 1:
            return []

        async def work(conn: Connection) -> list[str]:
            rows = await conn.fetch(_claim_due(len(owners)), *owners, now, holder, lease, limit)
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
                yield  # what the block raises is its own: it is not the store's to wrap
            finally:
                # Given back, the connection is reset, which lets go of its lock (one statement,
                # ``connection._let_go``); one that failed is closed, and the server lets go.
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

        def cut(_conn: object) -> None:
            lead.lost.set()

        conn.add_termination_listener(cut)
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
            # Let go, not lost: a stop that closes the connection is no loss of the lead.
            conn.remove_termination_listener(cut)
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

    async def use_once(self, key: str, until: float, now: float) -> bool:
        async def work(conn: Connection) -> bool:
            await conn.execute("DELETE FROM used_once WHERE until < $1", now)
            return bool(await conn.fetchval(_USE_ONCE, key, until, now))

        return await self._write(work)

    async def advance_mark(self, key: str, stamp: Sequence[int]) -> bool:
        async def work(conn: Connection) -> bool:
            return bool(await conn.fetchval(_ADVANCE_MARK, key, list(stamp)))

        return await self._read(work)  # one statement: its own transaction

    def changes(
        self,
        on_change: Callable[[str | None], None],
        on_words: Callable[[str, str], None] | None = None,
    ) -> AbstractAsyncContextManager[None]:
        return self._changes(on_change, on_words)

    async def announce(self, table_id: str, words: str) -> None:
        if len(words) > 1000:
            raise ValueError(f"{len(words)} characters are too many to announce")

        async def work(conn: Connection) -> None:
            await conn.execute(_ANNOUNCE, _CHANNEL, table_id, words)

        await self._read(work)  # one statement: its own transaction, sent as it commits

    @contextlib.asynccontextmanager
    async def _changes(
        self, on_change: Callable[[str | None], None], on_words: Callable[[str, str], None] | None
    ) -> AsyncIterator[None]:
        # One connection of its own listens; if it is lost, another is opened, and since
        # changes may have gone unheard meanwhile, ``on_change(None)`` says so.
        self._open_pool(self._pool)
        lost = asyncio.Event()

        def heard(_conn: Any, pid: int, _channel: str, payload: object) -> None:
            schema, _, rest = str(payload).partition(" ")
            table_id, spoken, words = rest.partition(" ")
            if schema != ours or pid in self._own:
                return
            if not spoken:
                on_change(table_id)
            elif on_words is not None:
                on_words(table_id, words)

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
