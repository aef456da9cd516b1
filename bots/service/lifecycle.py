"""Starting and stopping the service: clocks re-armed, tables drawn again after a stop
that may not have delivered everything, the heartbeat, and take-over on a shared store."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Awaitable, Callable

from core import BasraError
from storage import (
    DamagedRow,
    StorageError,
    Store,
    TableRecord,
)

from . import viewing
from .clock import Clock, ManualClock, SystemClock, Timer
from .config import ServiceConfig
from .languages import Languages
from .live import LiveTable
from .notices import (
    LobbyClosed,
    LobbyUpdated,
    Undelivered,
)
from .tables import Decision, Tables
from .timers import Timers
from .views import (
    LobbyEnd,
)

log = logging.getLogger(__name__)

#: Noted (as the service's name with this after it) by a stop that delivered everything.
DELIVERED = " delivered"
#: After a stop that may not have delivered everything, how many of the tables written just
#: before it are drawn again during start-up; the others follow, this many a second.
REDRAW_AT_ONCE = 20
REDRAW_PER_SECOND = 4.0
#: How many of those tables are listed at a time, as the drawing reaches them.
REDRAW_PAGE = 100
#: Where a service notes the tables its platforms still had writes for (``Undelivered``):
#: delivery's own rows (``Store.keep_refs``) under this and the service's name, key "tables".
UNDELIVERED = "~undelivered:"
#: The most table ids noted there; beyond them, the redraw falls back to the time window.
UNDELIVERED_AT_MOST = 2000
#: How often a process on a shared store forgets the rate windows and message marks nobody
#: used for ``IDLE_FOR`` seconds (``Store.forget_idle``).
FORGET_EVERY = 3600.0
IDLE_FOR = 24 * 3600.0


class Lifecycle:
    """The service's start, its heartbeat and its stop."""

    _heartbeat: Timer | None = None
    _takeover: Timer | None = None
    _redrawing: Timer | None = None
    #: When this process last forgot the shared rate windows and marks nobody uses.
    _forgot_at: float | None = None

    def __init__(self, tables: Tables, languages: Languages, timers: Timers, store: Store, clock: Clock,
                 config: ServiceConfig) -> None:
        self._t = tables
        self._lang = languages
        self._timers = timers
        self._store = store
        self._clock = clock
        self._config = config
        #: Tables to draw again after a stop that may not have delivered everything
        #: (``start``), the latest written first: a page of them at a time, and where the
        #: next page starts (the last listed, and what they were written since), if any.
        self._backlog: deque[str] = deque()
        self._listed: tuple[tuple[str, float], float] | None = None
        #: What runs after each heartbeat, each keeping its own pace (pruning old matches).
        self.chores: list[Callable[[], Awaitable[object]]] = []
        #: What listens from the start to the stop (other processes' changes: ``crossing``).
        self.listeners: list[Callable[[], contextlib.AbstractAsyncContextManager[None]]] = []
        self._listening = contextlib.AsyncExitStack()
        #: The tables with writes still to go, as last noted in the store (None: not yet).
        self._noted: set[str] | None = None
        #: Tables drawn again since the start (a table both noted and changed is drawn once).
        self._redrawn: set[str] = set()

    async def start(self, *, redeliver: bool = True) -> None:
        """Re-arm every clock of these platforms' open tables with the time it had left, and
        (``redeliver``) draw again the tables whose last messages may not have gone out.

        What start-up reads and writes does not grow with the database: the time the
        service was down moves every clock of its bots in one row (``Store.resume``), the
        first table due is found in the index of due times and one wake-up armed for it,
        and every table is loaded when it is first touched (a press, a command, its clock).
        After a stop that delivered everything (``close(delivered=True)``) nothing is drawn
        again; after any other (a crash, a kill) what players may have missed is: when
        every platform tells which tables it still has writes for (``Undelivered``, noted
        at each heartbeat when it changes, and at a close), those, and the tables written
        from the heartbeat before the last one on; otherwise the tables written in the
        ``redeliver_seconds`` before the stop. The latest first: ``REDRAW_AT_ONCE`` of them
        during start-up, the others ``REDRAW_PER_SECOND`` a second behind live play, so
        that a restart neither takes long nor floods the chats. On a store shared by
        several processes, timed work is armed by the process that made it due, and
        overdue work is claimed by any of them (``ServiceConfig.poll_seconds``)."""
        now = self._clock.now()
        owners = sorted(self._t.owners.values())
        last = await self._store.last_alive(self._t.name)
        delivered = await self._store.last_alive(self._t.name + DELIVERED)
        # The time the service was down does not count against anyone: every deadline moves
        # on by it, once (a start-up that fails after this does not count it again).
        await self._store.resume(self._t.name, now, self._counted_until(now), owners)
        if not self._t.shared:
            await self._timers.watch_due()
        clean = last is not None and delivered is not None and delivered >= last
        if redeliver and not clean:
            stopped = last if last is not None and not self._t.shared else now
            since = stopped - self._config.redeliver_seconds
            noted = await self._noted_undelivered() if last is not None and not self._t.shared else None
            if noted is not None and last is not None:
                # What the platforms still had to send at the last heartbeat, then what
                # changed from a beat before it on: everything else had gone out.
                self._backlog.extend(noted)
                since = max(since, last - 2 * self._config.heartbeat_seconds)
            await self._list_more(since, None)
        for listener in self.listeners:
            await self._listening.enter_async_context(listener())
        self._schedule_heartbeat()
        if self._t.shared:
            self._schedule_takeover()
        for _ in range(REDRAW_AT_ONCE):
            if not await self._redraw_next():
                break
        self._schedule_redraw()

    async def _noted_undelivered(self) -> list[str] | None:
        """The tables the platforms still had writes for when last noted, if each platform
        can tell and a note is there (and was not cut short)."""
        if self._undelivered() is None:
            return None
        tables = (await self._store.message_refs(UNDELIVERED + self._t.name)).get("tables")
        if not isinstance(tables, list) or len(tables) >= UNDELIVERED_AT_MOST:
            return None
        return [str(t) for t in tables]

    def _undelivered(self) -> set[str] | None:
        """The tables every platform still has writes for; None if one cannot tell."""
        found: set[str] = set()
        for platform in self._t.platforms.values():
            told = platform.undelivered() if isinstance(platform, Undelivered) else None
            if told is None:
                return None
            found.update(told)
        return found

    async def _note_undelivered(self) -> None:
        """Note in the store the tables with writes still to go, when they changed."""
        pending = self._undelivered()
        if pending is None or pending == self._noted:
            return
        tables = sorted(pending)[:UNDELIVERED_AT_MOST]
        await self._store.keep_refs(UNDELIVERED + self._t.name, {"tables": tables})
        self._noted = pending

    async def _list_more(self, since: float, before: tuple[str, float] | None) -> None:
        """List the next page of tables to draw again: written at or after ``since``, after
        ``before`` (the last listed) in the order latest first."""
        owners = sorted(self._t.owners.values())
        page = await self._store.changed_tables(owners, since, before=before, limit=REDRAW_PAGE)
        self._backlog.extend(table_id for table_id, _ in page)
        self._listed = (page[-1], since) if len(page) == REDRAW_PAGE else None

    def _schedule_redraw(self) -> None:
        if (self._backlog or self._listed is not None) and self._heartbeat is not None:
            when = self._clock.now() + 1.0 / REDRAW_PER_SECOND
            self._redrawing = self._clock.call_at(when, self._redraw_step)

    async def _redraw_step(self) -> None:
        self._redrawing = None
        self._t.busy += 1
        try:
            await self._redraw_next()
        finally:
            self._t.busy -= 1
            self._schedule_redraw()

    async def _redraw_next(self) -> bool:
        """Draw the next table of the backlog again, unless it was touched since the start
        (its own action drew it then); the next page is listed when it is reached. False if
        there was none left."""
        if not self._backlog and self._listed is not None:
            last, since = self._listed
            try:
                await self._list_more(since, last)
            except StorageError as error:
                log.error("the tables to draw again could not be listed: %s", error)
                return True  # tried again at the next step
        if not self._backlog:
            return False
        table_id = self._backlog.popleft()
        if table_id not in self._redrawn:
            self._redrawn.add(table_id)
            await self._redraw(table_id)
        return True

    async def _redraw(self, table_id: str) -> None:
        if table_id in self._t.live:
            return
        try:
            record = await self._store.get_table(table_id)
        except DamagedRow as damaged:
            await self._t.damaged(damaged)
            return
        except StorageError as error:
            log.error("table %s could not be read to draw it again: %s", table_id, error)
            return
        if record is None or not self._t.owns(record):
            return
        if not record.is_open:
            await self._redeliver_closed(record)
            return
        live = await self._t.adopt(record)
        if live is not None:
            await self._redeliver(live)

    async def _redeliver_closed(self, record: TableRecord) -> None:
        """A table that closed shortly before the stop: its last picture (the result, the
        closed lobby) again, as the messages a stopped process may not have sent."""
        if not self._t.owns(record):
            return
        try:
            await self._lang.settings_of(record.chat_id)
            if record.version == 0:
                reason: LobbyEnd = "expired" if record.status == "expired" else "cancelled"
                view = viewing.lobby_view(record, LiveTable(record).rules, self._t.turn_seconds(record))
                closing = LobbyClosed(view, reason, self._lang.public(record.chat_id))
                await self._t.deliver([closing], record.seats)
                return
            closed, match = await self._t.closed_table(record.table_id)
            for seat in closed.seats:
                if seat.player_id is not None:
                    await self._lang.know_player(seat.player_id)
            await self._t.deliver(self._t.match_notices(LiveTable(closed, match)), closed.seats)
        except (BasraError, ValueError, TypeError, KeyError) as error:  # its events do not replay
            log.error("table %s could not be drawn again: %s", record.table_id, error)

    async def _redeliver(self, live: LiveTable) -> None:
        async def decide() -> Decision[None]:
            if live.record.status == "lobby":
                return None, [
                    LobbyUpdated(self._t.lobby_view(live), self._lang.public(live.record.chat_id))
                ]
            return None, self._t.match_notices(live)

        await self._t.run(live, decide)

    async def _forget_idle(self) -> None:
        """Once every ``FORGET_EVERY`` seconds, the shared rate windows and message marks
        nobody used for ``IDLE_FOR`` go (a few per match would otherwise stay for good)."""
        now = self._clock.now()
        if self._forgot_at is None:
            self._forgot_at = now  # not at every start: a restarted process waits its turn
        if now - self._forgot_at < FORGET_EVERY:
            return
        self._forgot_at = now
        forgotten = await self._store.forget_idle(IDLE_FOR)
        if forgotten:
            log.info("forgot %d idle rate windows and message marks", forgotten)

    def _schedule_takeover(self) -> None:
        self._takeover = self._clock.call_at(self._clock.now() + self._config.poll_seconds, self._poll)

    async def _poll(self) -> None:
        try:
            await self._timers.take_over()
        except StorageError:
            log.exception("looking for overdue timed work failed")
        try:
            await self._forget_idle()
        except StorageError:
            log.exception("forgetting idle rate windows and marks failed")
        finally:
            if self._heartbeat is not None:
                self._schedule_takeover()

    def _schedule_heartbeat(self) -> None:
        when = self._clock.now() + self._config.heartbeat_seconds
        self._heartbeat = self._clock.call_at(when, self._beat)

    def _counted_until(self, now: float) -> float:
        """What a heartbeat notes: a process killed after it may have run (and its clocks
        counted) until the next beat was due, so a restart gives back no time it ran. A
        clean close notes the very moment instead."""
        return now + self._config.heartbeat_seconds

    async def _beat(self) -> None:
        await self._store.note_alive(self._t.name, self._counted_until(self._clock.now()))
        self._schedule_heartbeat()
        if not self._t.shared:
            try:
                await self._note_undelivered()
            except StorageError:
                log.exception("noting the tables with writes still to go failed")
        for chore in self.chores:
            try:
                await chore()
            except StorageError:
                log.exception("a periodic chore failed")

    async def stop_clocks(self) -> None:
        """Stop every clock and timed step (deadlines stay stored) and wait for the actions
        under way: nothing is committed, so nothing more is delivered, after this. An
        adapter calls it before it sends what is left, then ``close``."""
        if self._heartbeat is not None:
            self._heartbeat.cancel()
            self._heartbeat = None
        if self._takeover is not None:
            self._takeover.cancel()
            self._takeover = None
        if self._redrawing is not None:
            self._redrawing.cancel()
            self._redrawing = None
        self._backlog.clear()
        self._listed = None
        await self._listening.aclose()
        self._timers.sleep_no_more()
        for live in list(self._t.live.values()):
            live.cancel_timer()
            async with live.lock:
                pass

    async def close(self, *, delivered: bool = False) -> None:
        """Stop the clocks (``stop_clocks``) and note the time, for the next start.
        ``delivered``: the adapters sent everything the service gave them, so the next
        start has nothing to draw again."""
        await self.stop_clocks()
        self._t.live.clear()
        self._t.by_chat.clear()
        await self._timers.thinker.close()
        with contextlib.suppress(StorageError):
            now = self._clock.now()
            if not delivered and not self._t.shared:
                await self._note_undelivered()  # what the platforms could not send in time
            await self._store.note_alive(self._t.name, now)
            if delivered:
                await self._store.note_alive(self._t.name + DELIVERED, now)

    @property
    def running(self) -> bool:
        """Started (its tables restored, their clocks armed) and not yet closed."""
        return self._heartbeat is not None

    async def reach_store(self) -> None:
        """Read from the store, raising its ``StorageError`` if it cannot (a health check)."""
        await self._store.last_alive(self._t.name)

    async def drain(self, timeout: float = 30.0) -> None:
        """Wait until timed work already due (computer turns, timeouts) has finished,
        including the computer turns that work makes due (at most ``timeout`` seconds;
        with a ``ManualClock``, runs what is due now)."""
        clock = self._clock
        if isinstance(clock, ManualClock):
            await clock.run_due()
            return
        loop = asyncio.get_running_loop()
        give_up = loop.time() + timeout
        while loop.time() < give_up:
            if isinstance(clock, SystemClock):
                await clock.drain()
            await asyncio.sleep(0)
            if (
                not self._t.busy
                and not self._due_soon()
                and not (isinstance(clock, SystemClock) and clock.running)
            ):
                return
            await asyncio.sleep(0.001)

    def _due_soon(self) -> bool:
        for live in self._t.live.values():
            match = live.match
            mover = match.to_move if match is not None and live.record.status == "running" else None
            if mover is not None and live.record.seats[mover].computer:
                return True
        return False
