"""A PostgreSQL database for several processes: the pools of connections, the schema brought
up to date, and the driver's failures turned into the store's errors.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Final, TypeVar

import asyncpg

from ..errors import StorageError
from ..keyed import KeyedLocks
from ..location import redact, redact_text
from ..opened import Opened
from . import migrate, sql
from .sql import Connection

T = TypeVar("T")
#: The store's log, one for the whole backend, as operators filter it.
log = logging.getLogger("storage.postgres")


# What a server that went away, or never answered, looks like from the driver.
_FAILURES: Final = (
    asyncpg.PostgresError, asyncpg.InterfaceError, asyncpg.InternalClientError, OSError, TimeoutError
)


class Connected(Opened):
    """The server, the store's pools of connections and how reads and writes use them."""

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
                server_settings=self._server_settings, init=self._note_own, reset=_let_go,
            )
        except (*_FAILURES, ValueError) as error:
            raise StorageError(f"cannot open {self.where}: {self._say(error)}") from None
        try:
            async with pool.acquire() as conn:
                before, after = await migrate.migrate(conn)
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
            raise sql.translate(error) from error
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


async def _let_go(conn: asyncpg.Connection[asyncpg.Record]) -> None:
    """A hold's connection given back lets go of its advisory lock, and of nothing else: it
    holds no other state (asyncpg's own reset is four statements)."""
    await conn.execute("SELECT pg_advisory_unlock_all()")


async def _kept_as_is(_conn: asyncpg.Connection[asyncpg.Record]) -> None:
    """A connection of the main pool needs no reset (asyncpg rolls back an open transaction
    itself before calling this)."""
