"""Lobbies: opening one, sitting down, teams and computers, starting the match, rematches."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from core import events as ev
from core.ai import LEVELS
from storage import (
    OpenTableExists,
    Seat,
    TableRecord,
)

from . import lobby as seats_
from . import viewing
from .errors import (
    BadInput,
    LobbyNotOpen,
    NotCreator,
    NotSeated,
    PracticeTable,
    TableExists,
    UnknownLevel,
)
from .ids import Person, is_pool_chat, new_table_id, platform_of, pool_chat
from .live import LiveTable, capacity, header, people, seat_of
from .notices import (
    LobbyClosed,
    LobbyUpdated,
    Notice,
)
from .tables import Acknowledge, Decision
from .usecase import UseCase
from .views import (
    LobbyView,
    TableMode,
    TableView,
    rated_seating,
)

log = logging.getLogger(__name__)

#: The computer levels a lobby may seat (only those ``core.ai`` provides are accepted).
COMPUTER_LEVELS = ("beginner", "strong", "expert")


class Lobbies(UseCase):
    """The lobby half of the table service."""

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
        if platform_of(chat_id) not in self._t.platforms or platform_of(creator.player_id) != platform_of(
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
        if await self._t.find_chat(chat_id) is not None:
            raise TableExists()
        self._lang.note_person(creator)
        await self._lang.seat_person(creator)
        settings = await self._lang.settings_of(chat_id)
        turn = settings.turn_seconds if settings is not None else self._config.turn_seconds
        record = TableRecord(
            table_id=new_table_id(),
            chat_id=chat_id,
            platform=platform_of(chat_id),
            owner=self._t.owners[platform_of(chat_id)],
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
        self._t.register(live)
        self._t.hooks.changed(live)
        view = self._t.lobby_view(live)
        await self._t.run(
            live, lambda: self._decided(view, [LobbyUpdated(view, self._lang.public(chat_id))])
        )
        return view

    @staticmethod
    async def _decided(value: Any, notices: list[Notice]) -> Decision[Any]:
        return value, notices

    def _check_level(self, level: str) -> None:
        if level not in LEVELS:
            raise UnknownLevel(f"no computer level {level!r}")

    async def practice(
        self, chat_id: str, person: Person, *, players: int = 2, level: str = "beginner"
    ) -> TableView:
        """Open and start at once a practice match: ``person`` against computers of ``level``."""
        lobby = await self.new_lobby(chat_id, person, "practice", players=players, level=level)
        return await self.start_match(lobby.table_id, person)

    async def seat_strangers(self, table_id: str, people: Sequence[Person], keeper: str | None = None
                             ) -> TableView:
        """Open and start at once the match of ``people`` the pool paired (``pool``): 2 for a
        1-v-1, which is rated, or 4 for a 2-v-2 (the first two one team, the last two the
        other), which counts in profiles as 2-v-2s between people do. It
        has no chat (``ids.pool_chat``): each plays in their private chat. The standard
        rules and the pool's clock (``pool_turn_seconds``) apply; the first person is its
        creator and its table (``table_id``, which the pool chose) is kept by the bot of
        ``keeper``, a platform served here (by default, the first person's)."""
        if len(people) not in (2, 4):
            raise BadInput(f"a stranger match has no {len(people)} seats")
        platform = keeper if keeper is not None else platform_of(people[0].player_id)
        for person in people:
            self._lang.note_person(person)
            await self._lang.seat_person(person)
        four = len(people) == 4
        record = TableRecord(
            table_id=table_id,
            chat_id=pool_chat(platform, table_id),
            platform=platform,
            owner=self._t.owners[platform],
            mode="2v2" if four else "1v1",
            created_by=people[0].player_id,
            seats=tuple(Seat(player_id=p.player_id, name=p.name, team=i // 2 if four else 0)
                        for i, p in enumerate(people)),
            header={"capacity": len(people), "turn_seconds": self._config.pool_turn_seconds,
                    "level": "beginner", "pool": True},
            deadline=self._clock.now() + self._config.lobby_idle_seconds,
        )
        record = await self._store.create_table(record.model_copy(update={"due_at": record.deadline}))
        live = LiveTable(record)
        self._t.register(live)
        self._t.hooks.changed(live)
        return await self.start_match(table_id, people[0])

    async def rematch(self, table_id: str, person: Person) -> LobbyView | TableView:
        """The Rematch button of a finished match: the first press opens a lobby in its chat
        with the same mode, teams and computers (the chat's settings apply, as to any new
        table); each player of the match who presses it is seated on their old team; once
        every one of them is back the match starts (returns its table): a practice match
        comes back at once. NotSeated for someone who did not play it, TableExists when the
        chat has another game open."""
        old, _ = await self._t.closed_table(table_id)
        if old.status in ("lobby", "running") or is_pool_chat(old.chat_id):
            # A stranger match has no chat for a lobby: its rematch is the pool's.
            raise BadInput(f"table {table_id!r} is not a finished match with a chat")
        mine = seat_of(old, person.player_id)
        if mine is None:
            raise NotSeated()
        team = old.seats[mine].team if capacity(old) == 4 else None
        lobby = await self._rematch_lobby(old, person, team)
        live = await self._t.find(lobby.table_id)
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
                return await self._t.public_table(live.table_id)
        return lobby

    async def _rematch_lobby(self, old: TableRecord, person: Person, team: int | None) -> LobbyView:
        """The rematch lobby of ``old`` with ``person`` seated: joined if open, else opened."""
        for _ in range(2):  # two first presses at once: the second joins the lobby the first opened
            current = await self._t.find_chat(old.chat_id)
            if current is not None and header(current.record, "rematch_of", None) == old.table_id:
                if seat_of(current.record, person.player_id) is not None:
                    return self._t.lobby_view(current)
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
        live = await self._t.open_or_closed(table_id)

        async def decide() -> Decision[LobbyView]:
            record = live.record
            if record.status != "lobby":
                raise LobbyNotOpen(fresh=self._t.lobby_view(live))
            if creator_only and person is not None and person.player_id != record.created_by:
                raise NotCreator(fresh=self._t.lobby_view(live))
            update: dict[str, Any] = {"deadline": self._clock.now() + self._config.lobby_idle_seconds}
            seats = change(record)
            if seats is not None:
                update["seats"] = seats
                update["created_by"] = _creator(record.created_by, seats)
            await self._t.save(live, lambda r: r.model_copy(update=update))
            if not people(live.record):
                return self._t.lobby_view(live), await self._t.close_lobby(live, "cancelled")
            self._t.hooks.changed(live)
            view = self._t.lobby_view(live)
            return view, [LobbyUpdated(view, self._lang.public(record.chat_id))]

        return await self._t.run(live, decide)

    async def join(self, table_id: str, person: Person, team: int | None = None) -> LobbyView:
        """Sit ``person`` at the lobby, on ``team`` (0 = A, 1 = B) in 2-v-2 or on the
        smaller team. AlreadySeated, LobbyFull, TeamFull, LobbyNotOpen."""
        _check_team(team)
        self._lang.note_person(person)
        live = await self._t.open_or_closed(table_id)
        mine = seat_of(live.record, person.player_id) is not None
        if live.record.status == "lobby" and live.record.mode == "practice" and not mine:
            lobby = self._t.lobby_view(live)
            if not lobby.joinable and not lobby.full:
                raise PracticeTable(fresh=lobby)
        if live.record.status == "lobby" and not mine:
            await self._lang.seat_person(person)
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
        live = await self._t.open_or_closed(table_id)
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
        live = await self._t.open_or_closed(table_id)

        async def decide() -> Decision[TableView]:
            record = live.record
            if record.status != "lobby":
                raise LobbyNotOpen(fresh=self._t.lobby_view(live))
            if person.player_id != record.created_by:
                raise NotCreator(fresh=self._t.lobby_view(live))
            fill = str(header(record, "level", "beginner")) if record.mode == "practice" else None
            seated = seats_.seating(record.seats, capacity(record), fill)
            practice = record.mode == "practice" or any(s.computer is not None for s in seated)
            match = self._t.new_match(len(seated), live.rules)
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
                    await self._t.commit_match(live, events)
                except BaseException:
                    await self._t.reload(live)
                    raise
            public = self._lang.public(record.chat_id)
            closed = viewing.lobby_view(
                record.model_copy(update={"status": "running"}), live.rules, self._t.turn_seconds(record)
            )
            notices: list[Notice] = [LobbyClosed(closed, "started", public), *self._t.match_notices(live)]
            return self._t.table_view(live), notices

        return await self._t.run(live, decide, committed)

    async def cancel(self, table_id: str, person: Person) -> LobbyView:
        """Close the lobby without playing (creator only)."""
        live = await self._t.open_or_closed(table_id)

        async def decide() -> Decision[LobbyView]:
            if live.record.status != "lobby":
                raise LobbyNotOpen(fresh=self._t.lobby_view(live))
            if person.player_id != live.record.created_by:
                raise NotCreator(fresh=self._t.lobby_view(live))
            notices = await self._t.close_lobby(live, "cancelled")
            return self._t.lobby_view(live), notices

        return await self._t.run(live, decide)

    async def lobby(self, table_id: str) -> LobbyView:
        """The lobby as it is now (also for a closed one)."""
        live = await self._t.find(table_id)
        if live is not None:
            return self._t.lobby_view(live)
        record, _ = await self._t.closed_table(table_id)
        return viewing.lobby_view(record, LiveTable(record).rules, self._t.turn_seconds(record))

    async def open_table(self, chat_id: str) -> LobbyView | TableView | None:
        """The chat's open lobby or running match, as a view, or None."""
        live = await self._t.find_chat(chat_id)
        if live is None:
            return None
        return self._t.lobby_view(live) if live.record.status == "lobby" else self._t.table_view(live)


def _creator(creator: str, seats: tuple[Seat, ...]) -> str:
    """The creator, or the first person left when the creator has gone."""
    if any(s.player_id == creator for s in seats):
        return creator
    return next((s.player_id for s in seats if s.player_id is not None), creator)


def _check_team(team: int | None) -> None:
    if team is not None and team not in (0, 1):
        raise BadInput(f"no team {team!r}")
