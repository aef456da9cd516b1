"""The table service: lobbies, matches, clocks, computer seats, results, settings.

Written once for both platforms. An adapter turns a chat update into one call
here and renders what comes back (a view, or a ``ServiceError``); everything
the service has to say later (the table moved, your turn, a clock warning, a
round or match result) reaches the adapter's ``Platform.deliver`` as notices.

Every accepted action is committed to the store before any notice about it is
delivered. A match's event log is the truth; each table's ``version`` grows
with every accepted action, buttons carry it, and a press from an outdated view
is refused with a fresh one. One lock per table orders its actions: a double
pressed confirm plays once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Any, Self

from core import BasraError, Card, Rules
from core import events as ev
from core.ai import LEVELS, player
from core.ai.reasons import CARD_FIELDS
from storage import (
    ChatSettings,
    DamagedRow,
    DamagedTable,
    OpenTableExists,
    Seat,
    StorageError,
    TableRecord,
)

from ..i18n import resolve_language
from ..i18n.lang import supported_language
from . import lobby as seats_
from . import viewing
from .clock import ManualClock, SystemClock, Timer
from .errors import (
    BadInput,
    BadSetting,
    CardNotInHand,
    LobbyNotOpen,
    MatchOver,
    MustCapture,
    NoHint,
    NoOpenTable,
    NoSuchPlan,
    NotCreator,
    NotRunning,
    NotSeated,
    NotYourTurn,
    PracticeTable,
    StaleView,
    TableExists,
    UnknownLevel,
)
from .ids import Person, new_table_id, platform_of
from .live import LiveTable, capacity, header, people, seat_of
from .notices import LobbyClosed, LobbyUpdated, Notice, TableUpdated
from .records import Records
from .results import display_rating
from .runner import Acknowledge, Decision
from .views import (
    HandView,
    HintView,
    LeaderboardView,
    LobbyEnd,
    LobbyView,
    MatchResultView,
    RoundResultView,
    SettingsView,
    StatsLine,
    StatsView,
    TableMode,
    TableView,
    rated_seating,
)

#: The computer levels a lobby may seat (only those ``core.ai`` provides are accepted).
COMPUTER_LEVELS = ("beginner", "strong", "expert")
#: RULES.md §8 variants by name, as changes to ``core.Rules``.
VARIANTS: dict[str, dict[str, Any]] = {
    "target 100": {"target": 100},
    "small majority": {"majority_points": 3, "majority_tie": "split"},
    "optional capture": {"optional_capture": True},
    "7D by count": {"seven_diamonds_basra": "count"},
}
TURN_SECONDS_RANGE = (10, 3600)
#: Who gives hints: one-move judgement, quick and deterministic, better than the beginner.
HINT_LEVEL = "strong"
#: Noted (as the service's name with this after it) by a stop that delivered everything.
DELIVERED = " delivered"
#: After a stop that may not have delivered everything, how many of the tables written just
#: before it are drawn again during start-up; the others follow, this many a second.
REDRAW_AT_ONCE = 20
REDRAW_PER_SECOND = 4.0
#: How often a process on a shared store forgets the rate windows and message marks nobody
#: used for ``IDLE_FOR`` seconds (``Store.forget_idle``).
FORGET_EVERY = 3600.0
IDLE_FOR = 24 * 3600.0

log = logging.getLogger(__name__)


class TableService(Records):
    """Lobbies and matches for the chats of the given platforms.

    ``TableService(store, platforms, *, clock=None, config=None, rng=None, match_factory=None,
    alone=False)``: ``store`` must be open. ``platforms`` are the adapters notices go to,
    keyed by their ``name`` (``"tg"``, ``"dc"``); tables of other platforms in
    the same database are left alone. ``clock`` defaults to the system clock
    (tests pass a ``ManualClock``); ``rng`` draws seeds and first dealers
    (seeded in tests); ``match_factory(players, rules)`` deals matches from
    given decks instead. ``alone``: no other process acts on these platforms' tables,
    even on a database that several processes share (this one leads its bots:
    ``Store.leadership``), so memory is the truth, as on a store of one process.
    Call ``start()`` (or use ``async with``) before anything else: it restores every
    open lobby and match and re-arms their clocks.
    """

    _heartbeat: Timer | None = None
    _takeover: Timer | None = None
    _redrawing: Timer | None = None
    #: When this process last forgot the shared rate windows and marks nobody uses.
    _forgot_at: float | None = None

    # -- life cycle ------------------------------------------------------------

    async def start(self, *, redeliver: bool = True) -> None:
        """Re-arm every clock of these platforms' open tables with the time it had left, and
        (``redeliver``) draw again the tables whose last messages may not have gone out.

        What start-up reads does not grow with the database: the clocks come from the
        index of due times in one statement, and every other table is loaded when it is
        first touched (a press, a command, its clock). After a stop that delivered
        everything (``close(delivered=True)``) nothing is drawn again; after any other
        (a crash, a kill) the tables written in the ``redeliver_seconds`` before it are,
        the latest first: ``REDRAW_AT_ONCE`` of them during start-up, the others
        ``REDRAW_PER_SECOND`` a second behind live play, so that a restart neither takes
        long nor floods the chats. On a store shared by several processes, timed work is
        armed by the process that made it due, and overdue work is claimed by any of them
        (``ServiceConfig.poll_seconds``)."""
        now = self._clock.now()
        owners = sorted(self._owners.values())
        last = await self._store.last_alive(self._name)
        delivered = await self._store.last_alive(self._name + DELIVERED)
        # The time the service was down does not count against anyone: every deadline moves
        # on by it, once (a start-up that fails after this does not count it again).
        await self._store.resume(self._name, now, self._counted_until(now), owners)
        if not self._shared:
            self._sleep_until_due(await self._store.due_tables(owners))
        clean = last is not None and delivered is not None and delivered >= last
        if redeliver and not clean:
            stopped = last if last is not None and not self._shared else now
            since = stopped - self._config.redeliver_seconds
            self._backlog.extend(await self._store.changed_tables(owners, since))
        self._schedule_heartbeat()
        if self._shared:
            self._schedule_takeover()
        for _ in range(REDRAW_AT_ONCE):
            if not self._backlog:
                break
            await self._redraw_next()
        self._schedule_redraw()

    def _schedule_redraw(self) -> None:
        if self._backlog and self._heartbeat is not None:
            when = self._clock.now() + 1.0 / REDRAW_PER_SECOND
            self._redrawing = self._clock.call_at(when, self._redraw_step)

    async def _redraw_step(self) -> None:
        self._redrawing = None
        self._busy += 1
        try:
            await self._redraw_next()
        finally:
            self._busy -= 1
            self._schedule_redraw()

    async def _redraw_next(self) -> None:
        """Draw the next table of the backlog again, unless it was touched since the start
        (its own action drew it then)."""
        table_id = self._backlog.popleft()
        if table_id in self._tables:
            return
        try:
            record = await self._store.get_table(table_id)
        except DamagedRow as damaged:
            await self._damaged(damaged)
            return
        except StorageError as error:
            log.error("table %s could not be read to draw it again: %s", table_id, error)
            return
        if record is None or not self._owns(record):
            return
        if not record.is_open:
            await self._redeliver_closed(record)
            return
        live = await self._adopt(record)
        if live is not None:
            await self._redeliver(live)

    async def _redeliver_closed(self, record: TableRecord) -> None:
        """A table that closed shortly before the stop: its last picture (the result, the
        closed lobby) again, as the messages a stopped process may not have sent."""
        if not self._owns(record):
            return
        try:
            await self._settings_of(record.chat_id)
            if record.version == 0:
                reason: LobbyEnd = "expired" if record.status == "expired" else "cancelled"
                view = viewing.lobby_view(record, LiveTable(record).rules, self._turn_seconds(record))
                await self._deliver([LobbyClosed(view, reason, self._public_language(record.chat_id))])
                return
            closed, match = await self._closed_table(record.table_id)
            for seat in closed.seats:
                if seat.player_id is not None:
                    await self._know_player(seat.player_id)
            await self._deliver(self._match_notices(LiveTable(closed, match)))
        except (BasraError, ValueError, TypeError, KeyError) as error:  # its events do not replay
            log.error("table %s could not be drawn again: %s", record.table_id, error)

    async def _redeliver(self, live: LiveTable) -> None:
        async def decide() -> Decision[None]:
            if live.record.status == "lobby":
                return None, [
                    LobbyUpdated(self._lobby_view(live), self._public_language(live.record.chat_id))
                ]
            return None, self._match_notices(live)

        await self._run(live, decide)

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
            await self._take_over()
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
        await self._store.note_alive(self._name, self._counted_until(self._clock.now()))
        self._schedule_heartbeat()

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
        for dormant in self._dormant.values():
            dormant.cancel()
        self._dormant.clear()
        for live in list(self._tables.values()):
            live.cancel_timer()
            async with live.lock:
                pass

    async def close(self, *, delivered: bool = False) -> None:
        """Stop the clocks (``stop_clocks``) and note the time, for the next start.
        ``delivered``: the adapters sent everything the service gave them, so the next
        start has nothing to draw again."""
        await self.stop_clocks()
        self._tables.clear()
        self._by_chat.clear()
        await self._thinker.close()
        with contextlib.suppress(StorageError):
            now = self._clock.now()
            await self._store.note_alive(self._name, now)
            if delivered:
                await self._store.note_alive(self._name + DELIVERED, now)

    @property
    def running(self) -> bool:
        """Started (its tables restored, their clocks armed) and not yet closed."""
        return self._heartbeat is not None

    async def reach_store(self) -> None:
        """Read from the store, raising its ``StorageError`` if it cannot (a health check)."""
        await self._store.last_alive(self._name)

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
                not self._busy
                and not self._due_soon()
                and not (isinstance(clock, SystemClock) and clock.running)
            ):
                return
            await asyncio.sleep(0.001)

    def _due_soon(self) -> bool:
        for live in self._tables.values():
            match = live.match
            mover = match.to_move if match is not None and live.record.status == "running" else None
            if mover is not None and live.record.seats[mover].computer:
                return True
        return False

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.close()

    # -- lookups ---------------------------------------------------------------

    async def _live(self, table_id: str) -> LiveTable:
        live = await self._find(table_id)
        if live is not None:
            return live
        record, _ = await self._closed_table(table_id)
        if record.status in ("lobby", "running"):  # open, but its events do not replay
            raise LobbyNotOpen(f"table {table_id} is set aside")
        if record.version == 0:
            raise LobbyNotOpen(f"lobby {table_id} is {record.status}")
        raise MatchOver(f"match {table_id} is {record.status}")

    def table_counts(self) -> dict[str, int]:
        """How many open tables this service serves, by status ("lobby", "running")."""
        counts: dict[str, int] = {}
        for live in self._tables.values():
            counts[live.record.status] = counts.get(live.record.status, 0) + 1
        return counts

    def thinking_processes(self) -> int:
        """How many worker processes the computer seats think in, alive now: none before a
        computer's first turn, nor when they think in a thread (``thinking``)."""
        return len(self._thinker.pids())

    def _lobby_view(self, live: LiveTable) -> LobbyView:
        return viewing.lobby_view(live.record, live.rules, self._turn_seconds(live.record))

    def _note_person(self, person: Person) -> bool:
        """Note the language the person's app reports; True if it is news to store."""
        if person.language and self._platform_language.get(person.player_id) != person.language:
            self._platform_language[person.player_id] = person.language
            return True
        return False

    # -- lobby -----------------------------------------------------------------

    async def new_lobby(
        self,
        chat_id: str,
        creator: Person,
        mode: TableMode = "1v1",
        *,
        players: int | None = None,
        level: str = "beginner",
    ) -> LobbyView:
        """Open a lobby in ``chat_id`` with ``creator`` seated.

        ``mode`` "1v1" (2 seats), "2v2" (4 seats, teams) or "practice" (the
        creator against computers; ``players`` 2 or 4, computers of ``level``
        fill the empty seats at the start). TableExists if the chat already has
        a lobby or match. The chat's variants and clock apply.
        """
        if platform_of(chat_id) not in self._platforms or platform_of(creator.player_id) != platform_of(
            chat_id
        ):
            raise BadInput(f"chat {chat_id!r} is not served here")
        if mode not in ("1v1", "2v2", "practice"):
            raise BadInput(f"unknown mode {mode!r}")
        seats_count = players if players is not None else (4 if mode == "2v2" else 2)
        if (
            seats_count not in (2, 4)
            or (mode == "1v1" and seats_count != 2)
            or (mode == "2v2" and seats_count != 4)
        ):
            raise BadInput(f"a {mode} table has no {seats_count} seats")
        self._check_level(level)
        return await self._open_lobby(chat_id, creator, mode, seats_count, level, {})

    async def _open_lobby(
        self,
        chat_id: str,
        creator: Person,
        mode: TableMode,
        seats_count: int,
        level: str,
        extra: dict[str, Any],
    ) -> LobbyView:
        """``new_lobby`` once its arguments are checked; ``extra`` goes into the header."""
        if await self._find_chat(chat_id) is not None:
            raise TableExists()
        self._note_person(creator)
        await self._seat_person(creator)
        settings = await self._settings_of(chat_id)
        turn = settings.turn_seconds if settings is not None else self._config.turn_seconds
        record = TableRecord(
            table_id=new_table_id(),
            chat_id=chat_id,
            platform=platform_of(chat_id),
            owner=self._owners[platform_of(chat_id)],
            mode=mode,
            created_by=creator.player_id,
            rules=settings.rules if settings is not None else {},
            seats=(Seat(player_id=creator.player_id, name=creator.name, team=0),),
            header={"capacity": seats_count, "turn_seconds": turn, "level": level, **extra},
            deadline=self._clock.now() + self._config.lobby_idle_seconds,
        )
        record = record.model_copy(update={"due_at": record.deadline})
        try:
            record = await self._store.create_table(record)
        except OpenTableExists:
            raise TableExists() from None
        live = LiveTable(record)
        self._register(live)
        self._arm(live)
        view = self._lobby_view(live)
        await self._run(
            live, lambda: self._decided(view, [LobbyUpdated(view, self._public_language(chat_id))])
        )
        return view

    @staticmethod
    async def _decided(value: Any, notices: list[Notice]) -> Decision[Any]:
        return value, notices

    def _check_level(self, level: str) -> None:
        if level not in LEVELS:
            raise UnknownLevel(f"no computer level {level!r}")

    async def _seat_person(self, person: Person) -> None:
        profile = await self._store.upsert_player(person.player_id, person.name, person.language)
        self._chosen_language[person.player_id] = profile.language

    async def practice(
        self, chat_id: str, person: Person, *, players: int = 2, level: str = "beginner"
    ) -> TableView:
        """Open and start at once a practice match: ``person`` against computers of ``level``."""
        lobby = await self.new_lobby(chat_id, person, "practice", players=players, level=level)
        return await self.start_match(lobby.table_id, person)

    async def rematch(self, table_id: str, person: Person) -> LobbyView | TableView:
        """The Rematch button of a finished match: the first press opens a lobby in its chat
        with the same mode, teams and computers (the chat's settings apply, as to any new
        table); each player of the match who presses it is seated on their old team; once
        every one of them is back the match starts (returns its table): a practice match
        comes back at once. NotSeated for someone who did not play it, TableExists when the
        chat has another game open."""
        old, _ = await self._closed_table(table_id)
        if old.status in ("lobby", "running"):
            raise BadInput(f"table {table_id!r} is not finished")
        mine = seat_of(old, person.player_id)
        if mine is None:
            raise NotSeated()
        team = old.seats[mine].team if capacity(old) == 4 else None
        lobby = await self._rematch_lobby(old, person, team)
        live = await self._find(lobby.table_id)
        if live is None or live.record.status != "lobby":
            return lobby
        back = {s.player_id for s in live.record.seats}
        if all(p in back for p in header(live.record, "expected", [])):
            creator = next(s for s in live.record.seats if s.player_id == live.record.created_by)
            try:
                return await self.start_match(
                    live.table_id, Person(live.record.created_by, creator.name or "", None)
                )
            except LobbyNotOpen:  # the last two came back at once: the other press started it
                return await self.table(live.table_id)
        return lobby

    async def _rematch_lobby(self, old: TableRecord, person: Person, team: int | None) -> LobbyView:
        """The rematch lobby of ``old`` with ``person`` seated: joined if open, else opened."""
        for _ in range(2):  # two first presses at once: the second joins the lobby the first opened
            current = await self._find_chat(old.chat_id)
            if current is not None and header(current.record, "rematch_of", None) == old.table_id:
                if seat_of(current.record, person.player_id) is not None:
                    return self._lobby_view(current)
                return await self.join(current.table_id, person, team)
            if current is not None:
                raise TableExists()
            expected = [s.player_id for s in old.seats if s.player_id is not None]
            extra = {"rematch_of": old.table_id, "expected": expected}
            level = str(header(old, "level", "beginner"))
            try:
                lobby = await self._open_lobby(old.chat_id, person, old.mode, len(old.seats), level, extra)
            except TableExists:
                continue
            if team:
                lobby = await self.choose_team(lobby.table_id, person, team)
            four = capacity(old) == 4
            for seat in old.seats:  # the same computers, on the same sides
                if seat.computer is not None:
                    side = seat.team if four else None
                    lobby = await self.add_computer(lobby.table_id, person, seat.computer, side)
            return lobby
        raise TableExists()

    async def _lobby_action(
        self, table_id: str, person: Person | None, change: Any, *, creator_only: bool = False
    ) -> LobbyView:
        """Apply ``change(record) -> seats`` to a lobby, save it, deliver the lobby."""
        live = await self._live(table_id)

        async def decide() -> Decision[LobbyView]:
            record = live.record
            if record.status != "lobby":
                raise LobbyNotOpen(fresh=self._lobby_view(live))
            if creator_only and person is not None and person.player_id != record.created_by:
                raise NotCreator(fresh=self._lobby_view(live))
            update: dict[str, Any] = {"deadline": self._clock.now() + self._config.lobby_idle_seconds}
            seats = change(record)
            if seats is not None:
                update["seats"] = seats
                update["created_by"] = _creator(record.created_by, seats)
            await self._save(live, lambda r: r.model_copy(update=update))
            if not people(live.record):
                return self._lobby_view(live), await self._close_lobby(live, "cancelled")
            self._arm(live)
            view = self._lobby_view(live)
            return view, [LobbyUpdated(view, self._public_language(record.chat_id))]

        return await self._run(live, decide)

    async def join(self, table_id: str, person: Person, team: int | None = None) -> LobbyView:
        """Sit ``person`` at the lobby, on ``team`` (0 = A, 1 = B) in 2-v-2 or on the
        smaller team. AlreadySeated, LobbyFull, TeamFull, LobbyNotOpen."""
        _check_team(team)
        self._note_person(person)
        live = await self._live(table_id)
        mine = seat_of(live.record, person.player_id) is not None
        if live.record.status == "lobby" and live.record.mode == "practice" and not mine:
            lobby = self._lobby_view(live)
            if not lobby.joinable and not lobby.full:
                raise PracticeTable(fresh=lobby)
        if live.record.status == "lobby" and not mine:
            await self._seat_person(person)
        return await self._lobby_action(
            table_id,
            person,
            lambda r: seats_.join(r.seats, capacity(r), person.player_id, person.name, team),
        )

    async def leave(self, table_id: str, person: Person) -> LobbyView:
        """Leave a lobby (the last person leaving cancels it). LobbyNotOpen once it has
        started: a Leave press racing Start is a stale press, never a resignation."""
        return await self._lobby_action(table_id, person, lambda r: seats_.leave(r.seats, person.player_id))

    async def choose_team(self, table_id: str, person: Person, team: int) -> LobbyView:
        """Move a seated person to team 0 (A) or 1 (B) of a 2-v-2 lobby (joins if not seated)."""
        _check_team(team)
        live = await self._live(table_id)
        if live.record.status == "lobby" and seat_of(live.record, person.player_id) is None:
            return await self.join(table_id, person, team)
        return await self._lobby_action(
            table_id, person, lambda r: seats_.choose_team(r.seats, capacity(r), person.player_id, team)
        )

    async def add_computer(
        self, table_id: str, person: Person, level: str = "beginner", team: int | None = None
    ) -> LobbyView:
        """Seat a computer player (creator only). A match with a computer is practice:
        it never counts. UnknownLevel for a level ``core.ai`` does not offer."""
        _check_team(team)
        self._check_level(level)
        return await self._lobby_action(
            table_id,
            person,
            lambda r: seats_.add_computer(r.seats, capacity(r), level, team),
            creator_only=True,
        )

    async def remove_computer(self, table_id: str, person: Person) -> LobbyView:
        """Take the last computer player out of the lobby (creator only)."""
        return await self._lobby_action(
            table_id, person, lambda r: seats_.remove_computer(r.seats), creator_only=True
        )

    async def start_match(
        self, table_id: str, person: Person, *, committed: Acknowledge | None = None
    ) -> TableView:
        """Start the match (creator only, seats full, teams even; a practice lobby is
        filled with computers). Partners sit opposite (team A seats 0 and 2).
        Delivers the closed lobby, the table, every hand and the first turn;
        ``committed`` runs beside that delivery, as for ``play``."""
        live = await self._live(table_id)

        async def decide() -> Decision[TableView]:
            record = live.record
            if record.status != "lobby":
                raise LobbyNotOpen(fresh=self._lobby_view(live))
            if person.player_id != record.created_by:
                raise NotCreator(fresh=self._lobby_view(live))
            fill = str(header(record, "level", "beginner")) if record.mode == "practice" else None
            seated = seats_.seating(record.seats, capacity(record), fill)
            practice = record.mode == "practice" or any(s.computer is not None for s in seated)
            match = self._new_match(len(seated), live.rules)
            async with live.writing:
                starting = live.record.model_copy(
                    update={
                        "status": "running",
                        "seats": seated,
                        "mode": "practice" if practice else record.mode,
                        "rated": rated_seating(record.mode, not practice, len(seated)),
                        "header": {
                            **(record.header or {}),
                            "players": len(seated),
                            "dealer": match.first_dealer,
                            "seed": match.seed,
                        },
                    }
                )
                live.match = match
                live.record = starting  # _commit_match writes this row with the opening events
                events = [ev.to_dict(e) for e in match.opening_events()]
                try:
                    await self._commit_match(live, events)
                except BaseException:
                    await self._reload(live)
                    raise
            public = self._public_language(record.chat_id)
            closed = viewing.lobby_view(
                record.model_copy(update={"status": "running"}), live.rules, self._turn_seconds(record)
            )
            notices: list[Notice] = [LobbyClosed(closed, "started", public), *self._match_notices(live)]
            return self._table_view(live), notices

        return await self._run(live, decide, committed)

    async def cancel(self, table_id: str, person: Person) -> LobbyView:
        """Close the lobby without playing (creator only)."""
        live = await self._live(table_id)

        async def decide() -> Decision[LobbyView]:
            if live.record.status != "lobby":
                raise LobbyNotOpen(fresh=self._lobby_view(live))
            if person.player_id != live.record.created_by:
                raise NotCreator(fresh=self._lobby_view(live))
            notices = await self._close_lobby(live, "cancelled")
            return self._lobby_view(live), notices

        return await self._run(live, decide)

    async def lobby(self, table_id: str) -> LobbyView:
        """The lobby as it is now (also for a closed one)."""
        live = await self._find(table_id)
        if live is not None:
            return self._lobby_view(live)
        record, _ = await self._closed_table(table_id)
        return viewing.lobby_view(record, LiveTable(record).rules, self._turn_seconds(record))

    async def open_table(self, chat_id: str) -> LobbyView | TableView | None:
        """The chat's open lobby or running match, as a view, or None."""
        live = await self._find_chat(chat_id)
        if live is None:
            return None
        return self._lobby_view(live) if live.record.status == "lobby" else self._table_view(live)

    # -- match -----------------------------------------------------------------

    async def table(self, table_id: str) -> TableView:
        """The public table of a running or finished match."""
        live = await self._find(table_id)
        if live is not None and live.match is not None:
            async with live.writing:
                return self._table_view(live)
        record, match = await self._closed_table(table_id)
        if match is None:
            raise NotRunning()
        closed = LiveTable(record, match)
        return self._table_view(closed)

    async def _seated(self, table_id: str, player_id: str) -> tuple[LiveTable, int]:
        live = await self._find(table_id)
        if live is None:
            record, match = await self._closed_table(table_id)
            closed = LiveTable(record, match)
            if match is None:
                raise NotRunning()
            seat = seat_of(record, player_id)
            if seat is None:
                raise NotSeated(fresh=self._table_view(closed))
            raise MatchOver(fresh=self._hand_view(closed, seat))
        if live.record.status == "lobby" or live.match is None:
            raise NotRunning(fresh=self._lobby_view(live))
        seat = seat_of(live.record, player_id)
        if seat is None:
            raise NotSeated(fresh=self._table_view(live))
        return live, seat

    async def last_results(self, table_id: str) -> list[RoundResultView | MatchResultView]:
        """The last finished round's result, and the match's once it is over (what the
        ``RoundEnded`` and ``MatchEnded`` notices said, for a page whose process did not
        score them); empty before the first round ends."""
        live = await self._find(table_id)
        if live is not None and live.match is not None:
            async with live.writing:
                return [*viewing.round_views(live.record, live.match, self._table_view(live).seats)[-1:]]
        record, match = await self._closed_table(table_id)
        if match is None:
            return []
        seats = self._table_view(LiveTable(record, match)).seats
        last_round = viewing.round_views(record, match, seats)[-1:]
        return [*last_round, viewing.match_result_view(record, match, seats)]

    async def hand(self, table_id: str, player_id: str) -> HandView:
        """``player_id``'s hand at this match. NotSeated for anyone else."""
        live, seat = await self._seated(table_id, player_id)
        async with live.writing:
            return self._hand_view(live, seat)

    async def hands_of(self, player_id: str) -> list[HandView]:
        """Every running match's hand of ``player_id`` (several chats at once), oldest first."""
        hands = []
        owners = sorted(self._owners.values())
        for record in await self._store.open_rows(owners=owners, player=player_id):
            if isinstance(record, DamagedTable) or record.status != "running":
                continue
            live = await self._find(record.table_id)
            if live is None or live.match is None or live.record.status != "running":
                continue
            seat = seat_of(live.record, player_id)
            if seat is not None:
                async with live.writing:
                    hands.append((live.record.created_at, self._hand_view(live, seat)))
        return [hand for _, hand in sorted(hands, key=lambda pair: pair[0])]

    async def preview(self, table_id: str, player_id: str, card: str, plan: int | None = None) -> HandView:
        """The hand with ``card`` selected: its numbered plans, what each takes,
        basra, or that it takes nothing. Changes nothing; works off turn too.
        ``plan`` selects which plan a confirm would play (0: lay it, when allowed).
        Reads committed state without waiting for deliveries: an adapter may call it
        from ``deliver``."""
        chosen = _parse_card(card)
        live, seat = await self._seated(table_id, player_id)
        async with live.writing:
            match = live.match
            assert match is not None
            if chosen not in match.hand(seat):
                raise CardNotInHand(card=chosen.code, fresh=self._hand_view(live, seat))
            return self._hand_view(live, seat, chosen=viewing.preview(match, live.rules, chosen, plan))

    async def hint(self, table_id: str, player_id: str) -> HintView:
        """What the computer would play in ``player_id``'s place now, and why.

        Practice matches only (NoHint otherwise), on the player's turn
        (NotYourTurn). The computer sees exactly what the seat sees
        (``Match.view``: its hand and the whole public history, nothing else).
        Changes nothing; like ``preview`` it reads committed state without
        waiting for deliveries.
        """
        live, seat = await self._seated(table_id, player_id)
        async with live.writing:
            match, record = live.match, live.record
            assert match is not None
            if not viewing.is_practice(record):
                raise NoHint(fresh=self._hand_view(live, seat))
            if record.status != "running" or match.to_move is None:
                raise MatchOver(fresh=self._hand_view(live, seat))
            if match.to_move != seat:
                mover = record.seats[match.to_move].name
                raise NotYourTurn(name=mover or "?", fresh=self._hand_view(live, seat))
            computer = player(HINT_LEVEL, seed=f"{table_id}:{record.version}")
            suggestion = computer.suggest(match.view(seat))
            chosen = viewing.preview(match, live.rules, suggestion.card, suggestion.plan)
            hand = self._hand_view(live, seat, chosen=chosen)
        reason = suggestion.reason
        args: dict[str, int | tuple[str, ...]] = {}
        for name, value in reason.args.items():
            if name in CARD_FIELDS:
                cards = (value,) if isinstance(value, Card) else tuple(value)  # type: ignore[arg-type]
                args[name] = tuple(c.code for c in cards)
            elif isinstance(value, int):
                args[name] = value
        return HintView(hand, suggestion.card.code, suggestion.plan, reason.key, args)

    async def play(
        self,
        table_id: str,
        player_id: str,
        version: int,
        card: str,
        plan: int | None = None,
        *,
        committed: Acknowledge | None = None,
    ) -> HandView:
        """Play ``card`` (with plan number ``plan``; None = plan 1, or lay when it takes
        nothing) from the view at ``version``. Committed, then delivered; returns the
        player's fresh hand (the same as its HandUpdated notice). StaleView (with a fresh
        hand) if the match moved on, NotYourTurn, CardNotInHand, NoSuchPlan,
        MustCapture, MatchOver, NotSeated. ``committed`` (the adapter's
        acknowledgement of the press) runs once the play is committed, beside its
        delivery; not at all if the play is refused."""
        chosen = _parse_card(card)
        if plan is not None and (not isinstance(plan, int) or isinstance(plan, bool) or plan < 0):
            raise BadInput(f"bad plan {plan!r}")
        live, seat = await self._seated(table_id, player_id)

        async def decide() -> Decision[HandView]:
            match, record = live.match, live.record
            if record.status != "running" or match is None or self._tables.get(table_id) is not live:
                raise MatchOver(fresh=self._hand_view(live, seat) if match is not None else None)
            if version != record.version:
                raise StaleView(fresh=self._hand_view(live, seat))
            if match.to_move != seat:
                mover = record.seats[match.to_move].name if match.to_move is not None else None
                raise NotYourTurn(name=mover or "?", fresh=self._hand_view(live, seat))
            if chosen not in match.hand(seat):
                raise CardNotInHand(card=chosen.code, fresh=self._hand_view(live, seat))
            options = len(match.plans(chosen))
            number = plan if plan is not None else (1 if options else 0)
            if number == 0 and options and not live.rules.optional_capture:
                raise MustCapture(card=chosen.code, fresh=self._hand_view(live, seat))
            if number > options:
                raise NoSuchPlan(card=chosen.code, plan=number, fresh=self._hand_view(live, seat))
            async with live.writing:
                played = match.play(seat, chosen, number)
                await self._commit_match(live, [ev.to_dict(e) for e in played])
            self.plays["person"] += 1
            notices = self._match_notices(live, played)
            return self._hand_view(live, seat), notices

        return await self._run(live, decide, committed)

    async def resign(self, table_id: str, player_id: str) -> TableView:
        """Resign the match: the resigning side loses (both partners in 2-v-2)."""
        live, seat = await self._seated(table_id, player_id)

        async def decide() -> Decision[TableView]:
            if live.record.status != "running" or self._tables.get(table_id) is not live:
                raise MatchOver()
            notices = await self._end(live, "resigned", seat)
            return self._table_view(live), notices

        return await self._run(live, decide)

    async def resign_in_chat(self, chat_id: str, player_id: str) -> TableView:
        """``/resign`` typed in a chat: resign its running match. NoOpenTable if none."""
        live = await self._find_chat(chat_id)
        if live is None:
            raise NoOpenTable()
        return await self.resign(live.table_id, player_id)

    # -- settings --------------------------------------------------------------

    def _settings_view(self, chat_id: str, settings: ChatSettings | None) -> SettingsView:
        rules = Rules.from_dict(settings.rules or None) if settings else Rules()
        changed = rules.to_dict()
        variants = tuple(
            (name, all(changed.get(k) == v for k, v in fields.items())) for name, fields in VARIANTS.items()
        )
        return SettingsView(
            chat_id=chat_id,
            language=settings.language if settings else None,
            effective_language=self._public_language(chat_id),
            rules=rules,
            variants=variants,
            turn_seconds=settings.turn_seconds if settings else self._config.turn_seconds,
        )

    async def move_chat(self, old_chat_id: str, new_chat_id: str) -> None:
        """The chat now has another id (a Telegram group upgraded to a supergroup):
        its open table, settings, results and history follow it, and the table
        is drawn again in the chat under its new id. Moving twice, or a chat
        with nothing to move, changes nothing."""
        if platform_of(old_chat_id) != platform_of(new_chat_id):
            raise BadInput(f"cannot move {old_chat_id!r} to another platform")
        if old_chat_id == new_chat_id:
            return
        live = await self._find_chat(old_chat_id)
        if live is None or await self._find_chat(new_chat_id) is not None:
            await self._move_stored(old_chat_id, new_chat_id)
            if live is not None:
                raise TableExists(f"{new_chat_id!r} already has a table")
            return

        async def decide() -> Decision[None]:
            # Under the table's lock, so the match cannot end (and be stored
            # under the old id) between the stored rows moving and the live
            # table following them.
            await self._move_stored(old_chat_id, new_chat_id)
            if live.record.chat_id != old_chat_id or not live.record.is_open:
                return None, []
            await self._save(live, lambda r: r.model_copy(update={"chat_id": new_chat_id}))
            self._by_chat.pop(old_chat_id, None)
            self._by_chat[new_chat_id] = live.table_id
            public = self._public_language(new_chat_id)
            if live.record.status == "lobby":
                return None, [LobbyUpdated(self._lobby_view(live), public)]
            return None, [TableUpdated(self._table_view(live), public)]  # the hands stay where they are

        await self._run(live, decide)

    async def _move_stored(self, old_chat_id: str, new_chat_id: str) -> None:
        """The chat's stored settings, results and closed tables to the new id (open tables move live)."""
        await self._store.move_chat(old_chat_id, new_chat_id)
        settings = self._chat_settings.pop(old_chat_id, None)
        if settings is not None and self._chat_settings.get(new_chat_id) is None:
            self._chat_settings[new_chat_id] = settings.model_copy(update={"chat_id": new_chat_id})

    async def settings(self, chat_id: str) -> SettingsView:
        """The chat's variants, clock and language."""
        return self._settings_view(chat_id, await self._settings_of(chat_id))

    async def _change_settings(self, chat_id: str, **update: Any) -> SettingsView:
        platform_of(chat_id)
        current = await self._settings_of(chat_id) or ChatSettings(
            chat_id=chat_id, turn_seconds=self._config.turn_seconds
        )
        changed = current.model_copy(update=update)
        await self._store.put_chat_settings(changed)
        self._chat_settings[chat_id] = changed
        live = await self._find_chat(chat_id)
        if live is not None and live.record.status == "lobby":
            await self._retune_lobby(live, changed)
        return self._settings_view(chat_id, changed)

    async def _retune_lobby(self, live: LiveTable, settings: ChatSettings) -> None:
        """An open lobby follows the chat's settings until it starts."""

        async def decide() -> Decision[None]:
            record = live.record
            if record.status != "lobby":
                return None, []
            head = {**(record.header or {}), "turn_seconds": settings.turn_seconds}
            await self._save(live, lambda r: r.model_copy(update={"rules": settings.rules, "header": head}))
            view = self._lobby_view(live)
            return None, [LobbyUpdated(view, self._public_language(record.chat_id))]

        await self._run(live, decide)

    async def set_variant(self, chat_id: str, variant: str, on: bool) -> SettingsView:
        """Turn a RULES.md §8 variant ("target 100", "small majority", "optional capture",
        "7D by count") on or off for the chat's next matches and its open lobby."""
        if variant not in VARIANTS:
            raise BadSetting(f"no variant {variant!r}")
        current = dict((await self.settings(chat_id)).rules.to_dict())
        for key in VARIANTS[variant]:
            current.pop(key, None)
        if on:
            current.update(VARIANTS[variant])
        return await self._set_rules(chat_id, current)

    async def set_rules(self, chat_id: str, **fields: Any) -> SettingsView:
        """Set ``core.Rules`` fields directly (``target=101``); BadSetting if invalid."""
        current = (await self.settings(chat_id)).rules.to_dict()
        return await self._set_rules(chat_id, {**current, **fields})

    async def _set_rules(self, chat_id: str, fields: dict[str, Any]) -> SettingsView:
        try:
            rules = Rules.from_dict(fields)
        except (BasraError, TypeError) as error:
            raise BadSetting(str(error)) from None
        return await self._change_settings(chat_id, rules=rules.to_dict())

    async def set_turn_seconds(self, chat_id: str, seconds: int) -> SettingsView:
        """The chat's turn clock (10 s to 1 h), for its next matches and its open lobby."""
        low, high = TURN_SECONDS_RANGE
        if not isinstance(seconds, int) or isinstance(seconds, bool) or not low <= seconds <= high:
            raise BadSetting(f"turn clock of {seconds!r} seconds")
        return await self._change_settings(chat_id, turn_seconds=seconds)

    async def set_chat_language(self, chat_id: str, language: str | None) -> SettingsView:
        """ "ar", "en", or None to follow each person's platform language."""
        chosen = supported_language(language) if language else None
        if language and chosen is None:
            raise BadSetting(f"language {language!r}")
        return await self._change_settings(chat_id, language=chosen)

    async def set_player_language(self, person: Person, language: str | None) -> str:
        """A person's own language, everywhere; returns the language now in effect."""
        chosen = supported_language(language) if language else None
        if language and chosen is None:
            raise BadSetting(f"language {language!r}")
        self._note_person(person)
        await self._store.upsert_player(person.player_id, person.name, person.language)
        await self._store.set_player_language(person.player_id, chosen)
        self._chosen_language[person.player_id] = chosen
        return self._language_of(person.player_id, None)

    async def language(self, chat_id: str | None = None, person: Person | None = None) -> str:
        """The language to answer in: the person's choice, the chat's, the platform's, the default.
        A failing store does not stop an answer: what is known in memory decides."""
        try:
            if chat_id is not None:
                await self._settings_of(chat_id)
            if person is not None:
                await self._know_player(person.player_id)
                if self._note_person(person):
                    # What their app reports changed (or was never stored): keep it for a restart.
                    await self._store.upsert_player(person.player_id, person.name, person.language)
        except StorageError as error:
            log.warning("reading or keeping a language failed: %s", error)
        if person is None:
            return self._public_language(chat_id) if chat_id else resolve_language(self._config.language)
        return self._language_of(person.player_id, chat_id)

    # -- profiles --------------------------------------------------------------

    async def stats(self, player_id: str, chat_id: str | None = None, *, name: str = "") -> StatsView:
        """One player's matches, wins, basras, best round, rating (in a chat or everywhere).
        ``name`` is shown for someone the store has no profile of yet (never their id)."""
        profile = await self._store.get_player(player_id)
        standing = await self._store.player_stats(player_id, chat_id)
        history = await self._store.rating_history(player_id, limit=20)
        return StatsView(
            player_id=player_id,
            name=profile.name if profile else name,
            chat_id=chat_id,
            line=_line(standing) if standing is not None else None,
            rated_matches=profile.rated_matches if profile else 0,
            rating_history=tuple(display_rating(h.after_rating) for h in reversed(history)),
        )

    async def leaderboard(self, chat_id: str | None = None, limit: int = 10) -> LeaderboardView:
        """Players ranked by rating (per chat, or global when ``chat_id`` is None)."""
        lines = await self._store.leaderboard(chat_id, limit=max(1, min(limit, 100)))
        return LeaderboardView(chat_id, tuple(_line(s) for s in lines))

    # -- adapter bookkeeping ---------------------------------------------------

    async def once(self, key: str, until: float) -> bool:
        """True the first time any process of these bots asks for ``key`` before ``until``
        (epoch seconds): a login or link that is good once (``Store.take_window``)."""
        now = self._clock.now()
        return await self._store.take_window(f"once:{key}", 1, max(until - now, 1.0), now) == 0.0

    def changes(self, on_change: Callable[[str | None], None]) -> AbstractAsyncContextManager[None]:
        """While inside, ``on_change(table_id)`` hears of every new version or status of a
        table that any process of these bots commits, and ``on_change(None)`` that some may
        have gone unheard (``Store.changes``; nothing on a store of one process, whose own
        changes come as notices)."""
        return self._store.changes(on_change)


def _creator(creator: str, seats: tuple[Seat, ...]) -> str:
    """The creator, or the first person left when the creator has gone."""
    if any(s.player_id == creator for s in seats):
        return creator
    return next((s.player_id for s in seats if s.player_id is not None), creator)


def _check_team(team: int | None) -> None:
    if team is not None and team not in (0, 1):
        raise BadInput(f"no team {team!r}")


def _parse_card(text: str) -> Card:
    try:
        return Card.parse(text)
    except ValueError:
        raise BadInput(f"not a card: {text!r}") from None


def _line(standing: Any) -> StatsLine:
    return StatsLine(
        rank=standing.rank,
        player_id=standing.player_id,
        name=standing.name,
        rating=display_rating(standing.rating),
        matches=standing.matches,
        wins=standing.wins,
        draws=standing.draws,
        losses=standing.losses,
        points=standing.points,
        basras=standing.basras,
        best_round=standing.best_round,
    )
