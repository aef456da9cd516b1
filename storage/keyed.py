"""Locks, rate windows and marks kept in the process: what ``hold``, ``take_window`` and
``advance_mark`` need
where one process is all there is (SQLite), and the in-process half of the shared ones.

Both backends take ``KeyedLocks`` first, so that tasks of one process queue on an
asyncio lock rather than each taking a database connection to wait on.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from .lead import Lead


class KeyedLocks:
    """An asyncio lock per string key, made when first wanted and dropped once no task
    holds or waits for it, so a key used once costs nothing afterwards."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    def __len__(self) -> int:
        """How many keys are held or waited for now."""
        return len(self._locks)

    @contextlib.asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.setdefault(key, (asyncio.Lock(), [0]))
        users[0] += 1
        try:
            async with lock:
                yield
        finally:
            users[0] -= 1
            if users[0] == 0:
                del self._locks[key]


class Leads:
    """Leading keys within one process (``Store.leadership`` where one process is all there
    is): a second holder of a key waits for the first to let it go."""

    def __init__(self) -> None:
        self._locks = KeyedLocks()

    @contextlib.asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[Lead]:
        async with self._locks.hold(key):
            yield Lead(key)


def check_window(calls: int, period: float) -> None:
    if calls < 1:
        raise ValueError(f"a rate window lets at least one call through, not {calls}")
    if not period > 0:
        raise ValueError(f"a rate window lasts a positive time, not {period}")


class Windows:
    """Sliding-window budgets in memory: ``take`` as ``Store.take_window``."""

    _SWEEP_EVERY = 1024

    def __init__(self) -> None:
        self._stamps: dict[str, tuple[float, list[float]]] = {}
        self._takes = 0

    def take(self, key: str, calls: int, period: float, now: float) -> float:
        check_window(calls, period)
        self._takes += 1
        if self._takes % self._SWEEP_EVERY == 0:
            self._forget_idle(now)
        _, old = self._stamps.get(key, (period, []))
        stamps = [s for s in old if s > now - period]
        self._stamps[key] = (period, stamps)
        if len(stamps) < calls:
            stamps.append(now)
            return 0.0
        return max(0.0, min(stamps) + period - now)

    def _forget_idle(self, now: float) -> None:
        """Drop the keys whose every stamp has left its window, so keys used once cost nothing."""
        for key in [k for k, (period, s) in self._stamps.items() if all(t <= now - period for t in s)]:
            del self._stamps[key]


class Marks:
    """The newest stamp of each key, in memory: ``advance`` as ``Store.advance_mark``. The
    oldest keys are forgotten past ``keep`` of them (a message not edited for that long)."""

    def __init__(self, keep: int = 100_000) -> None:
        self._marks: dict[str, tuple[int, ...]] = {}
        self._keep = keep

    def advance(self, key: str, stamp: tuple[int, ...]) -> bool:
        kept = self._marks.get(key)
        if kept is not None and tuple(stamp) < kept:
            return False
        self._marks.pop(key, None)
        self._marks[key] = tuple(stamp)
        while len(self._marks) > self._keep:
            del self._marks[next(iter(self._marks))]
        return True
