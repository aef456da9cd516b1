"""The token's budget handed out one write at a time, fairly, when every chat wants it.

Each chat's lane waits for its own chat's budget (``Budget``) on its own; the bot's
budget (Telegram's 30 writes a second for a token) is shared by every lane, and once it
is the bottleneck the order in which lanes get it decides who waits. Lanes queue here
for it: a write someone waits for (``urgent``: a turn, a reply, a preview) goes before a
refresh nobody waits for, and among alike writes the one whose message has waited
longest goes first, so every table moves at the same pace under load instead of some
starving while others stay live.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
from collections.abc import Callable

from .budget import Budget

#: What a grant holds: when it was spent, and what ``Budget.refund`` needs to give it back.
Grant = tuple[float, float | None]


class Gate:
    """Grants ``budget``'s writes to waiting lanes: urgent ones first, then oldest first."""

    def __init__(self, budget: Budget, now: Callable[[], float]) -> None:
        self.budget = budget
        self._now = now
        self._seq = itertools.count()
        self._waiting: list[tuple[tuple[bool, float, int], bool, asyncio.Future[Grant]]] = []
        self._arrived = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def waiting(self) -> int:
        """Lanes waiting for a grant now."""
        return sum(1 for *_, future in self._waiting if not future.done())

    async def turn(self, *, urgent: bool, since: float) -> Grant:
        """Wait for this write's turn (``since``: when its message began to wait), and spend
        it. A caller cancelled after the grant must ``refund`` it."""
        future: asyncio.Future[Grant] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._waiting, ((not urgent, since, next(self._seq)), urgent, future))
        self._arrived.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._grant())
        return await future

    def refund(self, grant: Grant) -> None:
        """A granted write made no call after all."""
        self.budget.refund(*grant)

    async def _grant(self) -> None:
        waiting = self._waiting
        while waiting:
            _, urgent, future = waiting[0]
            if future.done():  # its lane gave up waiting (cancelled)
                heapq.heappop(waiting)
                continue
            now = self._now()
            at = self.budget.free_at(now, urgent=urgent)
            if at <= now:
                heapq.heappop(waiting)
                future.set_result((now, self.budget.spend(now, urgent=urgent)))
                continue
            # Until the first in line fits, or until another arrives (it may come first).
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), at - now)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        for *_, future in self._waiting:
            future.cancel()
        self._waiting.clear()
