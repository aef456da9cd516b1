"""The unit of work of the table service: the tables in memory, and the one path of every change.

Every change follows one path (``Tables.run``): decide under the table's lock, commit to
the store, update memory, hand the notices to the adapter (which only queues them:
``Platform.deliver``), let the lock go, acknowledge. So nothing is sent before it is
durable, each table's notices are queued in commit order, and neither the next action nor
the press's answer waits for a message. The engine takes an action and the store commits
it under the table's ``writing`` lock (see ``live``), which readers take to see
committed state only. What is timed (clocks, computer turns) hears of each change
through ``hooks`` (``timers``); this module knows nothing of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
from collections import Counter
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, TypeVar

from core import Card, Match, Rules
from core import events as ev
from storage import (
    OPEN_STATUSES,
    DamagedRow,
    DamagedTable,
    MatchResult,
    PlayerProfile,
    Seat,
    StorageError,
    Store,
    TableRecord,
    VersionConflict,
)

from . import deadlines, results, strangers, telling, viewing
from .clock import Clock, logged
from .config import ServiceConfig
from .errors import (
    LobbyNotOpen,
    MatchOver,
    NoSuchTable,
    NotRunning,
    NotSeated,
    StaleView,
)
from .languages import Languages
from .live import UNREADABLE, Hooks, LiveTable, Unheard, fold, reason_of, seat_of, turn_seconds
from .notices import (
    LobbyClosed,
    Notice,
    Platform,
    TableSetAside,
)
from .views import (
    EndReason,
    HandView,
    LobbyEnd,
    LobbyView,
    Preview,
    TableStatus,
    TableView,
)

log = logging.getLogger(__name__)

T = TypeVar("T")
Decision = tuple[T, list[Notice]]
#: An adapter's acknowledgement of the request behind an action (Telegram stops the pressed
#: button's spinner), run once the action is committed and its notices are queued.
Acknowledge = Callable[[], Awaitable[object]]
RATING_RETRIES = 3


class Tables:
    """The open tables of these bots, loaded when first touched, and how each changes."""

    def __init__(
        self,
        store: Store,
        platforms: Mapping[str, Platform],
        clock: Clock,
        config: ServiceConfig,
        languages: Languages,
        *,
        rng: random.Random,
        match_factory: Callable[[int, Rules], Match] | None,
        alone: bool,
    ) -> None:
        self._store = store
        self._clock = clock
        self._config = config
        self.lang = languages
        #: Other processes act on these bots' tables too (a shared database, and this process
        #: does not lead its bots alone): memory is a cache checked against the store, actions
        #: are ordered across processes, and overdue timed work is claimed.
        self.shared = store.shared and not alone
        self.platforms = dict(platforms)
        self.owners = {name: platform.owner for name, platform in self.platforms.items()}
        if any(owner.partition(":")[0] != name for name, owner in self.owners.items()):
            raise ValueError(f"each platform's owner must start with its name: {self.owners}")
        #: The service's name among the store's clocks: its bots.
        self.name = "+".join(sorted(self.owners.values()))
        self.rng = rng
        self.match_factory = match_factory
        self.live: dict[str, LiveTable] = {}
        self.by_chat: dict[str, str] = {}
        self.loading = asyncio.Lock()
        #: Timed work under way (``TableService.drain`` waits for it).
        self.busy = 0
        #: Cards played since the start, by who played them: "person", "computer", or "clock"
        #: (a 4-seat turn that timed out). Read by ``bots.metrics``.
        self.plays: Counter[str] = Counter()
        self.hooks: Hooks = Unheard()

    def keeps(self, record: TableRecord | DamagedTable) -> bool:
        """Whether the table is one of this service's bots' own: its timed work is theirs."""
        return self.owners.get(record.platform) == record.owner

    def owns(self, record: TableRecord | DamagedTable) -> bool:
        """Whether this service acts on the table: one of its bots' own, or a match between
        strangers where one of its platforms' people sits (its bot may be another's)."""
        return self.keeps(record) or strangers.sits_here(record, self.owners)

    def crossed(self, record: TableRecord) -> bool:
        """Whether other processes act on this match between strangers too (``crossing``)."""
        return strangers.crossed(record, self.owners, shared=self._store.shared)

    def shared_for(self, live: LiveTable) -> bool:
        """Whether other processes may act on this table: memory is checked against the
        store before it is used, and its actions are ordered across processes."""
        return self.shared or self.crossed(live.record)

    def register(self, live: LiveTable) -> None:
        self.live[live.table_id] = live
        self.by_chat[live.record.chat_id] = live.table_id

    def forget(self, live: LiveTable) -> None:
        live.cancel_timer()
        self.live.pop(live.table_id, None)
        if self.by_chat.get(live.record.chat_id) == live.table_id:
            del self.by_chat[live.record.chat_id]

    async def find(self, table_id: str) -> LiveTable | None:
        """The open table ``table_id`` of these bots, loaded when first touched; None if it
        is not open (or not theirs). On a store shared with other processes the copy in
        memory is only a cache: it is checked against the stored row, and brought up to
        date, before it is used."""
        live = self.live.get(table_id)
        if live is not None:
            if self.shared_for(live):
                await self.refresh(live)
                return self.live.get(table_id)
            return live
        try:
            record = await self._store.get_table(table_id)
        except DamagedRow as damaged:
            await self.damaged(damaged)
            return None
        if record is None or not record.is_open or not self.owns(record):
            return None
        return await self.adopt(record)

    async def damaged(self, damaged: DamagedRow) -> None:
        """A row that cannot be read: an open one is set aside (its chat told once)."""
        if damaged.status in OPEN_STATUSES:
            await self.set_aside(damaged.table_id, damaged.chat_id, damaged.reason)

    async def find_chat(self, chat_id: str) -> LiveTable | None:
        """The chat's open table of these bots, as ``_find``."""
        table_id = self.by_chat.get(chat_id)
        if table_id is not None and not self.shared:
            live = await self.find(table_id)
            if live is not None and live.record.chat_id == chat_id:
                return live
        owner = self.owners.get(chat_id.partition(":")[0])
        if owner is None:
            return None
        try:
            record = await self._store.open_table_for_chat(chat_id, owner)
        except DamagedRow as damaged:
            await self.damaged(damaged)
            return None
        if record is None:
            return None
        if record.table_id in self.live:
            return await self.find(record.table_id)
        return await self.adopt(record)

    async def adopt(self, record: TableRecord) -> LiveTable | None:
        """Take a stored open table into memory (once, however many ask at once); a table
        whose events no longer replay is set aside and its chat told, and None returned."""
        async with self.loading:
            live = self.live.get(record.table_id)
            if live is not None:
                return live
            try:
                live = await self.load_live(record)
            except UNREADABLE as error:  # its events do not replay
                await self.set_aside(record.table_id, record.chat_id, reason_of(error))
                return None
            self.register(live)
            self.hooks.adopted(live)
            return live

    async def set_aside(self, table_id: str, chat: str, reason: str) -> None:
        """One damaged table does not stop the others: it is closed, noted with why (``basra
        damaged`` lists it), logged in one line and its chat told, once, by whichever
        process closed it."""
        live = self.live.get(table_id)
        if live is not None:
            self.forget(live)
        if not await self._store.set_aside(table_id, reason):
            return
        log.error("table %s is damaged and was set aside: %s", table_id, reason)
        with contextlib.suppress(StorageError):
            await self.lang.settings_of(chat)
        await self.deliver([TableSetAside(table_id, chat, self.lang.public(chat))])

    async def refresh(self, live: LiveTable) -> None:
        """Bring a cached table up to its stored row: another process may have moved it.
        At a match between strangers that another process serves too (``crossed``), what
        its actions since tell is told here to this service's own people, as that process
        told its own (it could not tell them)."""
        told: list[Notice] = []
        async with live.writing:
            try:
                record = await self._store.get_table(live.table_id)
            except DamagedRow as damaged:  # damaged since it was taken into memory
                self.forget(live)
                await self.damaged(damaged)
                return
            crossed = record is not None and self.crossed(record)
            if record is None or not (record.is_open or crossed):
                self.forget(live)
                return
            before = live.record
            missed: list[ev.Event] | None = None  # the match did not move
            if record.version != before.version:
                try:
                    events = await self._store.load_events(live.table_id)
                    live.match, live.last_auto = fold([e.data for e in events])
                except UNREADABLE as error:  # an event row written since no longer folds
                    await self.set_aside(record.table_id, record.chat_id, reason_of(error))
                    return
                missed = [ev.event_from_dict(e.data) for e in events
                          if e.version > before.version and e.data.get("kind") in ev.EVENT_TYPES]
            moved = record.version != before.version or record.revision != before.revision
            if moved:
                live.update(record)
            if record.chat_id != live.record.chat_id or self.by_chat.get(record.chat_id) != live.table_id:
                self.by_chat[record.chat_id] = live.table_id
            if crossed and (moved or not record.is_open):
                told = self._caught_up(live, before, missed)
                if record.is_open:
                    self.hooks.changed(live)
                else:
                    self.forget(live)
        if told:
            await self.deliver(told, live.record.seats)

    def _caught_up(self, live: LiveTable, before: TableRecord, missed: list[ev.Event] | None) -> list[Notice]:
        match = live.match
        if match is None or (missed is None and not (live.record.warned and not before.warned)):
            return []
        return telling.caught_up(live, self.table_view(live), missed, self.lang, self._clock.now())

    async def closed_table(self, table_id: str) -> tuple[TableRecord, Match | None]:
        """A table no longer open (or never ours), read from the store."""
        record = await self._store.get_table(table_id)
        if record is None or not self.owns(record):
            raise NoSuchTable(f"no table {table_id!r}")
        if record.version == 0:
            return record, None
        try:
            match, _ = fold([e.data for e in await self._store.load_events(table_id)])
        except UNREADABLE as error:  # a closed table (one set aside, say) whose log does not fold
            raise NoSuchTable(f"table {table_id} cannot be read: {reason_of(error)}") from None
        return record, match

    async def open_or_closed(self, table_id: str) -> LiveTable:
        live = await self.find(table_id)
        if live is not None:
            return live
        record, _ = await self.closed_table(table_id)
        if record.status in ("lobby", "running"):  # open, but its events do not replay
            raise LobbyNotOpen(f"table {table_id} is set aside")
        if record.version == 0:
            raise LobbyNotOpen(f"lobby {table_id} is {record.status}")
        raise MatchOver(f"match {table_id} is {record.status}")

    def new_match(self, players: int, rules: Rules) -> Match:
        """A fresh match: shuffled from a seed the service draws, first dealer by lot
        (``match_factory`` replaces this: tests and replays give their own decks)."""
        if self.match_factory is not None:
            return self.match_factory(players, rules)
        return Match.new(players, rules, seed=self.rng.getrandbits(63), dealer=self.rng.randrange(players))

    def turn_seconds(self, record: TableRecord) -> int:
        return turn_seconds(record, self._config.turn_seconds)

    def lobby_view(self, live: LiveTable) -> LobbyView:
        return viewing.lobby_view(live.record, live.rules, self.turn_seconds(live.record))

    def table_view(self, live: LiveTable) -> TableView:
        """The public view, made once per state and second of clock (views are immutable)."""
        assert live.match is not None
        now = self._clock.now()
        record = live.record
        left = math.ceil(record.deadline - now) if record.deadline is not None else None
        key = (record.revision, record.version, live.last_auto, left)
        if live.view is not None and live.view_key == key:
            return live.view
        view = viewing.table_view(
            record, live.match, live.rules, now, self.turn_seconds(record), last_auto=live.last_auto
        )
        live.view, live.view_key = view, key
        return view

    def hand_view(
        self, live: LiveTable, seat: int, table: TableView | None = None, chosen: Preview | None = None
    ) -> HandView:
        assert live.match is not None
        player_id = live.record.seats[seat].player_id
        assert player_id is not None
        return viewing.hand_view(table or self.table_view(live), live.match, seat, player_id, chosen)

    def match_notices(self, live: LiveTable, events: Sequence[ev.Event] = ()) -> list[Notice]:
        """Everything one match action tells (``telling.match_notices``)."""
        return telling.match_notices(live, self.table_view(live), events, self.lang)

    async def run(
        self,
        live: LiveTable,
        decide: Callable[[], Awaitable[Decision[T]]],
        committed: Acknowledge | None = None,
    ) -> T:
        """Decide and commit under the table lock and hand the notices over, in commit
        order; ``committed`` runs once the lock is let go, waiting for no message.

        On a store shared with other processes the lock is also held across them
        (``Store.hold``), and the table is read again under it, so each decision is made
        on the latest state whichever process took the last action."""
        shared = self.shared_for(live)
        held = self._store.hold(live.table_id) if shared else contextlib.nullcontext()
        async with live.lock, held:
            if shared:
                await self.refresh(live)
                await self.lang.settings_again(live.record.chat_id, self._clock.now())
            value, notices = await decide()
            await self.deliver(notices, live.record.seats)
        if committed is not None:
            await logged(committed, "acknowledging an action failed", log)
        return value

    async def deliver(self, notices: Sequence[Notice], seats: Sequence[Seat] | None = None) -> None:
        """Hand one action's notices to the platforms they go to (``strangers.shares``; the
        ``seats`` of a stranger match say whose chats, when it has left memory)."""
        if seats is None:
            live = self.live.get(notices[0].table_id) if notices else None
            seats = live.record.seats if live is not None else ()
        for name, share in strangers.shares(notices, seats, lambda p: self.lang.of(p, None)).items():
            platform = self.platforms.get(name)
            try:
                if platform is not None:
                    await platform.deliver(share)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("delivering %d notices of table %s failed", len(share), share[0].table_id)

    async def reload(self, live: LiveTable) -> None:
        """Bring memory back to what the store holds (after a refused or failed write)."""
        record = await self._store.get_table(live.table_id)
        if record is None:
            self.forget(live)
            return
        live.update(record)
        if record.version:
            live.match, live.last_auto = fold([e.data for e in await self._store.load_events(live.table_id)])
        if not record.is_open:
            self.forget(live)

    async def save(self, live: LiveTable, change: Callable[[TableRecord], TableRecord]) -> TableRecord:
        """Write a row change that is not a match action (a lobby's seats, a warning given,
        a status). Only the table's actions write its row, one at a time (the table's lock,
        and ``Store.hold`` across processes), so a refusal means memory was behind the
        store: it is read again and the error goes to the caller."""
        async with live.writing:
            now = self._clock.now()
            changed = deadlines.with_due(live.record, change(live.record), live.match, now, self._config)
            try:
                stored = await self._store.update_table(changed)
            except StorageError:
                await self.reload(live)
                raise
            live.update(stored)
            return stored

    async def commit_match(
        self,
        live: LiveTable,
        events: list[dict[str, Any]],
        *,
        end: tuple[EndReason, int | None, int | None] | None = None,
        auto: bool = False,
    ) -> None:
        """Append a match action's events with the row's new state (and the result, if it ended).

        The engine match has already taken the action, under ``live.writing``
        (held by the caller until this returns); if the store refuses, memory
        is rebuilt from the store and the error goes to the caller.
        """
        match = live.match
        assert match is not None and live.writing.locked()
        record = live.record
        status = record.status
        if end is None and match.over:
            end = ("target", match.winner, None)
        if end is not None:
            status = "expired" if end[0] == "expired" else "finished"
        for attempt in range(RATING_RETRIES):
            summary: dict[str, Any] | None = None
            result: MatchResult | None = None
            if end is not None:
                before = await self.profiles(record) if results.rated(record) else {}
                summary, result = results.finish(record, match, *end, before, self._clock.now())
            update: dict[str, Any] = {"status": status, "warned": False, "result": summary}
            changed = record.model_copy(update=update)
            now = self._clock.now()
            deadline = deadlines.next_deadline(changed, match, now, self._config)
            changed = changed.model_copy(update={"deadline": deadline})
            due = deadlines.due_at(changed, match, now, self._config)
            changed = changed.model_copy(update={"due_at": due})
            try:
                stored = await self._store.append_events(
                    record.table_id, record.version, events, table=changed, result=result
                )
            except VersionConflict:
                if result is not None and attempt + 1 < RATING_RETRIES:
                    current = await self._store.get_table(record.table_id)
                    if current is not None and current.revision == record.revision:
                        continue  # a rating moved under us (another match finished): read it again
                await self.reload(live)
                raise StaleView(f"table {record.table_id} moved on") from None
            except StorageError:
                await self.reload(live)
                raise
            live.update(stored)
            live.last_auto = auto
            if not stored.is_open:
                self.forget(live)
            else:
                self.hooks.changed(live)
            return

    async def profiles(self, record: TableRecord) -> dict[str, PlayerProfile | None]:
        return {
            s.player_id: await self._store.get_player(s.player_id)
            for s in record.seats
            if s.player_id is not None
        }

    def play_events(self, match: Match, seat: int, card: Card, plan: int) -> list[dict[str, Any]]:
        return [ev.to_dict(e) for e in match.play(seat, card, plan)]

    async def end(self, live: LiveTable, reason: EndReason, seat: int | None) -> list[Notice]:
        """Resign ``seat`` (its side loses) or expire the match; returns the notices."""
        match = live.match
        if live.record.status != "running" or match is None:
            raise MatchOver()
        winner = None if seat is None else 1 - seat % 2
        kind = "expired" if reason == "expired" else "resigned"
        event: dict[str, Any] = {"kind": kind, "reason": reason}
        if seat is not None:
            event["seat"] = seat
        async with live.writing:
            await self.commit_match(live, [event], end=(reason, winner, seat))
        await strangers.note_abandon(self._store, live.record, seat, reason, self._clock.now())
        return self.match_notices(live)

    async def close_lobby(self, live: LiveTable, reason: LobbyEnd) -> list[Notice]:
        status: TableStatus = "cancelled" if reason == "cancelled" else "expired"
        await self.save(live, lambda r: r.model_copy(update={"status": status, "deadline": None}))
        self.forget(live)
        view = viewing.lobby_view(live.record, live.rules, self.turn_seconds(live.record))
        return [LobbyClosed(view, reason, self.lang.public(live.record.chat_id))]

    async def load_live(self, record: TableRecord) -> LiveTable:
        match, last_auto = None, False
        if record.version:
            match, last_auto = fold([e.data for e in await self._store.load_events(record.table_id)])
        for seat in record.seats:
            if seat.player_id is not None:
                await self.lang.know_player(seat.player_id)
        await self.lang.settings_of(record.chat_id)
        return LiveTable(record, match, last_auto=last_auto)

    async def public_table(self, table_id: str) -> TableView:
        """The public table of a running or finished match."""
        live = await self.find(table_id)
        if live is not None and live.match is not None:
            async with live.writing:
                return self.table_view(live)
        record, match = await self.closed_table(table_id)
        if match is None:
            raise NotRunning()
        return self.table_view(LiveTable(record, match))

    async def seated(self, table_id: str, player_id: str, *, decided_under_hold: bool = False
                     ) -> tuple[LiveTable, int]:
        """The table running ``table_id`` and ``player_id``'s seat at it. ``decided_under_hold``:
        the action is decided by ``run``, which on a shared store reads the table again under
        its hold, so a running match in memory (whose seats no longer change) is not read here
        first as well."""
        live = self.live.get(table_id) if decided_under_hold else None
        if live is None or live.match is None or live.record.status != "running":
            live = await self.find(table_id)
        if live is None:
            record, match = await self.closed_table(table_id)
            closed = LiveTable(record, match)
            if match is None:
                raise NotRunning()
            seat = seat_of(record, player_id)
            if seat is None:
                raise NotSeated(fresh=self.table_view(closed))
            raise MatchOver(fresh=self.hand_view(closed, seat))
        if live.record.status == "lobby" or live.match is None:
            raise NotRunning(fresh=self.lobby_view(live))
        seat = seat_of(live.record, player_id)
        if seat is None:
            raise NotSeated(fresh=self.table_view(live))
        return live, seat

