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

from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any, Self

from storage import Store

from .clock import Clock
from .config import ServiceConfig
from .ids import Person
from .notices import Platform
from .views import (
    HandView,
    LeaderboardView,
    LobbyView,
    SettingsView,
    StatsView,
    TableMode,
    TableView,
)

#: The computer levels a lobby may seat (only those ``core.ai`` provides are accepted).
COMPUTER_LEVELS = ("beginner", "strong", "expert")


class TableService:
    """Lobbies and matches for the chats of the given platforms.

    ``store`` must be open. ``platforms`` are the adapters notices go to,
    keyed by their ``name`` (``"tg"``, ``"dc"``); tables of other platforms in
    the same database are left alone. ``clock`` defaults to the system clock
    (tests pass a ``ManualClock``). Call ``start()`` (or use ``async with``)
    before anything else: it restores every open lobby and match and re-arms
    their clocks.
    """

    def __init__(
        self,
        store: Store,
        platforms: Sequence[Platform] | Mapping[str, Platform],
        *,
        clock: Clock | None = None,
        config: ServiceConfig | None = None,
    ) -> None:
        raise NotImplementedError

    # -- life cycle ------------------------------------------------------------

    async def start(self) -> None:
        """Load every open lobby and running match of these platforms, re-arm each
        clock with the time it had left, and deliver fresh views of each."""
        raise NotImplementedError

    async def close(self) -> None:
        """Stop the clocks (deadlines stay stored) and note the time, for the next start."""
        raise NotImplementedError

    async def drain(self) -> None:
        """Wait until timed work already due (computer turns, timeouts) has finished."""
        raise NotImplementedError

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

    # -- lobby -----------------------------------------------------------------

    async def new_lobby(self, chat_id: str, creator: Person, mode: TableMode = "1v1", *,
                        players: int | None = None) -> LobbyView:
        """Open a lobby in ``chat_id`` with ``creator`` seated.

        ``mode`` "1v1" (2 seats), "2v2" (4 seats, teams) or "practice" (the
        creator against computers; ``players`` 2 or 4, computers fill the empty
        seats at the start). TableExists if the chat already has a lobby or
        match. The chat's variants and clock apply.
        """
        raise NotImplementedError

    async def practice(self, chat_id: str, person: Person, *, players: int = 2,
                       level: str = "beginner") -> TableView:
        """Open and start at once a practice match: ``person`` against computers of ``level``."""
        raise NotImplementedError

    async def join(self, table_id: str, person: Person, team: int | None = None) -> LobbyView:
        """Sit ``person`` at the lobby, on ``team`` (0 = A, 1 = B) in 2-v-2 or on the
        smaller team. AlreadySeated, LobbyFull, TeamFull, LobbyNotOpen."""
        raise NotImplementedError

    async def leave(self, table_id: str, person: Person) -> LobbyView | TableView:
        """Leave a lobby (the creator leaving an empty lobby cancels it); leaving a
        running match is resigning it (returns the final table)."""
        raise NotImplementedError

    async def choose_team(self, table_id: str, person: Person, team: int) -> LobbyView:
        """Move a seated person to team 0 (A) or 1 (B) of a 2-v-2 lobby (joins if not seated)."""
        raise NotImplementedError

    async def add_computer(self, table_id: str, person: Person, level: str = "beginner",
                           team: int | None = None) -> LobbyView:
        """Seat a computer player (creator only). A match with a computer is practice:
        it never counts. UnknownLevel for a level ``core.ai`` does not offer."""
        raise NotImplementedError

    async def remove_computer(self, table_id: str, person: Person) -> LobbyView:
        """Take the last computer player out of the lobby (creator only)."""
        raise NotImplementedError

    async def start_match(self, table_id: str, person: Person) -> TableView:
        """Start the match (creator only, seats full, teams even). Partners sit
        opposite (team A seats 0 and 2). Delivers the table and every hand."""
        raise NotImplementedError

    async def cancel(self, table_id: str, person: Person) -> LobbyView:
        """Close the lobby without playing (creator only)."""
        raise NotImplementedError

    async def lobby(self, table_id: str) -> LobbyView:
        """The lobby as it is now (also for a closed one)."""
        raise NotImplementedError

    async def open_table(self, chat_id: str) -> LobbyView | TableView | None:
        """The chat's open lobby or running match, as a view, or None."""
        raise NotImplementedError

    # -- match -----------------------------------------------------------------

    async def table(self, table_id: str) -> TableView:
        """The public table of a running or finished match."""
        raise NotImplementedError

    async def hand(self, table_id: str, player_id: str) -> HandView:
        """``player_id``'s hand at this match. NotSeated for anyone else."""
        raise NotImplementedError

    async def hands_of(self, player_id: str) -> list[HandView]:
        """Every running match's hand of ``player_id`` (several chats at once), oldest first."""
        raise NotImplementedError

    async def preview(self, table_id: str, player_id: str, card: str,
                      plan: int | None = None) -> HandView:
        """The hand with ``card`` selected: its numbered plans, what each takes,
        basra, or that it takes nothing. Changes nothing; works off turn too.
        ``plan`` selects which plan a confirm would play (0: lay it, when allowed)."""
        raise NotImplementedError

    async def play(self, table_id: str, player_id: str, version: int, card: str,
                   plan: int | None = None) -> HandView:
        """Play ``card`` (with plan number ``plan``; None = plan 1, or lay when it takes
        nothing) from the view at ``version``. Committed, then delivered; returns the
        player's fresh hand. StaleView (with a fresh hand) if the match moved on,
        NotYourTurn, CardNotInHand, NoSuchPlan, MustCapture, MatchOver, NotSeated."""
        raise NotImplementedError

    async def resign(self, table_id: str, player_id: str) -> TableView:
        """Resign the match: the resigning side loses (both partners in 2-v-2)."""
        raise NotImplementedError

    async def resign_in_chat(self, chat_id: str, player_id: str) -> TableView:
        """``/resign`` typed in a chat: resign its running match. NoOpenTable if none."""
        raise NotImplementedError

    # -- settings --------------------------------------------------------------

    async def settings(self, chat_id: str) -> SettingsView:
        """The chat's variants, clock and language."""
        raise NotImplementedError

    async def set_variant(self, chat_id: str, variant: str, on: bool) -> SettingsView:
        """Turn a RULES.md §8 variant ("target 100", "small majority", "optional capture",
        "7D by count") on or off for the chat's next matches and its open lobby."""
        raise NotImplementedError

    async def set_rules(self, chat_id: str, **fields: Any) -> SettingsView:
        """Set ``core.Rules`` fields directly (``target=101``); BadSetting if invalid."""
        raise NotImplementedError

    async def set_turn_seconds(self, chat_id: str, seconds: int) -> SettingsView:
        """The chat's turn clock (10 s to 1 h), for its next matches and its open lobby."""
        raise NotImplementedError

    async def set_chat_language(self, chat_id: str, language: str | None) -> SettingsView:
        """"ar", "en", or None to follow each person's platform language."""
        raise NotImplementedError

    async def set_player_language(self, person: Person, language: str | None) -> str:
        """A person's own language, everywhere; returns the language now in effect."""
        raise NotImplementedError

    async def language(self, chat_id: str | None = None, person: Person | None = None) -> str:
        """The language to answer in: the person's choice, the chat's, the platform's, the default."""
        raise NotImplementedError

    # -- profiles --------------------------------------------------------------

    async def stats(self, player_id: str, chat_id: str | None = None) -> StatsView:
        """One player's matches, wins, basras, best round, rating (in a chat or everywhere)."""
        raise NotImplementedError

    async def leaderboard(self, chat_id: str | None = None, limit: int = 10) -> LeaderboardView:
        """Players ranked by rating (per chat, or global when ``chat_id`` is None)."""
        raise NotImplementedError

    # -- adapter bookkeeping ---------------------------------------------------

    async def remember(self, table_id: str, key: str, value: Any) -> None:
        """Keep an adapter's message reference (JSON) with the table, e.g. the id of
        the table message to edit; it survives restarts."""
        raise NotImplementedError

    async def recall(self, table_id: str) -> dict[str, Any]:
        """Every reference ``remember`` kept for the table."""
        raise NotImplementedError
