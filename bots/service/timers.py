"""The service's timed work: lobby expiry, computer turns, clock warnings and timeouts.

Each table's next step is armed from its state whenever it changes (``Tables.hooks``):
the timers hear of changes, the unit of work never calls them. Tables not loaded yet
sleep in the store until their stored due time (``watch_due``). On a store shared by
several processes, work overdue because its process died is claimed by another
(``take_over``) and still happens once, decided under ``Store.hold`` on the latest state.
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable

from core import Card
from core import events as ev
from core.ai import LEVELS
from storage import (
    StorageError,
    Store,
)

from . import deadlines
from .clock import Clock, Timer
from .config import ServiceConfig
from .live import LiveTable, capacity, solo
from .notices import (
    ClockWarning,
    Notice,
)
from .tables import Decision, Tables
from .thinking import Thinker, default_processes

log = logging.getLogger(__name__)


class Timers:
    """Arms and runs the tables' timed steps; computer seats think in ``thinker``."""

    def __init__(self, tables: Tables, store: Store, clock: Clock, config: ServiceConfig) -> None:
        self._t = tables
        self._store = store
        self._clock = clock
        self._config = config
        #: Stored tables not loaded yet are woken from the store's index of due times: one
        #: wake-up (``_waking``) is armed for the earliest of them, however many there are,
        #: and each wake-up loads the tables due since the last (``_looked``: up to when).
        self._watching = False
        self._waking: Timer | None = None
        self._looked: float | None = None
        #: Who claims timed work on a shared store: this process, unique among its peers.
        self.holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        #: Where computer seats think: worker processes, or a thread (see ``thinking``).
        self.thinker = Thinker(
            default_processes() if config.computer_processes is None else config.computer_processes
        )
        tables.hooks = self

    def adopted(self, live: LiveTable) -> None:
        """A stored table taken into memory: its wake-up is not needed any more, and with one
        process its own timers are the only ones (shared, a table's timed work is armed by
        the process that made it due, or claimed when overdue)."""
        if not self._t.shared:
            self.arm(live)

    def changed(self, live: LiveTable) -> None:
        self.arm(live)

    def arm(self, live: LiveTable) -> None:
        """Schedule the table's next timed step from its state: lobby expiry, computer
        turn, clock warning, timeout or practice expiry. Only for the tables this service's
        bots keep (``Tables.keeps``)."""
        live.cancel_timer()
        record, match = live.record, live.match
        if not self._t.keeps(record):
            return  # a match between strangers another bot keeps: its process times it
        table_id, version, revision = record.table_id, record.version, record.revision
        now = self._clock.now()
        if record.status == "lobby" and record.deadline is not None:
            live.timer = self._clock.call_at(
                record.deadline, lambda: self.on_lobby_timer(table_id, revision)
            )
            return
        if record.status != "running" or match is None or match.to_move is None:
            return
        if any(seat.computer is not None for seat in record.seats):
            # The computers' processes start while a person thinks over their first play, so
            # the computers' first answer comes within its pause, as every later one does.
            self.thinker.warm()
        if record.seats[match.to_move].computer is not None:
            when = now + self._config.computer_delay
            if record.due_at is not None:
                when = min(when, record.due_at)  # after a restart, or taken over: it is due
            live.timer = self._clock.call_at(when, lambda: self.on_computer_turn(table_id, version))
            return
        deadline = record.deadline
        if deadline is None:
            return
        warn_at = deadline - self._config.warning_seconds
        if deadlines.warns(record, self._config) and warn_at > now:
            live.timer = self._clock.call_at(warn_at, lambda: self.on_warning(table_id, version))
        else:
            live.timer = self._clock.call_at(deadline, lambda: self.on_deadline(table_id, version))

    async def watch_due(self) -> None:
        """Wake each stored table not loaded yet when it has timed work, from the store's
        index of due times (or when it is first touched, whichever comes first). One wake-up
        is armed, for the earliest, and nothing is read of the others meanwhile: start-up
        costs one indexed read, however many tables are stored. A store that cannot be
        read raises its ``StorageError``; later, a wake-up that cannot read it tries again
        after ``ServiceConfig.poll_seconds``."""
        when = await self._next_dormant()
        self._watching = True
        self._arm_at(when)

    def sleep_no_more(self) -> None:
        """Forget the stored tables' wake-ups (the service stops)."""
        self._watching = False
        if self._waking is not None:
            self._waking.cancel()
        self._waking = self._looked = None

    async def _next_dormant(self) -> float | None:
        """When the first stored table not loaded yet is due after ``_looked``, if any: the
        loaded ones have their own timers (read past a few at a time)."""
        owners = sorted(self._t.owners.values())
        limit = 16
        while True:
            due = await self._store.due_tables(owners, after=self._looked, limit=limit)
            for table_id, when in due:
                if table_id not in self._t.live:
                    return when
            if len(due) < limit:
                return None
            limit *= 4

    def _arm_at(self, when: float | None) -> None:
        if when is not None and self._watching and self._waking is None:
            self._waking = self._clock.call_at(when, self._wake_due)

    async def _wake_due(self) -> None:
        self._waking = None
        now = self._clock.now()
        owners = sorted(self._t.owners.values())
        try:
            due = await self._store.due_tables(owners, after=self._looked, until=now)
            self._looked = now
            for table_id, _ in due:
                if not self._watching:
                    return
                if table_id not in self._t.live:
                    await self.wake(table_id)
            when = await self._next_dormant()
        except StorageError:
            log.exception("the due times of stored tables could not be read: trying again")
            when = self._clock.now() + self._config.poll_seconds
        self._arm_at(when)

    async def wake(self, table_id: str) -> None:
        self._t.busy += 1
        try:
            await self._t.find(table_id)  # loading it arms its clock, which is due
        except StorageError:
            log.exception("table %s could not be loaded for its timed work", table_id)
        finally:
            self._t.busy -= 1

    async def take_over(self) -> None:
        """On a shared store: claim the timed work that is overdue (the process that armed
        it died, or is stuck) and arm it here; each claimed step still happens once, since
        it is decided under ``Store.hold`` on the latest state and refused by its version."""
        now = self._clock.now()
        owners = sorted(self._t.owners.values())
        claimed = await self._store.claim_due(
            owners, now - self._config.takeover_seconds, self.holder, self._config.claim_seconds
        )
        for table_id in claimed:
            live = await self._t.find(table_id)
            if live is not None:
                if live.record.due_at is not None and live.record.due_at > now:
                    continue  # it moved on meanwhile
                self.arm(live)

    def current(self, table_id: str, version: int) -> LiveTable | None:
        live = self._t.live.get(table_id)
        if live is None or live.record.version != version or live.record.status != "running":
            return None
        return live

    async def timed(
        self,
        table_id: str,
        work: Callable[[LiveTable], Awaitable[list[Notice]]],
        still: Callable[[LiveTable], bool],
    ) -> None:
        live = self._t.live.get(table_id)
        if live is None:
            return
        self._t.busy += 1
        try:
            if self._t.shared and not await self._store.claim(
                table_id, self._clock.now(), self.holder, self._config.claim_seconds
            ):
                return  # another process is on it

            async def decide() -> Decision[None]:
                if self._t.live.get(table_id) is not live or not still(live):
                    return None, []
                return None, await work(live)

            await self._t.run(live, decide)
        finally:
            self._t.busy -= 1

    async def on_lobby_timer(self, table_id: str, revision: int) -> None:
        async def work(live: LiveTable) -> list[Notice]:
            if live.record.deadline is not None and live.record.deadline > self._clock.now():
                self.arm(live)
                return []
            return await self._t.close_lobby(live, "expired")

        await self.timed(table_id, work, lambda live: live.record.status == "lobby")

    async def on_computer_turn(self, table_id: str, version: int) -> None:
        async def work(live: LiveTable) -> list[Notice]:
            match = live.match
            assert match is not None and match.to_move is not None
            seat = match.to_move
            level = live.record.seats[seat].computer or "beginner"
            card, plan = await self.computer_choice(live, seat, level)
            async with live.writing:
                events = self._t.play_events(match, seat, card, plan)
                await self._t.commit_match(live, events)
            self._t.plays["computer"] += 1
            return self._t.match_notices(live, [ev.event_from_dict(e) for e in events])

        await self.timed(table_id, work, lambda live: self.current(table_id, version) is live)

    async def computer_choice(self, live: LiveTable, seat: int, level: str, *,
                              wait: bool = True) -> tuple[Card, int]:
        """The computer's play for ``seat``. It thinks off the event loop (``thinking``: the
        expert takes up to about 150 ms): meanwhile the loop keeps every other table's
        presses and deliveries going, and a write planned against a flood limit leaves when
        planned. The table's lock is held throughout, so the match does not change under it.
        Not ``wait``: it does not wait for the thinking processes to start (``Thinker``)."""
        assert live.match is not None
        level = level if level in LEVELS else "beginner"
        seed = f"{live.table_id}:{live.record.version}"
        return await self.thinker.choose(level, seed, live.match.view(seat), wait=wait)

    async def on_warning(self, table_id: str, version: int) -> None:
        async def work(live: LiveTable) -> list[Notice]:
            record = live.record
            assert live.match is not None and live.match.to_move is not None and record.deadline is not None
            await self._t.save(live, lambda r: r.model_copy(update={"warned": True}))
            self.arm(live)
            seat = live.match.to_move
            hand = self._t.hand_view(live, seat)
            left = max(0, round(record.deadline - self._clock.now()))
            return [ClockWarning(hand, left, self._t.lang.of(hand.player_id, record.chat_id))]

        await self.timed(table_id, work, lambda live: self.current(table_id, version) is live)

    async def on_deadline(self, table_id: str, version: int) -> None:
        async def work(live: LiveTable) -> list[Notice]:
            record, match = live.record, live.match
            assert match is not None and match.to_move is not None
            if record.deadline is None or record.deadline > self._clock.now():
                self.arm(live)
                return []
            seat = match.to_move
            if solo(record):
                return await self._t.end(live, "expired", None)
            if capacity(record) == 2:
                return await self._t.end(live, "timeout", seat)
            # The beginner's card, at once: a clock is due now, and the beginner decides in
            # a moment, so a process whose thinking processes are not running yet (no computer
            # has played here, or it took the table over) does not wait for them to start.
            card, plan = await self.computer_choice(live, seat, "beginner", wait=False)
            events = [{"kind": "auto_played", "seat": seat, "reason": "timeout"}]
            async with live.writing:
                played = self._t.play_events(match, seat, card, plan)
                await self._t.commit_match(live, events + played, auto=True)
            self._t.plays["clock"] += 1
            return self._t.match_notices(live, [ev.event_from_dict(e) for e in played])

        await self.timed(table_id, work, lambda live: self.current(table_id, version) is live)
