"""Group commit: the store's writes queue up and are committed together in the writer's thread.

Writes that queue while a commit is in progress are committed together in one
``BEGIN IMMEDIATE ... COMMIT``, each inside its own savepoint, so one that
fails is undone alone, and every caller hears back only after the one
``COMMIT`` and its fsync. A cancelled caller cannot cut its write short: once
queued it is committed or rolled back whole, whatever happens to the caller.

The queue is drained in a thread of the writer's own, on the plain sqlite3
connection underneath the store's aiosqlite one (``Cursor.connection``; the
store opens it with ``check_same_thread=False``). aiosqlite's thread and the
writer's never use it at once: the store's lock is held by every use. Once a
group is committed the thread tells the event loop, in one call, which
callers may go on, and takes the next group at once. Going back through the
loop between groups, and waking a task there to hand each caller its result,
cost several turns of a busy loop per commit, the larger part of a commit's
time under load; so would a hand-off through aiosqlite per statement.

Work that awaits (ratings, written over several statements through aiosqlite)
cannot run in the thread: the drain stops in front of it, the writer gives it
a transaction of its own, and the drain goes on after it. A read waiting for
the connection stops the drain too, after the group under way.

Of aiosqlite this uses its public API alone: ``aiosqlite.connect`` passes
``check_same_thread=False`` on to sqlite3 (``storage.schema.connect``), and
``Cursor.connection`` is the sqlite3 connection underneath, nothing private
(``_conn``, ``_execute``, its queue). What aiosqlite does not offer is running a
whole group of statements in its thread in one hand-off (it hands off each
call, and has no public call that runs a function of ours there), hence a thread of the
writer's own. aiosqlite assumes its thread alone uses the connection; the store
keeps that true with its lock, held by every use through either thread, and
``_let_go``, which waits out work a cancelled caller left running here.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import queue
import sqlite3
import threading
import weakref
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import aiosqlite

from ..errors import StorageError

T = TypeVar("T")
Work = Callable[[aiosqlite.Connection], Awaitable[T]]
SyncWork = Callable[[sqlite3.Connection], T]
Outcomes = list[tuple[bool, Any]]


@dataclass(slots=True)
class _Pending:
    work: Any
    sync: bool
    future: asyncio.Future[Any]


def begin(db: sqlite3.Connection, path: str) -> None:
    try:
        db.execute("BEGIN IMMEDIATE")
    except sqlite3.Error as error:  # busy past the timeout, disk gone ...
        raise StorageError(f"cannot write {path!r}: {error}") from error


def wrapped(error: BaseException, path: str) -> BaseException:
    if isinstance(error, sqlite3.Error):
        failure = StorageError(f"writing {path!r} failed: {error}")
        failure.__cause__ = error
        return failure
    return error


def _run_group(db: sqlite3.Connection, group: list[_Pending], path: str) -> Outcomes:
    """One transaction for a group of sync writes, each in its own savepoint."""
    begin(db, path)
    outcomes: Outcomes = []
    grouped = len(group) > 1
    try:
        for pending in group:
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
                outcomes.append((False, wrapped(error, path)))
                continue
            if grouped:
                db.execute("RELEASE write")
            outcomes.append((True, value))
        if db.in_transaction:
            db.execute("COMMIT")
    except BaseException as error:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise wrapped(error, path) from error
    return outcomes


def _settle(group: list[_Pending], outcomes: Outcomes) -> None:
    for pending, (ok, value) in zip(group, outcomes, strict=True):
        if pending.future.done():  # its caller was cancelled; the write stands
            continue
        if ok:
            pending.future.set_result(value)
        else:
            pending.future.set_exception(value)


def _fail(group: list[_Pending], error: BaseException) -> None:
    _settle(group, [(False, error)] * len(group))


def _nothing(db: sqlite3.Connection) -> None:
    pass


_Job = tuple[asyncio.Future[Any], SyncWork[Any], sqlite3.Connection]


def _answer(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.done():  # its caller was cancelled
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def _work_through(jobs: queue.SimpleQueue[_Job | None]) -> None:
    """The writer thread's life: each job in turn, until told to end (None)."""
    while (job := jobs.get()) is not None:
        future, work, db = job
        try:
            answer = (True, work(db))
        except BaseException as error:
            answer = (False, error)
        with contextlib.suppress(RuntimeError):  # the loop is closed: no one waits any more
            future.get_loop().call_soon_threadsafe(_answer, future, *answer)


class _Thread:
    """The writer's one thread: work on the connection, one call after another.

    It works as aiosqlite's own thread does (a queue in, one
    ``call_soon_threadsafe`` back) and hands off as fast; a one-worker
    ``ThreadPoolExecutor`` took some 30 µs more a hand-off here, for its
    futures and semaphore. A daemon, so that an unclosed store cannot keep
    the process from ending; it also ends once the writer is collected.
    """

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._thread = threading.Thread(
            target=_work_through, args=(self._jobs,), name="basra-sqlite-writer", daemon=True)
        self._thread.start()
        weakref.finalize(self, self._jobs.put, None)

    async def run(self, work: SyncWork[T], db: sqlite3.Connection) -> T:
        future: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._jobs.put((future, work, db))
        return await future

    def stop(self) -> None:
        """End the thread once the work given before is done, and wait for it."""
        self._jobs.put(None)
        self._thread.join()


