"""The Basra rules engine: pure, synchronous, standard library only.

>>> from core import Card, Match
>>> match = Match.new(players=2, seed=7)
>>> len(match.hand(1)), len(match.floor), match.stock_count
(4, 4, 40)
"""

from .compiled import run_from_sources_if_needed

run_from_sources_if_needed()  # before any compiled module is imported

from .cards import Card
from .errors import (
    BadArgument,
    BasraError,
    IllegalPlay,
    MatchIsOver,
    MustTake,
    NoSuchPlan,
    NotInHand,
    NotTheirTurn,
    RecordError,
)
from .events import Event, event_from_dict, to_dict
from .match import Match
from .plans import Plan, capture_plans
from .rules import PRESETS, Rules
from .scoring import Points, RoundSummary
from .view import PublicPlay, SeatView

__all__ = [
    "PRESETS",
    "BadArgument",
    "BasraError",
    "Card",
    "Event",
    "IllegalPlay",
    "Match",
    "MatchIsOver",
    "MustTake",
    "NoSuchPlan",
    "NotInHand",
    "NotTheirTurn",
    "Plan",
    "Points",
    "PublicPlay",
    "RecordError",
    "RoundSummary",
    "Rules",
    "SeatView",
    "capture_plans",
    "event_from_dict",
    "to_dict",
]
