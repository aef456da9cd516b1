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
``lobbies``, ``matches``, ``chats``, ``standings``, ``erasure``, ``lifecycle``,
``pool`` (the pairing pool, whose waves are a chore of the heartbeat) and ``invites``
(bringing a partner to it). The use cases share the unit of work and never call each
other (``invites`` is handed the pool's join and status, as ``erasure`` is resign and
leave). A store that fails is one refusal, ``NotSaved``, whatever was asked (``_saved``).
"""

from __future__ import annotations

import functools
import logging
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Concatenate, ParamSpec, Self, TypeVar

from core import Match, Rules
from storage import StorageError, Store

from .chats import Chats
from .clock import Clock, SystemClock
from .config import ServiceConfig
from .crossing import Crossing
from .erasure import Erasure
from .errors import NotSaved
from .invites import Invites
from .languages import Languages
from .lifecycle import Lifecycle
from .lobbies import COMPUTER_LEVELS, Lobbies
from .matches import Matches
from .notices import Platform
from .pool import Pool
from .reactions import Reactions
from .standings import Standings
from .tables import Tables
from .timers import Timers

__all__ = ["COMPUTER_LEVELS", "Connected", "TableService"]

log = logging.getLogger(__name__)
P = ParamSpec("P")
R = TypeVar("R")
C = TypeVar("C")


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


def _asks(
    collaborator: str, method: Callable[Concatenate[C, P], Awaitable[R]], *, saved: bool = True
) -> Callable[Concatenate[TableService, P], Awaitable[R]]:
    """A ``TableService`` method that is ``method`` of its ``collaborator`` (the attribute's
    name): the same parameters, answer and docstring, behind ``_saved`` unless ``saved`` is
    False (starting, stopping and draining, which never were)."""

    @functools.wraps(method)
    async def asked(self: TableService, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await method(getattr(self, collaborator), *args, **kwargs)

    return _saved(asked) if saved else asked


class Connected:
    """A part made before the service it serves (a platform's delivery, the web table's hub):
    ``connect(service)`` once the service exists; asked for ``service`` before then, it raises
    ``RuntimeError``."""

    _service: TableService | None = None

    @property
    def service(self) -> TableService:
        if self._service is None:
            raise RuntimeError(f"{type(self).__name__} is not connected to a table service yet")
        return self._service

    def connect(self, service: TableService) -> None:
        self._service = service


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
        self.pool = Pool(self.tables, self.languages, store, clock, config, seat=self.lobbies.seat_strangers)
        self.lifecycle.chores.append(self.pool.tick)
        self.invites = Invites(self.tables, self.languages, store, clock, config,
                               join=self.pool.join, status=self.pool.status)
        self.reactions = Reactions(self.tables, self.languages, store, clock, config)
        self.crossing = Crossing(self.tables, self.languages, store)
        self.lifecycle.listeners.append(self.crossing.listening)
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
        """How many worker processes the computer seats think in, alive now: none before the
        first match with a computer starts, nor when they think in a thread (``thinking``)."""
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
    start = _asks("lifecycle", Lifecycle.start, saved=False)
    stop_clocks = _asks("lifecycle", Lifecycle.stop_clocks, saved=False)
    close = _asks("lifecycle", Lifecycle.close, saved=False)
    reach_store = _asks("lifecycle", Lifecycle.reach_store, saved=False)
    drain = _asks("lifecycle", Lifecycle.drain, saved=False)

    # -- lobbies -------------------------------------------------------------
    new_lobby = _asks("lobbies", Lobbies.new_lobby)
    practice = _asks("lobbies", Lobbies.practice)
    rematch = _asks("lobbies", Lobbies.rematch)
    join = _asks("lobbies", Lobbies.join)
    leave = _asks("lobbies", Lobbies.leave)
    choose_team = _asks("lobbies", Lobbies.choose_team)
    add_computer = _asks("lobbies", Lobbies.add_computer)
    remove_computer = _asks("lobbies", Lobbies.remove_computer)
    start_match = _asks("lobbies", Lobbies.start_match)
    cancel = _asks("lobbies", Lobbies.cancel)
    lobby = _asks("lobbies", Lobbies.lobby)
    open_table = _asks("lobbies", Lobbies.open_table)

    # -- matches -------------------------------------------------------------
    table = _asks("matches", Matches.table)
    last_results = _asks("matches", Matches.last_results)
    hand = _asks("matches", Matches.hand)
    hands_of = _asks("matches", Matches.hands_of)
    preview = _asks("matches", Matches.preview)
    hint = _asks("matches", Matches.hint)
    play = _asks("matches", Matches.play)
    resign = _asks("matches", Matches.resign)
    resign_in_chat = _asks("matches", Matches.resign_in_chat)

    # -- chats ---------------------------------------------------------------
    move_chat = _asks("chats", Chats.move_chat)
    settings = _asks("chats", Chats.settings)
    set_variant = _asks("chats", Chats.set_variant)
    set_rules = _asks("chats", Chats.set_rules)
    set_turn_seconds = _asks("chats", Chats.set_turn_seconds)
    set_chat_language = _asks("chats", Chats.set_chat_language)
    set_player_language = _asks("chats", Chats.set_player_language)
    language = _asks("chats", Chats.language)

    # -- standings -----------------------------------------------------------
    stats = _asks("standings", Standings.stats)
    leaderboard = _asks("standings", Standings.leaderboard)
    record = _asks("standings", Standings.record)
    last_record = _asks("standings", Standings.last_record)

    # -- erasure -------------------------------------------------------------
    forget = _asks("erasure", Erasure.forget)

    # -- the pairing pool ----------------------------------------------------
    pool_join = _asks("pool", Pool.join)
    pool_message = _asks("pool", Pool.note_message)
    pool_rematch = _asks("pool", Pool.rematch)
    pool_cancel = _asks("pool", Pool.cancel)
    pool_keep_waiting = _asks("pool", Pool.keep_waiting)
    pool_computer = _asks("pool", Pool.play_computer)
    pool_status = _asks("pool", Pool.status)
    pool_block = _asks("pool", Pool.block)
    pool_wave = _asks("pool", Pool.wave)
    pool_invite = _asks("invites", Invites.invite)
    pool_accept = _asks("invites", Invites.accept)
    react = _asks("reactions", Reactions.react)
