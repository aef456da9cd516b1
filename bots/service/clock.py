"""Time for the service: a clock that can run callbacks later, real or driven by tests.

Deadlines are epoch seconds (they are stored, and must mean the same after a
restart). ``SystemClock`` uses the running asyncio loop; ``ManualClock``
only moves when a test says so, and runs what fell due in time order.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol

log = logging.getLogger(__name__)

Action = Callable[[], Awaitable[None]]


class Timer(Protocol):
    def cancel(self) -> None: ...


class Clock(Protocol):
    """Epoch time and a way to run an async callback at a given time."""

    def now(self) -> float: ...

    def call_at(self, when: float, action: Action) -> Timer:
        """Run ``action()`` at ``when`` (at once if it is past); ``cancel`` stops it."""
        ...


class _LoopTimer:
    __slots__ = ("_handle", "_task")

    def __init__(self) -> None:
        self._handle: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None

    def cancel(self) -> None:
        if self._handle is not None:
            self._handle.cancel()
        # A task already started is left to finish: it runs under the table's
        # lock and rechecks the state, so an outdated timer does nothing.


class SystemClock:
    """Wall-clock time; callbacks run as tasks on the running loop."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[None]] = set()

    def now(self) -> float:
        return time.time()

    def call_at(self, when: float, action: Action) -> Timer:
        loop = asyncio.get_running_loop()
        timer = _LoopTimer()

        def fire() -> None:
            task = loop.create_task(logged(action))
            timer._task = task
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

        timer._handle = loop.call_later(max(0.0, when - time.time()), fire)
        return timer

    @property
    def running(self) -> bool:
        """Whether a callback is running now."""
        return bool(self._tasks)

    async def drain(self) -> None:
        """Wait for callbacks already running (not for future ones)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)


class _ManualTimer:
    __slots__ = ("cancelled",)

    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


class ManualClock:
    """A clock for tests: time moves only through ``advance`` / ``run_due``.

    Cancelled callbacks are dropped once they make up most of the queue, as
    asyncio's loop drops its cancelled timers, so a long run that never moves
    time (a benchmark) does not keep every timer it ever set.

    >>> clock = ManualClock(start=1000.0)
    >>> clock.now()
    1000.0
    """

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._queue: list[tuple[float, int, _ManualTimer, Action]] = []
        self._order = itertools.count()
        self._kept = 0  # the queue's length when cancelled callbacks were last dropped

    def now(self) -> float:
        return self._now

    def call_at(self, when: float, action: Action) -> Timer:
        if len(self._queue) > 2 * self._kept + 100:
            self._queue = [entry for entry in self._queue if not entry[2].cancelled]
            heapq.heapify(self._queue)
            self._kept = len(self._queue)
        timer = _ManualTimer()
        heapq.heappush(self._queue, (when, next(self._order), timer, action))
        return timer

    @property
    def pending(self) -> int:
        """Callbacks scheduled and not cancelled."""
        return sum(1 for _, _, timer, _ in self._queue if not timer.cancelled)

    async def run_due(self) -> int:
        """Run every callback due by now, including ones they schedule for now; returns how many."""
        return await self.advance(0)

    async def advance(self, seconds: float) -> int:
        """Move time forward, running due callbacks in time order at their own time."""
        target = self._now + seconds
        ran = 0
        while self._queue and self._queue[0][0] <= target:
            when, _, timer, action = heapq.heappop(self._queue)
            if timer.cancelled:
                continue
            self._now = max(self._now, when)
            ran += 1
            await logged(action)
        self._now = max(self._now, target)
        return ran

    def jump(self, seconds: float) -> None:
        """Move time without running anything (a process that was down meanwhile)."""
        self._now += seconds


async def logged(
    action: Callable[[], Awaitable[object]], failed: str = "timed action failed", logger: logging.Logger = log
) -> None:
    """Await ``action()``; a failure is logged (``failed``, with its traceback), never raised.
    A cancellation is not a failure: it is not caught."""
    try:
        await action()
    except Exception:
        logger.exception(failed)
