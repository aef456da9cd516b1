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

``TableService`` is a facade: each of its methods is one of its collaborators',
whose docstring says what it does. The unit of work (``tables``: the tables in
memory and the one path of every change), the timers (``timers``), the languages
and chats' settings (``languages``), and one collaborator per use case:
``lobbies``, ``matches``, ``chats``, ``standings``, ``erasure`` and ``lifecycle``. The use cases
share the unit of work and never call each other. A store that fails is one refusal,
``NotSaved``, whatever was asked (``_saved``).
"""

from __future__ import annotations

import functools
import logging
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Any, ParamSpec, Self, TypeVar

from core import Match, Rules
from storage import StorageError, Store

from .chats import Chats
from .clock import Clock, SystemClock
from .config import ServiceConfig
from .erasure import Erasure, Forgotten
from .errors import NotSaved
from .ids import Person
from .languages import Languages
from .lifecycle import Lifecycle
from .lobbies import COMPUTER_LEVELS, Lobbies
from .matches import Matches
from .notices import Platform
from .records import RecordFile
from .standings import Standings
from .tables import Acknowledge, Tables
from .timers import Timers
from .views import (
    HandView,
    HintView,
    LeaderboardView,
    LobbyView,
    MatchResultView,
    RoundResultView,
    SettingsView,
    StatsView,
    TableMode,
    TableView,
)

__all__ = ["COMPUTER_LEVELS", "TableService"]

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")


def _saved(call: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """A store that fails (a full disk, a lost database) is one refusal for every adapter,
    the web table's included: ``NotSaved``, which says nothing changed; the cause is logged
    once, here."""

    @functools.wraps(call)
    async def saved(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await call(*args, **kwargs)
        except StorageError as error:
            log.error("%s was not saved: %s", call.__name__, error)
            raise NotSaved() from error

    return saved


class TableService:
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
        by_name = dict(platforms) if isinstance(platforms, Mapping) else {p.name: p for p in platforms}
        if not by_name:
            raise ValueError("a table service needs at least one platform")
        clock = clock if clock is not None else SystemClock()
        config = config if config is not None else ServiceConfig()
        self.languages = Languages(store, config)
        self.tables = Tables(
            store, by_name, clock, config, self.languages,
            rng=rng if rng is not None else random.SystemRandom(), match_factory=match_factory, alone=alone,
        )
        self.timers = Timers(self.tables, store, clock, config)
        self.lifecycle = Lifecycle(self.tables, self.languages, self.timers, store, clock, config)
        self.lobbies = Lobbies(self.tables, self.languages, store, clock, config)
        self.matches = Matches(self.tables, self.languages, store, clock, config)
        self.chats = Chats(self.tables, self.languages, store, clock, config)
        self.standings = Standings(store, self.tables.owners)
        self.erasure = Erasure(
            self.tables, self.languages, store, clock, config, resign=self.resign, leave=self.leave
        )
        self.lifecycle.chores.append(self.erasure.prune)
        self._store = store
        self._clock = clock

    @property
    def plays(self) -> Mapping[str, int]:
        """Cards played since the start, by who played them: "person", "computer", or
        "clock" (a 4-seat turn that timed out). Read by ``bots.metrics``."""
        return self.tables.plays

    @property
    def keep_finished_days(self) -> int:
        """Days finished matches are kept after they end (0: for good), as ``/privacy`` says."""
        return self.erasure.keep_days

    @property
    def running(self) -> bool:
        """Started (its tables restored, their clocks armed) and not yet closed."""
        return self.lifecycle.running

    def table_counts(self) -> dict[str, int]:
        """How many open tables this service serves, by status ("lobby", "running")."""
        counts: dict[str, int] = {}
        for live in self.tables.live.values():
            counts[live.record.status] = counts.get(live.record.status, 0) + 1
        return counts

    def thinking_processes(self) -> int:
        """How many worker processes the computer seats think in, alive now: none before a
        computer's first turn, nor when they think in a thread (``thinking``)."""
        return len(self.timers.thinker.pids())

    @_saved
    async def once(self, key: str, until: float) -> bool:
        """True the first time any process of these bots asks for ``key`` before ``until``
        (epoch seconds), restarts included: a login or link that is good once
        (``Store.use_once``, which keeps it until then)."""
        return await self._store.use_once(key, until, self._clock.now())

    def changes(self, on_change: Callable[[str | None], None]) -> AbstractAsyncContextManager[None]:
        """While inside, ``on_change(table_id)`` hears of every new version or status of a
        table that any process of these bots commits, and ``on_change(None)`` that some may
        have gone unheard (``Store.changes``; nothing on a store of one process, whose own
        changes come as notices)."""
        return self._store.changes(on_change)

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

    # -- lifecycle -----------------------------------------------------------
    async def start(self, *, redeliver: bool = True) -> None:
        await self.lifecycle.start(redeliver=redeliver)

    async def stop_clocks(self) -> None:
        await self.lifecycle.stop_clocks()

    async def close(self, *, delivered: bool = False) -> None:
        await self.lifecycle.close(delivered=delivered)

    async def reach_store(self) -> None:
        await self.lifecycle.reach_store()

    async def drain(self, timeout: float = 30.0) -> None:
        await self.lifecycle.drain(timeout)

    # -- lobbies -------------------------------------------------------------
    @_saved
    async def new_lobby(
        self,
        chat_id: str,
        creator: Person,
        mode: TableMode = "1v1",
        *,
        players: int | None = None,
        level: str = "beginner",
    ) -> LobbyView:
        return await self.lobbies.new_lobby(chat_id, creator, mode, players=players, level=level)

    @_saved
    async def practice(
        self, chat_id: str, person: Person, *, players: int = 2, level: str = "beginner"
    ) -> TableView:
        return await self.lobbies.practice(chat_id, person, players=players, level=level)

    @_saved
    async def rematch(self, table_id: str, person: Person) -> LobbyView | TableView:
        return await self.lobbies.rematch(table_id, person)

    @_saved
    async def join(self, table_id: str, person: Person, team: int | None = None) -> LobbyView:
        return await self.lobbies.join(table_id, person, team)

    @_saved
    async def leave(self, table_id: str, person: Person) -> LobbyView:
        return await self.lobbies.leave(table_id, person)

    @_saved
    async def choose_team(self, table_id: str, person: Person, team: int) -> LobbyView:
        return await self.lobbies.choose_team(table_id, person, team)

    @_saved
    async def add_computer(
        self, table_id: str, person: Person, level: str = "beginner", team: int | None = None
    ) -> LobbyView:
        return await self.lobbies.add_computer(table_id, person, level, team)

    @_saved
    async def remove_computer(self, table_id: str, person: Person) -> LobbyView:
        return await self.lobbies.remove_computer(table_id, person)

    @_saved
    async def start_match(
        self, table_id: str, person: Person, *, committed: Acknowledge | None = None
    ) -> TableView:
        return await self.lobbies.start_match(table_id, person, committed=committed)

    @_saved
    async def cancel(self, table_id: str, person: Person) -> LobbyView:
        return await self.lobbies.cancel(table_id, person)

    @_saved
    async def lobby(self, table_id: str) -> LobbyView:
        return await self.lobbies.lobby(table_id)

    @_saved
    async def open_table(self, chat_id: str) -> LobbyView | TableView | None:
        return await self.lobbies.open_table(chat_id)

    # -- matches -------------------------------------------------------------
    @_saved
    async def table(self, table_id: str) -> TableView:
        return await self.matches.table(table_id)

    @_saved
    async def last_results(self, table_id: str) -> list[RoundResultView | MatchResultView]:
        return await self.matches.last_results(table_id)

    @_saved
    async def hand(self, table_id: str, player_id: str) -> HandView:
        return await self.matches.hand(table_id, player_id)

    @_saved
    async def hands_of(self, player_id: str) -> list[HandView]:
        return await self.matches.hands_of(player_id)

    @_saved
    async def preview(self, table_id: str, player_id: str, card: str, plan: int | None = None) -> HandView:
        return await self.matches.preview(table_id, player_id, card, plan)

    @_saved
    async def hint(self, table_id: str, player_id: str) -> HintView:
        return await self.matches.hint(table_id, player_id)

    @_saved
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
        return await self.matches.play(table_id, player_id, version, card, plan, committed=committed)

    @_saved
    async def resign(self, table_id: str, player_id: str) -> TableView:
        return await self.matches.resign(table_id, player_id)

    @_saved
    async def resign_in_chat(self, chat_id: str, player_id: str) -> TableView:
        return await self.matches.resign_in_chat(chat_id, player_id)

    # -- chats ---------------------------------------------------------------
    @_saved
    async def move_chat(self, old_chat_id: str, new_chat_id: str) -> None:
        await self.chats.move_chat(old_chat_id, new_chat_id)

    @_saved
    async def settings(self, chat_id: str) -> SettingsView:
        return await self.chats.settings(chat_id)

    @_saved
    async def set_variant(self, chat_id: str, variant: str, on: bool) -> SettingsView:
        return await self.chats.set_variant(chat_id, variant, on)

    @_saved
    async def set_rules(self, chat_id: str, **fields: Any) -> SettingsView:
        return await self.chats.set_rules(chat_id, **fields)

    @_saved
    async def set_turn_seconds(self, chat_id: str, seconds: int) -> SettingsView:
        return await self.chats.set_turn_seconds(chat_id, seconds)

    @_saved
    async def set_chat_language(self, chat_id: str, language: str | None) -> SettingsView:
        return await self.chats.set_chat_language(chat_id, language)

    @_saved
    async def set_player_language(self, person: Person, language: str | None) -> str:
        return await self.chats.set_player_language(person, language)

    @_saved
    async def language(self, chat_id: str | None = None, person: Person | None = None) -> str:
        return await self.chats.language(chat_id, person)

    # -- standings -----------------------------------------------------------
    @_saved
    async def stats(self, player_id: str, chat_id: str | None = None, *, name: str = "") -> StatsView:
        return await self.standings.stats(player_id, chat_id, name=name)

    @_saved
    async def leaderboard(self, chat_id: str | None = None, limit: int = 10) -> LeaderboardView:
        return await self.standings.leaderboard(chat_id, limit)

    @_saved
    async def record(self, table_id: str) -> RecordFile:
        return await self.standings.record(table_id)

    @_saved
    async def last_record(self, chat_id: str) -> RecordFile:
        return await self.standings.last_record(chat_id)

    # -- erasure -------------------------------------------------------------
    @_saved
    async def forget(self, player_id: str) -> Forgotten:
        return await self.erasure.forget(player_id)
