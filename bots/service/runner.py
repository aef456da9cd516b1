"""The machinery under ``TableService``: the table registry, commits, deliveries, timers.

Every change follows one path: decide under the table's lock, commit to the
store, update memory, hand the notices to the adapter (which only queues
them: ``Platform.deliver``), let the lock go, acknowledge. So nothing is
sent before it is durable, each table's notices are queued in commit order,
and neither the next action nor the press's answer waits for a message. The engine takes an
action and the store commits it under the table's ``writing`` lock (see
``live``), which readers take to see committed state only.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import os
import random
import socket
import uuid
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from core import BasraError, Card, Match, Rules
from core import events as ev
from core.ai import LEVELS
from storage import (
    OPEN_STATUSES,
    ChatSettings,
    DamagedRow,
    DamagedTable,
    MatchResult,
    PlayerProfile,
    StorageError,
    Store,
    TableRecord,
    VersionConflict,
)

from ..i18n import resolve_language
from . import results, viewing
from .clock import Clock, SystemClock, Timer
from .config import ServiceConfig
from .errors import MatchOver, NoSuchTable, StaleView
from .live import LiveTable, capacity, solo, turn_seconds
from .notices import (
    ClockWarning,
    HandUpdated,
    LobbyClosed,
    MatchEnded,
    Notice,
    Platform,
    RoundEnded,
    TableSetAside,
    TableUpdated,
    YourTurn,
)
from .thinking import Thinker, default_processes
from .views import EndReason, HandView, LobbyEnd, Preview, TableStatus, TableView

log = logging.getLogger(__name__)
T = TypeVar("T")
Decision = tuple[T, list[Notice]]
#: An adapter's acknowledgement of the request behind an action (Telegram stops the pressed
#: button's spinner), run once the action is committed and its notices are queued.
Acknowledge = Callable[[], Awaitable[object]]

#: Events the service adds to a match's log next to the engine's own.
SERVICE_KINDS = frozenset({"resigned", "expired", "auto_played"})
CORE_KINDS = frozenset(ev.EVENT_TYPES)
RATING_RETRIES = 3


def fold(events: Sequence[Mapping[str, Any]]) -> tuple[Match, bool]:
    """The match a stored log folds to, and whether its last play was made by the clock."""
    last_auto, previous = False, None
    for event in events:
        if event.get("kind") == "card_played":
            last_auto = previous == "auto_played"
        previous = event.get("kind")
    return Match.from_events([dict(e) for e in events if e.get("kind") in CORE_KINDS]), last_auto


class Runner:
    """State and plumbing shared by the public methods of ``TableService``."""

    def __init__(
        self,
        store: Store,
        platforms: Sequence[Platform] | Mapping[str, Platform],
        *,
        clock: Clock | None = None,
        config: ServiceConfig | None = None,
        rng: random.Random | None = None,
        match_factory: Callable[[int, Rules], Match] | None = None,
        alone: bool = False,
    ) -> None:
        self._store = store
        #: Other processes act on these bots' tables too (a shared database, and this process
        #: does not lead its bots alone): memory is a cache checked against the store, actions
        #: are ordered across processes, and overdue timed work is claimed.
        self._shared = store.shared and not alone
        self._match_factory = match_factory
        if isinstance(platforms, Mapping):
            self._platforms: dict[str, Platform] = dict(platforms)
        else:
            self._platforms = {p.name: p for p in platforms}
        if not self._platforms:
            raise ValueError("a table service needs at least one platform")
        self._clock: Clock = clock if clock is not None else SystemClock()
        self._config = config if config is not None else ServiceConfig()
        self._rng = rng if rng is not None else random.SystemRandom()
        self._owners = {name: platform.owner for name, platform in self._platforms.items()}
        if any(owner.partition(":")[0] != name for name, owner in self._owners.items()):
            raise ValueError(f"each platform's owner must start with its name: {self._owners}")
        self._name = "+".join(sorted(self._owners.values()))
        self._tables: dict[str, LiveTable] = {}
        self._by_chat: dict[str, str] = {}
        self._chat_settings: dict[str, ChatSettings | None] = {}
        self._chosen_language: dict[str, str | None] = {}
        self._platform_language: dict[str, str] = {}
        self._busy = 0
        self._loading = asyncio.Lock()
        #: Wake-ups of stored tables not loaded yet, at the moment each has timed work.
        self._dormant: dict[str, Timer] = {}
        #: Tables to draw again after a stop that may not have delivered everything
        #: (``TableService.start``), the latest written first.
        self._backlog: deque[str] = deque()
        #: Who claims timed work on a shared store: this process, unique among its peers.
        self._holder = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        #: Cards played since the start, by who played them: "person", "computer", or "clock"
        #: (a 4-seat turn that timed out). Read by ``bots.metrics``.
        self.plays: Counter[str] = Counter()
        #: Where computer seats think: worker processes, or a thread (see ``thinking``).
        self._thinker = Thinker(
            default_processes()
            if self._config.computer_processes is None
            else self._config.computer_processes
        )

    # -- registry --------------------------------------------------------------

    def _owns(self, record: TableRecord | DamagedTable) -> bool:
        """Whether the table is one of this service's bots' own."""
        return self._owners.get(record.platform) == record.owner

    def _register(self, live: LiveTable) -> None:
        self._tables[live.table_id] = live
        self._by_chat[live.record.chat_id] = live.table_id

    def _forget(self, live: LiveTable) -> None:
        live.cancel_timer()
        self._tables.pop(live.table_id, None)
        if self._by_chat.get(live.record.chat_id) == live.table_id:
            del self._by_chat[live.record.chat_id]

    async def _find(self, table_id: str) -> LiveTable | None:
        """The open table ``table_id`` of these bots, loaded when first touched; None if it
        is not open (or not theirs). On a store shared with other processes the copy in
        memory is only a cache: it is checked against the stored row, and brought up to
        date, before it is used."""
        live = self._tables.get(table_id)
        if live is not None:
            if self._shared:
                await self._refresh(live)
                return self._tables.get(table_id)
            return live
        try:
            record = await self._store.get_table(table_id)
        except DamagedRow as damaged:
            await self._damaged(damaged)
            return None
        if record is None or not record.is_open or not self._owns(record):
            return None
        return await self._adopt(record)

    async def _damaged(self, damaged: DamagedRow) -> None:
        """A row that cannot be read: an open one is set aside (its chat told once)."""
        if damaged.status in OPEN_STATUSES:
            await self._set_aside(damaged.table_id, damaged.chat_id, damaged.reason)

    async def _find_chat(self, chat_id: str) -> LiveTable | None:
        """The chat's open table of these bots, as ``_find``."""
        table_id = self._by_chat.get(chat_id)
        if table_id is not None and not self._shared:
            live = await self._find(table_id)
            if live is not None and live.record.chat_id == chat_id:
                return live
        owner = self._owners.get(chat_id.partition(":")[0])
        if owner is None:
            return None
        try:
            record = await self._store.open_table_for_chat(chat_id, owner)
        except DamagedRow as damaged:
            await self._damaged(damaged)
            return None
        if record is None:
            return None
        if record.table_id in self._tables:
            return await self._find(record.table_id)
        return await self._adopt(record)

    async def _adopt(self, record: TableRecord) -> LiveTable | None:
        """Take a stored open table into memory (once, however many ask at once); a table
        whose events no longer replay is set aside and its chat told, and None returned."""
        async with self._loading:
            live = self._tables.get(record.table_id)
            if live is not None:
                return live
            try:
                live = await self._load_live(record)
            except (BasraError, ValueError, TypeError, KeyError) as error:  # its events do not replay
                await self._set_aside(record.table_id, record.chat_id, str(error).splitlines()[0][:200])
                return None
            self._register(live)
            dormant = self._dormant.pop(record.table_id, None)
            if dormant is not None:
                dormant.cancel()
            if not self._shared:
                # One process: its own timers are the only ones. Shared, a table's timed
                # work is armed by the process that made it due, or claimed when overdue.
                self._arm(live)
            return live

    async def _set_aside(self, table_id: str, chat: str, reason: str) -> None:
        """One damaged table does not stop the others: it is closed, and its chat told once."""
        log.error("table %s is damaged and was set aside: %s", table_id, reason)
        await self._store.set_aside(table_id)
        with contextlib.suppress(StorageError):
            await self._settings_of(chat)
        await self._deliver([TableSetAside(table_id, chat, self._public_language(chat))])

    async def _refresh(self, live: LiveTable) -> None:
        """Bring a cached table up to its stored row: another process may have moved it."""
        async with live.writing:
            record = await self._store.get_table(live.table_id)
            if record is None or not record.is_open:
                self._forget(live)
                return
            if record.version != live.record.version:
                events = await self._store.load_events(live.table_id)
                live.match, live.last_auto = fold([e.data for e in events])
            if record.version != live.record.version or record.revision != live.record.revision:
                live.update(record)
            if record.chat_id != live.record.chat_id or self._by_chat.get(record.chat_id) != live.table_id:
                self._by_chat[record.chat_id] = live.table_id

    async def _closed_table(self, table_id: str) -> tuple[TableRecord, Match | None]:
        """A table no longer open (or never ours), read from the store."""
        record = await self._store.get_table(table_id)
        if record is None or not self._owns(record):
            raise NoSuchTable(f"no table {table_id!r}")
        if record.version == 0:
            return record, None
        match, _ = fold([e.data for e in await self._store.load_events(table_id)])
        return record, match

    # -- settings and languages -------------------------------------------------

    async def _settings_again(self, chat_id: str) -> None:
        """Read a chat's settings afresh (another process may have changed them)."""
        self._chat_settings[chat_id] = await self._store.find_chat_settings(chat_id)

    async def _settings_of(self, chat_id: str) -> ChatSettings | None:
        if chat_id not in self._chat_settings:
            self._chat_settings[chat_id] = await self._store.find_chat_settings(chat_id)
        return self._chat_settings[chat_id]

    def _chat_language(self, chat_id: str) -> str | None:
        settings = self._chat_settings.get(chat_id)
        return settings.language if settings is not None else None

    def _public_language(self, chat_id: str) -> str:
        """What a chat's public messages speak: its own setting; in a person's private chat
        (a practice there), that person's language; else the default. Never the presser's."""
        if chat_id in self._chosen_language or chat_id in self._platform_language:
            return self._language_of(chat_id, chat_id)
        return resolve_language(self._chat_language(chat_id), self._config.language)

    def _language_of(self, player_id: str, chat_id: str | None) -> str:
        return resolve_language(
            self._chosen_language.get(player_id),
            self._chat_language(chat_id) if chat_id else None,
            self._platform_language.get(player_id),
            self._config.language,
        )

    async def _know_player(self, player_id: str) -> None:
        """Their stored languages: the chosen one, and what their app last reported (so a
        restarted service speaks to them as before, before they press anything)."""
        if player_id not in self._chosen_language:
            profile = await self._store.get_player(player_id)
            self._chosen_language[player_id] = profile.language if profile else None
            if profile is not None and profile.platform_language:
                self._platform_language.setdefault(player_id, profile.platform_language)

    def _new_match(self, players: int, rules: Rules) -> Match:
        """A fresh match: shuffled from a seed the service draws, first dealer by lot.

        ``match_factory`` replaces this (tests and replays give their own decks).
        """
        if self._match_factory is not None:
            return self._match_factory(players, rules)
        return Match.new(players, rules, seed=self._rng.getrandbits(63), dealer=self._rng.randrange(players))

    def _turn_seconds(self, record: TableRecord) -> int:
        return turn_seconds(record, self._config.turn_seconds)

    # -- views -----------------------------------------------------------------

    def _table_view(self, live: LiveTable) -> TableView:
        """The public view, made once per state and second of clock (views are immutable)."""
        assert live.match is not None
        now = self._clock.now()
        record = live.record
        left = math.ceil(record.deadline - now) if record.deadline is not None else None
        key = (record.revision, record.version, live.last_auto, left)
        if live.view is not None and live.view_key == key:
            return live.view
        view = viewing.table_view(
            record, live.match, live.rules, now, self._turn_seconds(record), last_auto=live.last_auto
        )
        live.view, live.view_key = view, key
        return view

    def _hand_view(
        self, live: LiveTable, seat: int, table: TableView | None = None, chosen: Preview | None = None
    ) -> HandView:
        assert live.match is not None
        player_id = live.record.seats[seat].player_id
        assert player_id is not None
        return viewing.hand_view(table or self._table_view(live), live.match, seat, player_id, chosen)

    def _match_notices(self, live: LiveTable, events: Sequence[ev.Event] = ()) -> list[Notice]:
        """Everything one match action tells: the table, round results, the match result,
        hands, the turn.

        A play that ends a round first shows that round's table as the play left
        it (its ``round_no``, so adapters edit that round's message), then the
        round's result, then the next round's table.
        """
        match, record = live.match, live.record
        assert match is not None
        notices: list[Notice] = []
        public = self._public_language(record.chat_id)
        table = self._table_view(live)
        shown = False
        for event in events:
            if isinstance(event, ev.RoundScored):
                close = viewing.round_close(events, event.round_no)
                if event.round_no == table.round_no:  # the match ended with this round
                    table = replace(table, round_close=close)
                    notices.append(TableUpdated(table, public))
                    shown = True
                else:
                    closed = viewing.closed_round_view(table, match, close, last_auto=live.last_auto)
                    notices.append(TableUpdated(closed, public))
                rounds = viewing.round_views(record, match, table.seats)
                notices.append(RoundEnded(rounds[event.round_no - 1], public))
        if not shown:
            notices.append(TableUpdated(table, public))
        if record.status != "running":
            notices.append(MatchEnded(viewing.match_result_view(record, match, table.seats), public))
        hands = {}
        for seat, info in enumerate(record.seats):
            if info.player_id is not None:
                hands[seat] = self._hand_view(live, seat, table)
                notices.append(HandUpdated(hands[seat], self._language_of(info.player_id, record.chat_id)))
        mover = table.to_move
        if mover is not None and mover in hands:
            pid = hands[mover].player_id
            notices.append(YourTurn(hands[mover], self._language_of(pid, record.chat_id)))
        return notices

    # -- the one path of every change ---------------------------------------------

    async def _run(
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
        shared = self._shared
        held = self._store.hold(live.table_id) if shared else contextlib.nullcontext()
        async with live.lock, held:
            if shared:
                await self._refresh(live)
                await self._settings_again(live.record.chat_id)
            value, notices = await decide()
            await self._deliver(notices)
        if committed is not None:
            await _acknowledged(committed)
        return value

    async def _deliver(self, notices: Sequence[Notice]) -> None:
        if not notices:
            return
        platform = self._platforms.get(notices[0].chat_id.partition(":")[0])
        if platform is None:
            return
        try:
            await platform.deliver(notices)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("delivering %d notices of table %s failed", len(notices), notices[0].table_id)

    async def _reload(self, live: LiveTable) -> None:
        """Bring memory back to what the store holds (after a refused or failed write)."""
        record = await self._store.get_table(live.table_id)
        if record is None:
            self._forget(live)
            return
        live.update(record)
        if record.version:
            live.match, live.last_auto = fold([e.data for e in await self._store.load_events(live.table_id)])
        if not record.is_open:
            self._forget(live)

    async def _save(self, live: LiveTable, change: Callable[[TableRecord], TableRecord]) -> TableRecord:
        """Write a row change that is not a match action (a lobby's seats, a warning given,
        a status). Only the table's actions write its row, one at a time (the table's lock,
        and ``Store.hold`` across processes), so a refusal means memory was behind the
        store: it is read again and the error goes to the caller."""
        async with live.writing:
            changed = self._with_due(live.record, change(live.record), live.match)
            try:
                stored = await self._store.update_table(changed)
            except StorageError:
                await self._reload(live)
                raise
            live.update(stored)
            return stored

    def _with_due(self, before: TableRecord, after: TableRecord, match: Match | None) -> TableRecord:
        """``after`` with its ``due_at`` made right for a change from ``before``: recomputed
        when the change moved a clock or the state, kept otherwise."""
        if (
            after.deadline == before.deadline
            and after.warned == before.warned
            and after.status == before.status
            and after.version == before.version
            and after.seats == before.seats
        ):
            return after
        return after.model_copy(update={"due_at": self._due_at(after, match)})

    def _due_at(self, record: TableRecord, match: Match | None) -> float | None:
        """When the table next has timed work (what ``_arm`` would wait for), stored so that
        a restarted process, or another one, finds it without loading the table."""
        if record.status == "lobby":
            return record.deadline
        if record.status != "running" or match is None or match.to_move is None:
            return None
        if record.seats[match.to_move].computer is not None:
            return self._clock.now() + self._config.computer_delay
        if record.deadline is None:
            return None
        warn_at = record.deadline - self._config.warning_seconds
        if self._warns(record) and warn_at > self._clock.now():
            return warn_at
        return record.deadline

    def _warns(self, record: TableRecord) -> bool:
        """Whether the turn clock's warning is still to come."""
        return not solo(record) and not record.warned and self._config.warning_seconds > 0

    # -- match actions -----------------------------------------------------------

    def _next_deadline(self, record: TableRecord, match: Match) -> float | None:
        now = self._clock.now()
        if record.status == "lobby":
            return now + self._config.lobby_idle_seconds
        if record.status != "running" or match.to_move is None:
            return None
        if solo(record):
            return now + self._config.practice_idle_seconds
        if record.seats[match.to_move].computer is not None:
            return None
        return now + self._turn_seconds(record)

    async def _commit_match(
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
                before = await self._profiles(record) if results.rated(record) else {}
                summary, result = results.finish(record, match, *end, before, self._clock.now())
            update: dict[str, Any] = {"status": status, "warned": False, "result": summary}
            changed = record.model_copy(update=update)
            changed = changed.model_copy(update={"deadline": self._next_deadline(changed, match)})
            changed = changed.model_copy(update={"due_at": self._due_at(changed, match)})
            try:
                stored = await self._store.append_events(
                    record.table_id, record.version, events, table=changed, result=result
                )
            except VersionConflict:
                if result is not None and attempt + 1 < RATING_RETRIES:
                    current = await self._store.get_table(record.table_id)
                    if current is not None and current.revision == record.revision:
                        continue  # a rating moved under us (another match finished): read it again
                await self._reload(live)
                raise StaleView(f"table {record.table_id} moved on") from None
            except StorageError:
                await self._reload(live)
                raise
            live.update(stored)
            live.last_auto = auto
            if not stored.is_open:
                self._forget(live)
            else:
                self._arm(live)
            return

    async def _profiles(self, record: TableRecord) -> dict[str, PlayerProfile | None]:
        return {
            s.player_id: await self._store.get_player(s.player_id)
            for s in record.seats
            if s.player_id is not None
        }

    def _play_events(self, match: Match, seat: int, card: Card, plan: int) -> list[dict[str, Any]]:
        return [ev.to_dict(e) for e in match.play(seat, card, plan)]

    async def _end(self, live: LiveTable, reason: EndReason, seat: int | None) -> list[Notice]:
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
            await self._commit_match(live, [event], end=(reason, winner, seat))
        return self._match_notices(live)

    # -- timers ----------------------------------------------------------------------

    def _arm(self, live: LiveTable) -> None:
        """Schedule the table's next timed step from its state: lobby expiry, computer
        turn, clock warning, timeout or practice expiry."""
        live.cancel_timer()
        record, match = live.record, live.match
        table_id, version, revision = record.table_id, record.version, record.revision
        now = self._clock.now()
        if record.status == "lobby" and record.deadline is not None:
            live.timer = self._clock.call_at(
                record.deadline, lambda: self._on_lobby_timer(table_id, revision)
            )
            return
        if record.status != "running" or match is None or match.to_move is None:
            return
        if record.seats[match.to_move].computer is not None:
            when = now + self._config.computer_delay
            if record.due_at is not None:
                when = min(when, record.due_at)  # after a restart, or taken over: it is due
            live.timer = self._clock.call_at(when, lambda: self._on_computer_turn(table_id, version))
            self._thinker.warm()
            return
        deadline = record.deadline
        if deadline is None:
            return
        warn_at = deadline - self._config.warning_seconds
        if self._warns(record) and warn_at > now:
            live.timer = self._clock.call_at(warn_at, lambda: self._on_warning(table_id, version))
        else:
            live.timer = self._clock.call_at(deadline, lambda: self._on_deadline(table_id, version))

    def _sleep_until_due(self, due: Sequence[tuple[str, float]]) -> None:
        """Arm a wake-up for each stored table not loaded yet, at the moment it has timed
        work: it is loaded then (or when first touched, whichever comes first)."""
        for table_id, when in due:
            if table_id in self._tables or table_id in self._dormant:
                continue
            self._dormant[table_id] = self._clock.call_at(when, functools.partial(self._wake, table_id))

    async def _wake(self, table_id: str) -> None:
        self._dormant.pop(table_id, None)
        self._busy += 1
        try:
            await self._find(table_id)  # loading it arms its clock, which is due
        except StorageError:
            log.exception("table %s could not be loaded for its timed work", table_id)
        finally:
            self._busy -= 1

    async def _take_over(self) -> None:
        """On a shared store: claim the timed work that is overdue (the process that armed
        it died, or is stuck) and arm it here; each claimed step still happens once, since
        it is decided under ``Store.hold`` on the latest state and refused by its version."""
        now = self._clock.now()
        owners = sorted(self._owners.values())
        claimed = await self._store.claim_due(
            owners, now - self._config.takeover_seconds, self._holder, self._config.claim_seconds
        )
        for table_id in claimed:
            live = await self._find(table_id)
            if live is not None:
                if live.record.due_at is not None and live.record.due_at > now:
                    continue  # it moved on meanwhile
                self._arm(live)

    def _current(self, table_id: str, version: int) -> LiveTable | None:
        live = self._tables.get(table_id)
        if live is None or live.record.version != version or live.record.status != "running":
            return None
        return live

    async def _timed(
        self,
        table_id: str,
        work: Callable[[LiveTable], Awaitable[list[Notice]]],
        still: Callable[[LiveTable], bool],
    ) -> None:
        live = self._tables.get(table_id)
        if live is None:
            return
        self._busy += 1
        try:
            if self._shared and not await self._store.claim(
                table_id, self._clock.now(), self._holder, self._config.claim_seconds
            ):
                return  # another process is on it

            async def decide() -> Decision[None]:
                if self._tables.get(table_id) is not live or not still(live):
                    return None, []
                return None, await work(live)

            await self._run(live, decide)
        finally:
            self._busy -= 1

    async def _on_lobby_timer(self, table_id: str, revision: int) -> None:
        async def work(live: LiveTable) -> list[Notice]:
            if live.record.deadline is not None and live.record.deadline > self._clock.now():
                self._arm(live)
                return []
            return await self._close_lobby(live, "expired")

        await self._timed(table_id, work, lambda live: live.record.status == "lobby")

    async def _on_computer_turn(self, table_id: str, version: int) -> None:
        async def work(live: LiveTable) -> list[Notice]:
            match = live.match
            assert match is not None and match.to_move is not None
            seat = match.to_move
            level = live.record.seats[seat].computer or "beginner"
            card, plan = await self._computer_choice(live, seat, level)
            async with live.writing:
                events = self._play_events(match, seat, card, plan)
                await self._commit_match(live, events)
            self.plays["computer"] += 1
            return self._match_notices(live, [ev.event_from_dict(e) for e in events])

        await self._timed(table_id, work, lambda live: self._current(table_id, version) is live)

    async def _computer_choice(self, live: LiveTable, seat: int, level: str) -> tuple[Card, int]:
        """The computer's play for ``seat``. It thinks off the event loop (``thinking``: the
        expert takes up to about 150 ms): meanwhile the loop keeps every other table's
        presses and deliveries going, and a write planned against a flood limit leaves when
        planned. The table's lock is held throughout, so the match does not change under it."""
        assert live.match is not None
        level = level if level in LEVELS else "beginner"
        seed = f"{live.table_id}:{live.record.version}"
        return await self._thinker.choose(level, seed, live.match.view(seat))

    async def _on_warning(self, table_id: str, version: int) -> None:
        async def work(live: LiveTable) -> list[Notice]:
            record = live.record
            assert live.match is not None and live.match.to_move is not None and record.deadline is not None
            await self._save(live, lambda r: r.model_copy(update={"warned": True}))
            self._arm(live)
            seat = live.match.to_move
            hand = self._hand_view(live, seat)
            left = max(0, round(record.deadline - self._clock.now()))
            return [ClockWarning(hand, left, self._language_of(hand.player_id, record.chat_id))]

        await self._timed(table_id, work, lambda live: self._current(table_id, version) is live)

    async def _on_deadline(self, table_id: str, version: int) -> None:
        async def work(live: LiveTable) -> list[Notice]:
            record, match = live.record, live.match
            assert match is not None and match.to_move is not None
            if record.deadline is None or record.deadline > self._clock.now():
                self._arm(live)
                return []
            seat = match.to_move
            if solo(record):
                return await self._end(live, "expired", None)
            if capacity(record) == 2:
                return await self._end(live, "timeout", seat)
            card, plan = await self._computer_choice(live, seat, "beginner")
            events = [{"kind": "auto_played", "seat": seat, "reason": "timeout"}]
            async with live.writing:
                played = self._play_events(match, seat, card, plan)
                await self._commit_match(live, events + played, auto=True)
            self.plays["clock"] += 1
            return self._match_notices(live, [ev.event_from_dict(e) for e in played])

        await self._timed(table_id, work, lambda live: self._current(table_id, version) is live)

    async def _close_lobby(self, live: LiveTable, reason: LobbyEnd) -> list[Notice]:
        status: TableStatus = "cancelled" if reason == "cancelled" else "expired"
        await self._save(live, lambda r: r.model_copy(update={"status": status, "deadline": None}))
        self._forget(live)
        view = viewing.lobby_view(live.record, live.rules, self._turn_seconds(live.record))
        return [LobbyClosed(view, reason, self._public_language(live.record.chat_id))]

    async def _load_live(self, record: TableRecord) -> LiveTable:
        match, last_auto = None, False
        if record.version:
            match, last_auto = fold([e.data for e in await self._store.load_events(record.table_id)])
        for seat in record.seats:
            if seat.player_id is not None:
                await self._know_player(seat.player_id)
        await self._settings_of(record.chat_id)
        return LiveTable(record, match, last_auto=last_auto)


async def _acknowledged(committed: Acknowledge) -> None:
    try:
        await committed()
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("acknowledging an action failed")
