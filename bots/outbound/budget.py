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

- ``spacing``: writes that only refresh a message (paced writes) keep that
  many seconds apart on average, so a fast game spends its group's 20 writes
  a minute evenly instead of in a burst followed by a minute of silence; a
  chat that was quiet a while has ``burst`` of them at once (a credit comes
  back every ``spacing`` seconds, up to ``burst``; a new budget has one), so
  a game played at a person's pace shows each play at once instead of
  waiting out the spacing;
  with ``urgent_spaced``, an urgent write (which goes at once) spends a
  credit too, so the paced writes after it keep their distance from it: a
  private chat's writes then never bunch up and leave a gap;
- ``reserve``: paced writes leave that many writes of the window unused, so
  an urgent write (a reply to a command, a player's turn) never waits for
  the window to clear; urgent writes spend the reserve before they take from
  what the paced ones may use.
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
    seconds apart (``burst`` of them closer after a quiet while; from urgent writes too
    with ``urgent_spaced``) and leave ``reserve`` of the window to urgent ones."""

    calls: int
    period: float
    reserve: int = 0
    spacing: float = 0.0
    burst: int = 1
    urgent_spaced: bool = False

    def scaled(self, factor: float) -> Limit:
        """The same limit with time running ``factor`` times faster (tests)."""
        return Limit(self.calls, self.period / factor, self.reserve, self.spacing / factor, self.burst,
                     self.urgent_spaced)


def padded(seconds: float, *, speedup: float = 1.0, share: float = 0.02, fixed: float = 0.03) -> float:
    """A server's window of ``seconds`` as the bot counts it: longer by ``share`` of it and
    ``fixed`` seconds, since the server counts a call when it arrives, not when it leaves;
    ``speedup`` runs the window that many times faster (tests, with a server sped up alike)."""
    return seconds / speedup * (1 + share) + fixed


class Budget:
    """The writes one chat (or the whole bot) made lately, against its ``Limit``."""

    __slots__ = ("_blocked_until", "_credit", "_credit_at", "_times", "limit")

    def __init__(self, limit: Limit) -> None:
        if limit.calls < 1 or limit.period <= 0 or not 0 <= limit.reserve < limit.calls or limit.burst < 1:
            raise ValueError(f"not a usable limit: {limit}")
        self.limit = limit
        #: Every write of the window, in time order: (when, whether it was urgent).
        self._times: deque[tuple[float, bool]] = deque()
        #: The paced writes' credit (``spacing``) as it was at ``_credit_at``: one to begin with
        #: (a process just started does not know what another wrote before it), more as the
        #: chat stays quiet.
        self._credit = 1.0
        self._credit_at: float | None = None
        self._blocked_until = -math.inf

    def _credit_then(self, at: float) -> float:
        """The paced writes' credit at ``at``: one more every ``spacing`` seconds, up to ``burst``."""
        limit = self.limit
        if limit.spacing <= 0:
            return float(limit.burst)
        if self._credit_at is None:
            return min(float(limit.burst), self._credit)
        return min(float(limit.burst), self._credit + (at - self._credit_at) / limit.spacing)

    def free_at(self, now: float, *, urgent: bool) -> float:
        """The earliest time (``now`` or later) a write of this kind fits the budget.

        An urgent write fits while the window holds fewer than ``calls``. A paced one fits
        while the paced writes, with the urgent ones beyond the reserve, are fewer than
        ``calls - reserve``: urgent writes spend the reserve first, so a reply or a turn
        costs the paced refreshes nothing while the reserve lasts."""
        limit, times = self.limit, self._times
        while times and times[0][0] <= now - limit.period:
            times.popleft()
        at = max(now, self._blocked_until)
        if urgent:
            if len(times) >= limit.calls:
                at = max(at, times[len(times) - limit.calls][0] + limit.period)
            return at
        # Fewer writes in the window only ever lets more through: the first moment, of now and
        # each write's leaving, at which the paced writes fit.
        paced = sum(1 for _, pressing in times if not pressing)
        pressed = len(times) - paced
        share = limit.calls - limit.reserve
        for when, pressing in times:
            if when + limit.period > at and paced + max(0, pressed - limit.reserve) < share:
                break
            # Past this write's leaving, it no longer counts.
            at = max(at, when + limit.period)
            if pressing:
                pressed -= 1
            else:
                paced -= 1
        credit = self._credit_then(at)
        return at if credit >= 1 else at + (1 - credit) * limit.spacing

    def spend(self, now: float, *, urgent: bool) -> float | None:
        """A write starts now (check ``free_at`` first); returns what ``refund`` needs (for a
        paced write, the credit it took; None for an urgent one)."""
        self._times.append((now, urgent))
        if urgent:
            if self.limit.urgent_spaced:
                self._credit, self._credit_at = self._credit_then(now) - 1, now
            return None
        credit = self._credit_then(now)
        self._credit, self._credit_at = credit - 1, now
        return credit

    def refund(self, at: float, previous: float | None) -> None:
        """The write spent at ``at`` made no call after all (nothing had changed);
        ``previous`` is what its ``spend`` returned."""
        try:
            self._times.remove((at, previous is None))
        except ValueError:
            return  # already out of the window
        if previous is not None:  # the paced write's credit comes back
            self._credit = min(float(self.limit.burst), self._credit + 1)

    def answered(self, at: float, now: float, *, urgent: bool) -> None:
        """The write spent at ``at`` was answered at ``now``. The server counted it when it
        arrived, somewhere between the two: it is counted from ``now`` on, so that a call
        slow on its way (a busy machine, a slow network) never lets the next ones arrive
        closer together than the server allows."""
        times = self._times
        with contextlib.suppress(ValueError):
            times.remove((at, urgent))
        times.insert(bisect.bisect_right(times, (now, urgent)), (now, urgent))

    def block(self, until: float) -> None:
        """The server asked for a pause (a 429 with ``retry_after``): no write before ``until``."""
        self._blocked_until = max(self._blocked_until, until)

    def used(self, now: float) -> int:
        """Writes in the window ending now."""
        self.free_at(now, urgent=True)
        return len(self._times)
