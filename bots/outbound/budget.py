"""How many writes a chat (or a whole bot token) may make now, and when it may make the next.

A platform's flood limit is a sliding window: Telegram refuses a group's
21st message within 60 seconds, however they were spread. So each budget
counts the writes of its last ``period`` seconds, exactly as the server
does. A leaky bucket (``aiolimiter``, which python-telegram-bot's
``AIORateLimiter`` uses) lets a burst of 20 through and then one every
three seconds, 40 in the first minute, over the limit; ``limits``' moving
window counts in whole seconds of wall-clock time with a polling thread,
and cannot say *when* the next write fits, which is what a planner needs.
Hence the few lines here.

Two more rules keep a busy chat live rather than bursty:

- ``spacing``: writes that only refresh a message (paced writes) keep at
  least that many seconds apart, so a fast game spends its group's 20 writes
  a minute evenly instead of in a burst followed by a minute of silence;
- ``reserve``: paced writes leave that many writes of the window unused, so
  an urgent write (a reply to a command, a player's turn) never waits for
  the window to clear.
"""

from __future__ import annotations

import bisect
import contextlib
import math
from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Limit:
    """At most ``calls`` writes in any ``period`` seconds; paced writes also keep ``spacing``
    seconds apart and leave ``reserve`` of the window to urgent ones."""

    calls: int
    period: float
    reserve: int = 0
    spacing: float = 0.0

    def scaled(self, factor: float) -> Limit:
        """The same limit with time running ``factor`` times faster (tests)."""
        return Limit(self.calls, self.period / factor, self.reserve, self.spacing / factor)


def padded(seconds: float, *, speedup: float = 1.0, share: float = 0.02, fixed: float = 0.03) -> float:
    """A server's window of ``seconds`` as the bot counts it: longer by ``share`` of it and
    ``fixed`` seconds, since the server counts a call when it arrives, not when it leaves;
    ``speedup`` runs the window that many times faster (tests, with a server sped up alike)."""
    return seconds / speedup * (1 + share) + fixed


class Budget:
    """The writes one chat (or the whole bot) made lately, against its ``Limit``."""

    __slots__ = ("_blocked_until", "_last_paced", "_times", "limit")

    def __init__(self, limit: Limit) -> None:
        if limit.calls < 1 or limit.period <= 0 or not 0 <= limit.reserve < limit.calls:
            raise ValueError(f"not a usable limit: {limit}")
        self.limit = limit
        self._times: deque[float] = deque()
        self._last_paced = -math.inf
        self._blocked_until = -math.inf

    def free_at(self, now: float, *, urgent: bool) -> float:
        """The earliest time (``now`` or later) a write of this kind fits the budget."""
        limit, times = self.limit, self._times
        while times and times[0] <= now - limit.period:
            times.popleft()
        at = max(now, self._blocked_until)
        allowed = limit.calls if urgent else limit.calls - limit.reserve
        if len(times) >= allowed:
            at = max(at, times[len(times) - allowed] + limit.period)
        if not urgent:
            at = max(at, self._last_paced + limit.spacing)
        return at

    def spend(self, now: float, *, urgent: bool) -> float | None:
        """A write starts now (check ``free_at`` first); returns what ``refund`` needs (for a
        paced write, the paced write before it)."""
        self._times.append(now)
        if urgent:
            return None
        previous = self._last_paced
        self._last_paced = now
        return previous

    def refund(self, at: float, previous: float | None) -> None:
        """The write spent at ``at`` made no call after all (nothing had changed);
        ``previous`` is what its ``spend`` returned."""
        try:
            self._times.remove(at)
        except ValueError:
            return  # already out of the window
        if previous is not None and self._last_paced == at:
            self._last_paced = previous

    def answered(self, at: float, now: float) -> None:
        """The write spent at ``at`` was answered at ``now``. The server counted it when it
        arrived, somewhere between the two: it is counted from ``now`` on, so that a call
        slow on its way (a busy machine, a slow network) never lets the next ones arrive
        closer together than the server allows."""
        times = self._times
        with contextlib.suppress(ValueError):
            times.remove(at)
        times.insert(bisect.bisect_right(times, now), now)

    def block(self, until: float) -> None:
        """The server asked for a pause (a 429 with ``retry_after``): no write before ``until``."""
        self._blocked_until = max(self._blocked_until, until)

    def used(self, now: float) -> int:
        """Writes in the window ending now."""
        self.free_at(now, urgent=True)
        return len(self._times)
