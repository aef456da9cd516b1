"""Computer players: ``player(level, seed)`` gives one that plays from a ``SeatView``.

>>> from core import Match
>>> from core.ai import player
>>> match = Match.new(players=2, seed=3)
>>> bot = player("beginner", seed=1)
>>> card, plan = bot.choose(match.view(match.to_move))
>>> _ = match.play(match.to_move, card, plan)
"""

from __future__ import annotations

from ..errors import BadArgument, shown
from .base import Player, Suggestion
from .baseline import Baseline
from .beginner import Beginner
from .expert import Expert
from .moves import Move, legal_moves
from .reasons import REASONS, Reason
from .strong import Strong

LEVELS: dict[str, type[Player]] = {
    "beginner": Beginner,
    "strong": Strong,
    "expert": Expert,
}
# The levels the benchmarks know: the ones above, and ``baseline``, the expert
# as first released, kept fixed to measure progress against. Not offered to players.
ALL_LEVELS: dict[str, type[Player]] = {**LEVELS, "baseline": Baseline}


def player(level: object, seed: object = None) -> Player:
    """A computer player of ``level`` ("beginner", "strong" or "expert", or
    "baseline" for the benchmarks).

    The same seed gives the same choices for the same views.
    """
    kind = ALL_LEVELS.get(level) if isinstance(level, str) else None
    if kind is None:
        raise BadArgument(f"unknown computer level {shown(level)} (one of {', '.join(LEVELS)})")
    return kind(seed=seed)


__all__ = [
    "ALL_LEVELS",
    "LEVELS",
    "REASONS",
    "Baseline",
    "Beginner",
    "Expert",
    "Move",
    "Player",
    "Reason",
    "Strong",
    "Suggestion",
    "legal_moves",
    "player",
]
