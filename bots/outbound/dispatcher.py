"""The queue of outbound writes: the newest state of each message wins, chats side by side.

Each chat has a lane: its pending writes, at most one per message
(``Write.key``), and one task that sends them one at a time, so a chat's
messages keep their order while every chat moves at its own pace. A lane
picks the pending write that can start soonest within its chat's budget
(ties: ``order``, then arrival), sleeps until then, or until a new write
arrives, then waits for its turn at the bot's budget (``Gate``: the earliest
deadline first, a write someone waits for having the shorter one), and runs it.

A write that arrives while an older one for the same message is pending
replaces it; one carrying an older ``stamp`` than the pending one or the
last one started is dropped, so no message ever goes back to an older
state. A write's ``run`` makes the call itself and says how it went:
``SENT``, ``SKIPPED`` (no call was needed: the budget is given back),
``REFUSED`` (the platform answered no, as for a message it cannot edit: the call
counts against the budget all the same, and is not tried again),
``FAILED`` (given up; the adapter logged why) or ``Retry`` (the platform was
busy or the network failed: it runs again after the pause the server asked
for, else after a doubling back-off, unless a newer write for the message
came meanwhile).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Final, Literal

from .. import memory
from .budget import Budget, Limit
from .gate import Gate, Grant
from .shared import Shared

log = logging.getLogger(__name__)

SENT: Final = "sent"
SKIPPED: Final = "skipped"
FAILED: Final = "failed"
REFUSED: Final = "refused"
#: The chats' budgets are looked over once this many are kept: those of chats with no
#: write pending whose window is empty again are dropped (a new one is the same).
_BUDGETS_LOOKED_OVER: Final = 1024


@dataclass(frozen=True, slots=True)
class Retry:
    """Run the write again later: after ``after`` seconds if the server said so (a 429's
    ``retry_after``), else after the dispatcher's back-off. ``throttled``: a 429 that did not
    say for how long (counted with the others as "told to wait")."""

    after: float = 0.0
    throttled: bool = False


Outcome = Literal["sent", "skipped", "failed", "refused"] | Retry


@dataclass(frozen=True, slots=True)
class Write:
    """One call that changes what a chat shows.

    ``key`` names the message (a table, a lobby, a player's hand) or, for a
    message of its own, something unique; ``chat`` is whose budget it
    spends. ``stamp`` orders states of the same message (a table's version):
    never lower than one already sent. ``urgent`` writes (someone is
    waiting: a reply, a turn) may use the window's reserve and skip the
    spacing of paced refreshes. ``label`` names the kind for logs: never
    the text, which may hold a hand.
    """

    key: Hashable
    chat: Hashable
    run: Callable[[], Awaitable[Outcome]]
    stamp: tuple[int, ...] = ()
    urgent: bool = False
    order: int = 1
    label: str = "message"
    #: The table whose message references the write uses, if any: with several processes
    #: of the bot, a stamped write with a scope is ordered with theirs (``Shared``).
    scope: str | None = None
    #: What such a write locks, and whose newest state it checks, across processes: its
    #: ``key``, unless writes of several keys touch the same messages (a hand, and the
    #: short lines its messages become) and must take turns, never going back.
    lock: Hashable | None = None
    #: Seconds from its ``put`` before it may start: a write held back because what comes
    #: next may make it needless (the adapter ``cancel``s it then), or a newer state of the
    #: same message take its place (which goes without waiting).
    after: float = 0.0


class _Entry:
    __slots__ = ("attempts", "not_before", "seq", "since", "write")

    def __init__(self, write: Write, seq: int) -> None:
        self.write = write
        self.seq = seq
        self.attempts = 0
        self.not_before = 0.0
        #: When its message was first ready to go by its chat's budget: its place in the
        #: queue for the bot's budget (``Gate``), kept when a newer state replaces it.
        self.since: float | None = None


class _Lane:
    __slots__ = ("budget", "chat", "dropped", "pending", "queued", "running", "sleeping", "task")

    def __init__(self, chat: Hashable, budget: Budget) -> None:
        self.chat = chat
        self.budget = budget
        self.pending: dict[Hashable, _Entry] = {}
        self.task: asyncio.Task[None] | None = None
        #: The key of the write under way, and whether it was cancelled meanwhile.
        self.running: Hashable | None = None
        self.dropped = False
        #: The task while it sleeps until a write fits (a new write may want to go sooner).
        self.sleeping: asyncio.Task[None] | None = None
        #: The write waiting for the bot's budget (``Gate``), if the lane waits there.
        self.queued: _Entry | None = None


class Dispatcher:
    """Runs ``Write``s within each chat's ``Limit`` (``limit_of(chat)``) and the ``overall`` one."""

    def __init__(
        self,
        limit_of: Callable[[Hashable], Limit],
        overall: Limit | None = None,
        *,
        attempts: int = 8,
        first_delay: float = 0.5,
        max_delay: float = 30.0,
        now: Callable[[], float] | None = None,
        shared: Shared | None = None,
    ) -> None:
        self._limit_of = limit_of
        self._shared = shared
        self._overall = Budget(overall) if overall is not None else None
        self._now = now
        #: The bot's budget, handed to the lanes in turn (``Gate``).
        self._gate = Gate(self._overall, self.now) if self._overall is not None else None
        self.attempts = attempts
        self.first_delay = first_delay
        self.max_delay = max_delay
        self._lanes: dict[Hashable, _Lane] = {}
        #: The tables (``Write.scope``) of the writes under way, how many each.
        self._flying: Counter[str] = Counter()
        self._budgets: dict[Hashable, Budget] = {}
        self._look_over_at = _BUDGETS_LOOKED_OVER
        self._started: OrderedDict[Hashable, tuple[int, ...]] = OrderedDict()
        self._seq = itertools.count()
        #: What happened to writes, by outcome ("sent", "replaced", "stale", "retried", …).
        self.counts: Counter[str] = Counter()

    def share(self, shared: Shared) -> None:
        """From now on, admit and order writes together with the bot's other processes."""
        self._shared = shared

    def now(self) -> float:
        return self._now() if self._now is not None else asyncio.get_running_loop().time()

    # -- putting writes ------------------------------------------------------------------

    def put(self, write: Write) -> bool:
        """Queue ``write``; False if it carries an older state than one pending or started."""
        started = self._started.get(write.key)
        if started is not None and write.stamp < started:
            self.counts["stale"] += 1
            return False
        lane = self._lanes.get(write.chat)
        if lane is None:
            lane = self._lanes[write.chat] = _Lane(write.chat, self._budget(write.chat))
        entry = lane.pending.get(write.key)
        held = self.now() + write.after if write.after > 0 else 0.0
        if entry is None:
            lane.pending[write.key] = entry = _Entry(write, next(self._seq))
            entry.not_before = held
        elif write.stamp < entry.write.stamp:
            self.counts["stale"] += 1
            return False
        else:
            # A newer state: tried afresh (a server's pause stays in the chat's budget).
            entry.write, entry.attempts, entry.not_before = write, 0, held
            self.counts["replaced"] += 1
        if lane.task is not None and lane.sleeping is lane.task and _sooner(write, lane, entry):
            # Asleep until the earliest pending write fits, or waiting for the bot's budget
            # with a write that the new one goes before: it may go sooner.
            lane.task.cancel()
            lane.task = None
        if lane.task is None:
            lane.task = asyncio.get_running_loop().create_task(self._serve(lane))
        return True

    def _charge(self, chat: Hashable, calls: int) -> None:
        """A write made ``calls`` more calls than the one it was granted (its first was
        refused, say a message gone, and it posted a new one): they count against the chat's
        and the bot's budgets too, as the platform counts them."""
        now = self.now()
        budget = self._budget(chat)
        for _ in range(calls):
            budget.spend(now, urgent=True)
            if self._gate is not None:
                self._gate.charge()
        self.counts["extra calls"] += calls

    def cancel(self, chat: Hashable, key: Hashable) -> None:
        """Drop the pending write of ``key`` (its message is gone or no longer wanted); one
        under way finishes, but is not tried again."""
        self.withdraw(chat, key)

    def withdraw(self, chat: Hashable, key: Hashable) -> bool:
        """``cancel``, and say whether a write was dropped before it started (nothing of it
        reached the chat): a write held back (``Write.after``) that came to nothing."""
        lane = self._lanes.get(chat)
        if lane is None:
            return False
        dropped = lane.pending.pop(key, None) is not None
        if dropped:
            self.counts["cancelled"] += 1
            if not lane.pending and lane.task is not None and lane.sleeping is lane.task:
                # It slept for that write alone (one held back): nothing is left to wait for.
                lane.task.cancel()
                lane.task = None
        if lane.running == key:
            lane.dropped = True  # under way: it is not tried again
        return dropped

    def pending(self) -> int:
        """Writes waiting (not counting those under way)."""
        return sum(len(lane.pending) for lane in self._lanes.values())

    def pending_scopes(self) -> set[str]:
        """The tables (``Write.scope``) with a write waiting or under way: what a process
        that stopped now would not have shown of them."""
        waiting = (e.write.scope for lane in self._lanes.values() for e in lane.pending.values())
        return {scope for scope in waiting if scope is not None} | set(self._flying)

    def _budget(self, chat: Hashable) -> Budget:
        budget = self._budgets.get(chat)
        if budget is None:
            if len(self._budgets) >= self._look_over_at:
                self._drop_idle_budgets()
            budget = self._budgets[chat] = Budget(self._limit_of(chat))
        return budget

    def _drop_idle_budgets(self) -> None:
        """Forget the budgets of chats that wrote nothing lately, as if never used: every
        chat the bot ever wrote to would be kept otherwise."""
        now = self.now()
        for chat, budget in list(self._budgets.items()):
            if chat not in self._lanes and budget.used(now) == 0 and budget.free_at(now, urgent=False) <= now:
                del self._budgets[chat]
        self._look_over_at = max(_BUDGETS_LOOKED_OVER, 2 * len(self._budgets))

    # -- serving a chat ------------------------------------------------------------------

    def _free_at(self, lane: _Lane, entry: _Entry, now: float) -> float:
        """When the write fits its chat's budget (the bot's is the ``Gate``'s to give)."""
        return max(now, entry.not_before, lane.budget.free_at(now, urgent=entry.write.urgent))

    async def _serve(self, lane: _Lane) -> None:
        me = asyncio.current_task()
        try:
            while lane.pending:
                now = self.now()
                at, _, _, entry = min(
                    (self._free_at(lane, e, now), e.write.order, e.seq, e) for e in lane.pending.values()
                )
                if at > now:
                    # A plain sleep (a new write cancels it): nothing else to wait for.
                    lane.sleeping = me
                    try:
                        await asyncio.sleep(at - now)
                    finally:
                        if lane.sleeping is me:
                            lane.sleeping = None
                    continue
                if self._shared is not None and not await self._admitted(lane, entry):
                    continue
                grant = None
                if self._gate is not None:
                    if entry.since is None:
                        entry.since = now
                    lane.sleeping, lane.queued = me, entry
                    try:
                        grant = await self._gate.turn(urgent=entry.write.urgent, since=entry.since)
                    finally:
                        if lane.sleeping is me:
                            lane.sleeping = None
                        lane.queued = None
                    if lane.pending.get(entry.write.key) is not entry:
                        self._gate.refund(grant)  # cancelled meanwhile
                        continue
                await self._run(lane, entry, self.now(), grant)
        finally:
            if lane.task is me:
                lane.task = None
            if lane.task is None and not lane.pending and self._lanes.get(lane.chat) is lane:
                del self._lanes[lane.chat]
                if lane.budget.used(self.now()) == 0:
                    self._budgets.pop(lane.chat, None)

    async def _admitted(self, lane: _Lane, entry: _Entry) -> bool:
        """Whether the budget shared with the bot's other processes lets the write go now;
        if not, it waits as long as that budget says (a newer state may replace it)."""
        assert self._shared is not None
        write = entry.write
        overall = self._overall.limit if self._overall is not None else None
        try:
            wait = await self._shared.admit(lane.chat, lane.budget.limit, overall, urgent=write.urgent)
        except Exception:
            log.exception("the shared budget could not be read: the write goes on this process's")
            wait = 0.0
        if wait <= 0:
            return lane.pending.get(write.key) is entry
        self.counts["waited for another process"] += 1
        if lane.pending.get(write.key) is entry:
            entry.not_before = max(entry.not_before, self.now() + wait)
        return False

    async def _run(self, lane: _Lane, entry: _Entry, now: float, grant: Grant | None) -> None:
        write = entry.write
        del lane.pending[write.key]
        paced = lane.budget.spend(now, urgent=write.urgent)
        if write.stamp:
            self._started[write.key] = write.stamp
            self._started.move_to_end(write.key)
            while len(self._started) > memory.CAPS.write_stamps:
                self._started.popitem(last=False)
        lane.running, lane.dropped = write.key, False
        if write.scope is not None:
            self._flying[write.scope] += 1
        made = _CALLS.set([0])
        try:
            outcome = await self._send(write)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("sending a %s failed", write.label)
            outcome = FAILED
        finally:
            lane.running = None
            if write.scope is not None:
                self._flying[write.scope] -= 1
                if not self._flying[write.scope]:
                    del self._flying[write.scope]
            calls = _CALLS.get()
            _CALLS.reset(made)
        if outcome != SKIPPED:
            answered = self.now()
            lane.budget.answered(now, answered, urgent=write.urgent)
            if self._gate is not None and grant is not None:
                self._gate.answered(grant, answered)
        if calls is not None and calls[0] > 1:
            self._charge(lane.chat, calls[0] - 1)
        if isinstance(outcome, Retry) and lane.dropped:
            self.counts["cancelled"] += 1
            return
        if isinstance(outcome, Retry):
            self._again(lane, entry, outcome)
            return
        self.counts[outcome] += 1
        if outcome == SKIPPED:
            lane.budget.refund(now, paced)
            if self._gate is not None and grant is not None:
                self._gate.refund(grant)

    async def _send(self, write: Write) -> Outcome:
        if self._shared is None or not write.stamp or write.scope is None:
            return await write.run()  # not a table's message other processes edit too
        ran, outcome = await self._shared.ordered(write.key, write.stamp, write.run, write.scope, write.lock)
        if not ran:
            self.counts["stale"] += 1
            return SKIPPED
        return outcome  # type: ignore[return-value]

    def _again(self, lane: _Lane, entry: _Entry, retry: Retry) -> None:
        write = entry.write
        now = self.now()
        if retry.after > 0:
            lane.budget.block(now + retry.after)
        if retry.after > 0 or retry.throttled:
            self.counts["told to wait"] += 1
        if write.key in lane.pending:
            self.counts["replaced"] += 1  # a newer state is already waiting: it goes instead
            return
        entry.attempts += 1
        if entry.attempts >= self.attempts:
            log.error("gave up sending a %s after %d attempts", write.label, entry.attempts)
            self.counts["gave up"] += 1
            return
        self.counts["retried"] += 1
        backoff = min(self.max_delay, self.first_delay * 2 ** (entry.attempts - 1))
        entry.not_before = now + max(retry.after, backoff)
        lane.pending[write.key] = entry

    # -- waiting and closing -------------------------------------------------------------

    async def idle(self, timeout: float = 30.0) -> bool:
        """Wait until nothing is pending or under way (at most ``timeout`` seconds);
        True if everything went."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while tasks := [lane.task for lane in self._lanes.values() if lane.task is not None]:
            left = end - loop.time()
            if left <= 0:
                return False
            await asyncio.wait(tasks, timeout=left)
        return True

    async def close(self, grace: float = 0.0) -> bool:
        """Send what can go within ``grace`` seconds, then stop; the rest is dropped (the
        service's state is stored, and a restarted bot draws those tables afresh). True if
        nothing was dropped."""
        sent = await self.idle(grace) if grace > 0 else self.pending() == 0 and not any(
            lane.task is not None for lane in self._lanes.values()
        )
        tasks = [lane.task for lane in self._lanes.values() if lane.task is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._lanes.clear()
        if self._gate is not None:
            await self._gate.close()
        return sent


#: The calls the write under way has made so far (``note_call``), in the task that runs it.
_CALLS: ContextVar[list[int] | None] = ContextVar("calls", default=None)


def note_call() -> None:
    """The platform answered a call (done or refused, not a network failure): the adapter's
    client says so for each, so that a write that made more than one spends as many turns
    of the budgets."""
    calls = _CALLS.get()
    if calls is not None:
        calls[0] += 1


def _sooner(write: Write, lane: _Lane, entry: _Entry) -> bool:
    """Whether ``write`` (just put as ``entry``) may go before what its sleeping lane waits
    for: always while it sleeps for its chat's budget; while it waits for the bot's, only if
    it is more urgent, or of a lower order, than the write waiting there."""
    queued = lane.queued
    if queued is None:
        return True
    if queued is entry:
        return False  # a newer state of the very write waiting: it goes in its place
    return (not write.urgent, write.order) < (not queued.write.urgent, queued.write.order)
