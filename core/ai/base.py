"""What every computer player offers: ``choose`` a play, ``suggest`` it with a reason."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar, NamedTuple

from ..cards import Card
from ..view import SeatView
from .explain import describe
from .moves import Move, legal_moves
from .reasons import Reason


class Suggestion(NamedTuple):
    """A hint: the card, the plan number as ``Match.play`` takes it, and why."""

    card: Card
    plan: int
    reason: Reason


class Player(ABC):
    """A computer player. It sees only a ``SeatView``; its randomness is its own seeded
    generator, so the same seed and the same views give the same plays."""

    level: ClassVar[str]

    def __init__(self, seed: object = None) -> None:
        self.seed = 0 if seed is None else seed
        self.rng = random.Random(str(self.seed) if not isinstance(self.seed, int) else self.seed)

    def choose(self, view: SeatView) -> tuple[Card, int]:
        """The card to play and its plan number (0 lays it), ready for ``Match.play``."""
        move = self.choose_move(view, legal_moves(view))
        return move.card, move.plan

    def suggest(self, view: SeatView) -> Suggestion:
        """The play this player would make, with a one-line reason."""
        move = self.choose_move(view, legal_moves(view))
        return Suggestion(move.card, move.plan, describe(view, move))

    @abstractmethod
    def choose_move(self, view: SeatView, moves: list[Move]) -> Move:
        """Pick one of ``moves`` (never empty, all legal) for the seat of ``view``."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"
