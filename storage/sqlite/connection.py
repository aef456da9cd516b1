"""An SQLite file opened for one process: its connection, its schema, and how reads and writes
reach it (``writer``: writes queued meanwhile share one durable commit).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Final, TypeVar

import aiosqlite

from .. import backup, clocks, schema
from ..errors import StorageError
from ..keyed import KeyedLocks, Leads, Marks, Windows
from ..opened import Opened
from .lock import ProcessLock
from .writer import SyncWork, Work, Writer

T = TypeVar("T")
#: The store's log, one for the whole backend, as operators filter it.
log = logging.getLogger("storage.sqlite")


_OPEN: Final = clocks.OPEN

#: The leads of each file, shared by the stores of this process on it.
_LEADS: dict[str, Leads] = {}


class Connected(Opened):
    """The file, its one connection and its transactions."""

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
