"""Computer players: ``player(level, seed)`` gives one that plays from a ``SeatView``.

>>> from core import Match
>>> from core.ai import player
>>> match = Match.new(players=2, seed=3)
>>> bot = player("beginner", seed=1)
>>> card, plan = bot.choose(match.view(match.to_move))
>>> _ = match.play(match.to_move, card, plan)
"""

from __future__ import annotations

import functools
from importlib.metadata import entry_points

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
#: Where other levels are found, by name: the entry points of this group (the
#: benchmarks' ``baseline``, the expert as first released and kept fixed to measure
#: progress against, lives in ``bench/`` and is named there). Not offered to players.
LEVEL_ENTRY_POINTS = "basra.levels"


def all_levels() -> dict[str, type[Player]]:
    """The players' levels and every level installed beside them (``LEVEL_ENTRY_POINTS``)
    whose module can be imported here; read when first asked, never at import."""
    return {**LEVELS, **_installed()}


@functools.cache
def _installed() -> dict[str, type[Player]]:
    found: dict[str, type[Player]] = {}
    for entry in entry_points(group=LEVEL_ENTRY_POINTS):
        if entry.name in LEVELS:
            continue
        try:
            kind = entry.load()
        except ImportError:  # its package is not on this path (``bench/`` is not installed)
            continue
        if isinstance(kind, type) and issubclass(kind, Player):
            found[entry.name] = kind
    return dict(sorted(found.items()))


def player(level: object, seed: object = None) -> Player:
    """A computer player of ``level`` ("beginner", "strong" or "expert", or a level
    named by ``LEVEL_ENTRY_POINTS``, as the benchmarks' "baseline").

    The same seed gives the same choices for the same views.
    """
    kind = LEVELS.get(level) if isinstance(level, str) else None
    if kind is None and isinstance(level, str) and level:
        kind = _installed().get(level)
    if kind is None:
        raise BadArgument(f"unknown computer level {shown(level)} (one of {', '.join(LEVELS)})")
    return kind(seed=seed)


__all__ = [
    "LEVELS",
    "LEVEL_ENTRY_POINTS",
    "REASONS",
    "Beginner",
    "Expert",
    "Move",
    "Player",
    "Reason",
    "Strong",
    "Suggestion",
    "all_levels",
    "legal_moves",
    "player",
]
