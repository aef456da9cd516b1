"""The bot's budget handed out one write at a time, by deadline, when every chat wants it.

Each chat's lane waits for its own chat's budget (``Budget``) on its own; the bot's
budget (Telegram's 30 writes a second for a token) is shared by every lane, and once it
is the bottleneck the order in which lanes get it decides who waits. Lanes queue here
for it, each write with a deadline: when its message began to wait, plus
``URGENT_WAIT`` for a write someone is waiting for (a turn, a reply, a preview) or
``PACED_WAIT`` for a refresh. The earliest deadline goes first. So a person's write
goes ahead of refreshes, yet a refresh that has waited long goes ahead of new urgent
writes: no table's view starves while private writes are many, and every table moves
at the same pace under load. Grants keep ``Limit.spacing`` apart, so the window
never fills in a burst that would keep the next urgent write waiting for it to clear.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import math
from collections.abc import Callable

from .budget import Budget

#: What a grant holds: when it was spent, and the grant before it (to give it back).
Grant = tuple[float, float]
#: How long a write may wait for the bot's budget before it is late: someone waits for an
#: urgent one; a refresh waits a little longer, not much: each refresh it puts off also
#: puts off the group's next one (a group's refreshes keep 3.4 s apart), so a long wait
#: here adds up in the group's lag. At 2 s, 40 matches on one token fell 5 s behind in
#: their groups; at 0.75 s, 60 stay within 3 s (bench/capacity.py).
URGENT_WAIT = 0.25
PACED_WAIT = 0.75


class Gate:
    """Grants ``budget``'s writes to waiting lanes, the earliest deadline first."""

    def __init__(self, budget: Budget, now: Callable[[], float]) -> None:
        self.budget = budget
        self._now = now
        self._seq = itertools.count()
        self._waiting: list[tuple[tuple[float, int], asyncio.Future[Grant]]] = []
        self._last = -math.inf
        self._arrived = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    async def turn(self, *, urgent: bool, since: float) -> Grant:
        """Wait for this write's turn (``since``: when its message began to wait), and spend
        it. A caller that does not use the grant must ``refund`` it."""
        future: asyncio.Future[Grant] = asyncio.get_running_loop().create_future()
        deadline = since + (URGENT_WAIT if urgent else PACED_WAIT)
        heapq.heappush(self._waiting, ((deadline, next(self._seq)), future))
        self._arrived.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._grant())
        try:
            return await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self.refund(future.result())  # granted as the caller was cancelled
            raise

    def refund(self, grant: Grant) -> None:
        """A granted write made no call after all."""
        at, before = grant
        self.budget.refund(at, None)
        if self._last == at:
            self._last = before

    def answered(self, grant: Grant, now: float) -> None:
        """A granted write's call was answered at ``now`` (``Budget.answered``)."""
        self.budget.answered(grant[0], now, urgent=True)

    def charge(self) -> None:
        """A granted write made a second call (its first was refused): it counts too."""
        now = self._now()
        self.budget.spend(now, urgent=True)
        self._last = max(self._last, now)

    async def _grant(self) -> None:
        waiting = self._waiting
        while waiting:
            _, future = waiting[0]
            if future.done():  # its lane gave up waiting (cancelled)
                heapq.heappop(waiting)
                continue
            now = self._now()
            at = max(self.budget.free_at(now, urgent=True), self._last + self.budget.limit.spacing)
            if at <= now:
                heapq.heappop(waiting)
                self.budget.spend(now, urgent=True)
                future.set_result((now, self._last))
                self._last = now
                continue
            # Until the first in line fits, or until another arrives (it may come first).
            self._arrived.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._arrived.wait(), at - now)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        for _, future in self._waiting:
            future.cancel()
        self._waiting.clear()
