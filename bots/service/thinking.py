"""Where computer seats think: worker processes, or one thread of this process.

The expert decides in up to about 150 ms of steady computation. In a thread
of the service's own process the compiled engine holds the interpreter for
tens of milliseconds at a time, and the event loop (every other table's
presses, and the writes planned against the chat servers' flood limits)
waits that long; two decisions never run at once. In worker processes the
loop waits for nothing, and a machine with more cores thinks for more tables
at once.

A decision travels as ``(level, seed, view)``: a player is made afresh for
each decision from its seed, so a decision made in a process is the one the
thread would make. The view is the seat's own (``Match.view``), the same
thing the player would read in this process: the other hands never leave.

The processes are forked from a server process that has imported the engine
(``forkserver``), not from the service, whose threads and open connections a
fork would copy. Each worker ends itself when the service's process is gone,
however it went (``watch``): a service killed outright leaves no process
behind. A worker that dies (killed, out of memory) takes its
decision with it: the pool is made afresh, and that decision is made again
here in a thread, so the table never waits for a process that is gone.

All of a pool's processes start at once (``_open``): the executor starts one when a
call finds none idle, so each of the first calls waits, in its worker, until every
worker holds one (``arrive``). Without that wait a worker quick enough to answer the
first call before the second is sent would take the second too, and the pool would
open with fewer processes than asked. Their pids are what those calls answer: the
executor says in no public attribute which processes it runs.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import select
import signal
import threading
import time
from concurrent.futures import Executor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool, ProcessPoolExecutor

from core import Card
from core.ai import player
from core.view import SeatView

log = logging.getLogger(__name__)

#: Imported by the server the worker processes are forked from, so that a new worker
#: starts with the engine (compiled or not, as the service runs it) already loaded; and
#: the program's main script, which a worker would otherwise import again by itself (a
#: bot's console script; ``python -m`` modules are never imported again).
PRELOAD = ["__main__", "core.ai", __name__]
#: How long ``Thinker.close`` waits for the processes to end: one decision under way, and more.
CLOSING = 10.0
#: How long a pool's first workers wait for the others to start (``arrive``).
ARRIVING = 60.0

#: In a worker: the barrier every worker of its pool passes once, when the pool opens.
_arrivals: threading.Barrier | None = None


def default_processes() -> int:
    """One fewer than the cores this process may run on, and at least one: the event
    loop keeps a core for itself."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    return max(1, cores - 1)


def watch(service: int) -> None:
    """In a worker: end this process as soon as the service's process ``service`` is gone.

    A killed service closes nothing in its workers: they would wait for decisions forever,
    and keep the server they were forked from alive too."""

    def wait() -> None:
        try:
            handle = os.pidfd_open(service)  # Linux: ready to read once the process is gone
        except (AttributeError, OSError):
            handle = None
        if handle is not None:
            select.select([handle], [], [])
        else:
            while True:
                try:
                    os.kill(service, 0)
                except ProcessLookupError:
                    break
                except PermissionError:
                    pass
                time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=wait, name="watch-service", daemon=True).start()


def start_worker(service: int, arrivals: threading.Barrier) -> None:
    """A worker's first step. Ctrl-C at a terminal reaches every process of the program's
    group: it is the service's to act on (it closes the pool), so a worker ignores it,
    and leaves no traceback on the player's screen. And it ``watch``-es the service, and
    keeps its pool's barrier for ``arrive``."""
    global _arrivals
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    watch(service)
    _arrivals = arrivals


def arrive() -> int:
    """A pool's first call to each worker: wait until every worker of the pool holds one,
    so that the pool starts them all; then this worker's pid."""
    assert _arrivals is not None, "start_worker sets it"
    _arrivals.wait(ARRIVING)
    return os.getpid()


def running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie waiting to be reaped by its parent does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            return stat.read().rpartition(")")[2].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: whether a signal could reach it
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            pass
        return True


def decide(level: str, seed: str, view: SeatView) -> tuple[Card, int]:
    """The play of a computer of ``level`` made from ``seed``, at the seat of ``view``."""
    return player(level, seed=seed).choose(view)


