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


def player(level: object, seed: object = None) -> Player:
    """A computer player of ``level`` ("beginner", "strong" or "expert").

    The same seed gives the same choices for the same views.
    """
    kind = LEVELS.get(level) if isinstance(level, str) else None
    if kind is None:
        raise BadArgument(f"unknown computer level {shown(level)} (one of {', '.join(LEVELS)})")
    return kind(seed=seed)


__all__ = [
    "LEVELS",
    "REASONS",
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