def _retrieve(future: asyncio.Future[Any]) -> None:
    """Mark a write's failure as seen even if its caller was cancelled meanwhile."""
    if not future.cancelled():
        future.exception()


class Writer:
    """The write queue of one store, and the turns its connection gives reads.

    ``connection()`` gives the store's aiosqlite connection; ``lock`` is held by
    every use of it: a turn of the drain, an async write, a read. ``close()``
    once the store is closed ends the writer's thread (a new one starts with
    the next write).
    """

    def __init__(self, path: str, connection: Callable[[], aiosqlite.Connection], lock: asyncio.Lock) -> None:
        self._path = path
        self._connection = connection
        self._lock = lock
        self._queue: deque[_Pending] = deque()
        self._mutex = threading.Lock()  # the queue and ``_draining`` are shared with the writer's thread
        self._draining = False
        self._readers = 0  # reads waiting for the connection; the drain gives way to them
        self._flushers: set[asyncio.Task[None]] = set()
        self._thread: _Thread | None = None
        #: The aiosqlite connection last used and the sqlite3 connection it wraps.
        self._plain: tuple[aiosqlite.Connection, sqlite3.Connection] | None = None
        self._left_working = False  # a cancelled caller's work may still run in the thread

    async def in_thread(self, work: SyncWork[T]) -> T:
        """Run ``work`` on the store's sqlite3 connection in the writer's thread.

        For the holder of the lock only (the drain, an async write), like any
        use of the connection.
        """
        conn = self._connection()
        if self._plain is None or self._plain[0] is not conn:
            async with conn.cursor() as cursor:
                self._plain = (conn, cursor.connection)
        if self._thread is None:
            self._thread = _Thread()
        try:
            value: T = await self._thread.run(work, self._plain[1])
        except asyncio.CancelledError:
            self._left_working = True
            raise
        return value

    async def _let_go(self) -> None:
        """Until the writer's thread has let go of the connection, with the lock held.

        A caller cancelled while its work runs in the thread gives the lock
        up, not the thread: whoever holds the lock next waits here (for a
        call that the one thread runs after that work) before using the
        connection through aiosqlite's thread.
        """
        if self._left_working and self._thread is not None and self._plain is not None:
            await self._thread.run(_nothing, self._plain[1])
        self._left_working = False

    async def close(self) -> None:
        """End the writer's thread and let the connection go: after ``wait()``, with the lock held."""
        await self._let_go()
        thread, self._thread, self._plain = self._thread, None, None
        if thread is not None:
            thread.stop()  # idle by now: it ends at once

    async def write(self, work: Any, sync: bool) -> Any:
        """Queue ``work`` (sync: called with the sqlite3 connection in its thread;
        otherwise awaited with the aiosqlite connection); its value once committed."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        future.add_done_callback(_retrieve)
        with self._mutex:
            self._queue.append(_Pending(work, sync, future))
            start, self._draining = not self._draining, True
        if start:
            flusher = loop.create_task(self._flush())
            self._flushers.add(flusher)
            flusher.add_done_callback(self._flushers.discard)
        return await future

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """Hold the connection for a read: the drain lets it in after the group under way."""
        self._readers += 1
        try:
            await self._lock.acquire()
        finally:
            self._readers -= 1
        try:
            await self._let_go()
            yield self._connection()
        finally:
            self._lock.release()

    async def wait(self) -> None:
        """Until every queued write is committed or refused."""
        while self._flushers:
            await asyncio.wait(set(self._flushers))

    async def _flush(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                async with self._lock:
                    turn = await self.in_thread(functools.partial(self._drain, loop=loop))
                    if turn is None:
                        return
                    if isinstance(turn, _Pending):
                        await self._run_alone(self._connection(), turn)
        except BaseException as error:
            with self._mutex:
                left, self._draining = list(self._queue), False
                self._queue.clear()
            _fail(left, error)
            if not isinstance(error, Exception):
                raise

    def _drain(self, db: sqlite3.Connection, *, loop: asyncio.AbstractEventLoop) -> _Pending | bool | None:
        """In the writer's thread: commit the queued sync writes, group after group.

        Returns None once the queue is empty (the next write starts a new
        flusher), the async write found at its head, or True when a read
        is waiting for the connection.
        """
        while not self._readers:
            with self._mutex:
                if not self._queue:
                    self._draining = False
                    return None
                if not self._queue[0].sync:
                    return self._queue.popleft()
                group = []
                while self._queue and self._queue[0].sync:
                    group.append(self._queue.popleft())
            try:
                outcomes = _run_group(db, group, self._path)
            except BaseException as error:
                loop.call_soon_threadsafe(_fail, group, error)
                if not isinstance(error, Exception):
                    raise
            else:
                loop.call_soon_threadsafe(_settle, group, outcomes)
        return True

    async def _run_alone(self, conn: aiosqlite.Connection, pending: _Pending) -> None:
        """An async write in a transaction of its own, statement by statement."""
        try:
            await self.in_thread(lambda db: begin(db, self._path))
            try:
                value = await pending.work(conn)
                await conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    await conn.execute("ROLLBACK")
                raise
        except BaseException as error:
            _fail([pending], wrapped(error, self._path))
            if not isinstance(error, Exception):
                raise
        else:
            _settle([pending], [(True, value)])