class Thinker:
    """Runs computer decisions off the event loop: in ``processes`` worker processes,
    or in one thread of this process when ``processes`` is 0 (only one thread holds
    the interpreter at once, so more threads would think no faster, and each would
    add to how long the loop waits). ``thread`` replaces that thread (a benchmark runs
    the decisions on the loop itself). The processes start when a computer's turn first
    comes up (``warm``), during its pause before it plays."""

    def __init__(self, processes: int, thread: Executor | None = None) -> None:
        if processes < 0:
            raise ValueError("the number of thinking processes cannot be negative")
        self.processes = processes
        self._pool: ProcessPoolExecutor | None = None
        self._workers: list[int] = []  # the pool's processes, as ``arrive`` answered
        self._thread = thread
        self._opening = asyncio.Lock()
        self._closed = False
        self._warming: asyncio.Task[None] | None = None

    async def choose(self, level: str, seed: str, view: SeatView, *, wait: bool = True) -> tuple[Card, int]:
        """The play ``decide`` gives, made in a worker process (or the thread). Not ``wait``:
        when the processes are not running yet, it is made in the thread at once instead of
        after they start (about a second), and they start meanwhile, for the next."""
        loop = asyncio.get_running_loop()
        if not wait and self.processes and self._pool is None and not self._closed:
            self.warm()
        elif self.processes and not self._closed:
            try:
                pool = self._pool or await self._opened()
            except (OSError, BrokenProcessPool):
                # No process can start here (no /dev/shm in some containers, say): think in a
                # thread from now on, and say so once.
                log.warning(
                    "the computers' thinking processes did not start; they think in this process instead",
                    exc_info=True,
                )
                self.processes = 0
            else:
                try:
                    return await loop.run_in_executor(pool, decide, level, seed, view)
                except BrokenProcessPool:
                    log.warning(
                        "a computer's thinking process died; starting another, and "
                        "making its decision again in this process"
                    )
                    if self._pool is pool:
                        self._pool, self._workers = None, []
                    pool.shutdown(wait=False, cancel_futures=True)
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="computer")
        return await loop.run_in_executor(self._thread, decide, level, seed, view)

    def warm(self) -> None:
        """Start the processes now, in the background, if they are not yet: a computer about
        to play (after its pause) then finds them ready."""
        if not self.processes or self._pool is not None or self._closed or self._warming is not None:
            return
        self._warming = asyncio.get_running_loop().create_task(self._warm())

    async def _warm(self) -> None:
        try:
            await self._opened()
        except (OSError, BrokenProcessPool):
            pass  # the first decision tries again, and says why it thinks in a thread instead
        finally:
            self._warming = None

    async def _opened(self) -> ProcessPoolExecutor:
        """The pool, its processes started in a thread: starting the server they fork from
        takes a few hundred milliseconds, which the event loop does not wait for."""
        async with self._opening:
            if self._pool is None:
                pool, workers = await asyncio.to_thread(self._open)
                if self._closed:
                    await shut(pool)
                    raise BrokenProcessPool("closed while its processes started")
                self._pool, self._workers = pool, workers
            return self._pool

    def _open(self) -> tuple[ProcessPoolExecutor, list[int]]:
        """A pool with all its processes started, and their pids."""
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(PRELOAD)
        arrivals = context.Barrier(self.processes)
        pool = ProcessPoolExecutor(
            self.processes, mp_context=context, initializer=start_worker, initargs=(os.getpid(), arrivals)
        )
        try:
            # A process starts when a call finds none idle, and no worker is idle before
            # all have arrived: one call each starts them all.
            try:
                calls = [pool.submit(arrive) for _ in range(self.processes)]
                workers = [call.result() for call in calls]
            except threading.BrokenBarrierError as error:
                raise BrokenProcessPool(f"its processes did not all start within {ARRIVING} s") from error
            if self._closed:
                raise BrokenProcessPool("closed while its processes started")
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)  # in a thread of its own (``_opened``)
            raise
        return pool, workers

    def pids(self) -> list[int]:
        """The worker processes alive now (none before they start, or after ``close``)."""
        if self._pool is None:
            return []
        return [pid for pid in self._workers if running(pid)]

    async def close(self) -> None:
        """Stop thinking: decisions not yet started are dropped, and this returns once the
        processes have gone (a decision under way ends first), at most ``CLOSING`` seconds.

        Waiting matters at the program's end: CPython 3.11 wakes a pool's manager thread at
        exit without its lock, and a program that exits while that thread still closes its
        pipe prints a traceback (``Bad file descriptor``) under the table."""
        self._closed = True
        if self._warming is not None:
            self._warming.cancel()
            self._warming = None
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)
            self._thread = None
        if self._pool is not None:
            pool, self._pool, self._workers = self._pool, None, []
            await shut(pool)


async def shut(pool: ProcessPoolExecutor) -> None:
    """Shut ``pool`` down, waiting in a thread (at most ``CLOSING`` seconds) for its processes."""
    closing = asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
    try:
        await asyncio.wait_for(closing, CLOSING)
    except TimeoutError:
        log.warning("the computers' thinking processes did not end within %s s", CLOSING)
