"""Rendering each view (signatures; bodies follow in the same module)."""

from __future__ import annotations

from core import Rules

from ..i18n import Translator
from ..service.errors import ServiceError
from ..service.notices import ClockWarning, Notice, YourTurn
from ..service.views import (
    HandView,
    LeaderboardView,
    LobbyView,
    MatchResultView,
    RoundResultView,
    SettingsView,
    StatsView,
    TableView,
)
from .rendered import Rendered


def render_lobby(lobby: LobbyView, t: Translator) -> Rendered:
    """The lobby message: mode, seats by team, variants, clock; join/leave/team/computer/start/cancel."""
    raise NotImplementedError


def render_table(table: TableView, t: Translator, *, now: float | None = None) -> Rendered:
    """The public table message (no hand card): floor, seats with card counts, turn and
    time left (from ``now`` when given), deals left, scores, carried majority, last play;
    a "my hand" button."""
    raise NotImplementedError


def render_hand(hand: HandView, t: Translator, *, now: float | None = None) -> Rendered:
    """A private hand: floor, the hand as card buttons, scores and turn; with a preview,
    the selected card's plans (numbered buttons when several), basra or "takes nothing",
    confirm and back."""
    raise NotImplementedError


def render_turn_notice(notice: YourTurn, t: Translator) -> Rendered:
    """The short "your turn" ping (the hand itself comes with ``render_hand``)."""
    raise NotImplementedError


def render_warning(notice: ClockWarning, t: Translator) -> Rendered:
    """ "30 seconds left" for the player whose clock is running."""
    raise NotImplementedError


def render_round_result(result: RoundResultView, t: Translator) -> Rendered:
    """A round's points breakdown per side and the totals."""
    raise NotImplementedError


def render_match_result(result: MatchResultView, t: Translator) -> Rendered:
    """Who won and why, final scores, profile points and rating moves."""
    raise NotImplementedError


def render_help(t: Translator) -> Rendered:
    """What the bot does and its commands (platform-neutral names)."""
    raise NotImplementedError


def render_rules(t: Translator, rules: Rules | None = None) -> Rendered:
    """A summary of RULES.md, with the chat's variants when given."""
    raise NotImplementedError


def render_settings(settings: SettingsView, t: Translator) -> Rendered:
    """The chat's variants, clock and language, with buttons to change them."""
    raise NotImplementedError


def render_stats(stats: StatsView, t: Translator) -> Rendered:
    raise NotImplementedError


def render_leaderboard(board: LeaderboardView, t: Translator) -> Rendered:
    raise NotImplementedError


def render_error(error: ServiceError, t: Translator) -> Rendered:
    """A refusal, short; with the fresh view's rendering when the error carries one."""
    raise NotImplementedError


def render_notice(notice: Notice, *, now: float | None = None) -> Rendered:
    """Any notice, in its own ``lang``."""
    raise NotImplementedError
