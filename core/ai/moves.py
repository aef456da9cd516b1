"""The moves a seat may make now: a card and a plan number, as ``Match.play`` takes them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..cards import Card
from ..errors import BasraError
from ..plans import is_basra, plan_positions_for
from ..view import SeatView


class Move(NamedTuple):
    """One legal play: ``plan`` is the plan number (1, 2, ...) or 0 to lay the card."""

    card: Card
    plan: int
    taken: tuple[Card, ...]
    basra: bool
    positions: tuple[int, ...] = ()

    @property
    def captures(self) -> bool:
        return self.plan > 0

    @property
    def points(self) -> int:
        """Card points this move puts in the side's pile (the played card included)."""
        if not self.plan:
            return 0
        return self.card.points + sum(c.points for c in self.taken)


def legal_moves(view: SeatView) -> list[Move]:
    """Every play the seat may make, in hand order, plans in their numbered order.

    A card with plans may only be laid (plan 0) under optional capture.
    """
    if not view.hand:
        raise BasraError(f"seat {view.seat} has no card to play")
    floor = view.floor
    rules = view.rules
    moves: list[Move] = []
    for card in view.hand:
        options = plan_positions_for(card, floor)
        whole = len(floor)
        for number, positions in enumerate(options, start=1):
            basra = len(positions) == whole and is_basra(card, floor, rules)
            moves.append(Move(card, number, tuple(floor[i] for i in positions), basra, positions))
        if not options or rules.optional_capture:
            moves.append(Move(card, 0, (), False))
    return moves


def _twin(card: Card, hand: Sequence[Card], cheaper: bool) -> Card | None:
    best: Card | None = None
    for other in hand:
        if other.rank != card.rank or other.is_sweeper != card.is_sweeper:
            continue
        mark = best if best is not None else card
        if (other.points < mark.points) if cheaper else (other.points > mark.points):
            best = other
    return best


def cheaper_twin(card: Card, hand: Sequence[Card]) -> Card | None:
    """The card of ``card``'s rank in ``hand`` worth the fewest points, when it
    is worth fewer than ``card`` (a 10 for the 10D, a 2 for the 2C); else None.

    Cards of one rank take the same plans, and laid they leave a floor on which
    every capture takes the same cards (RULES.md section 3): laying the dearer
    one only hands its points to whoever takes it, where the cheaper one would
    have done the same job and kept them in this hand.
    """
    return _twin(card, hand, cheaper=True)


def dearer_twin(card: Card, hand: Sequence[Card]) -> Card | None:
    """The card of ``card``'s rank in ``hand`` worth the most points, when it is
    worth more than ``card``; else None. It takes the same cards, and banks its
    points where ``card`` would leave them in the hand, still to be played."""
    return _twin(card, hand, cheaper=False)


def without_wasted_points(moves: list[Move], hand: Sequence[Card]) -> list[Move]:
    """``moves`` less those that a card of the same rank does better: laying a
    card when a cheaper one of its rank could be laid, and capturing with a card
    when a dearer one of its rank would take the same cards. Never empty when
    ``moves`` is not: the cheapest lay and the dearest capture of a rank stay.
    """
    kept = []
    for move in moves:
        if move.plan:
            if dearer_twin(move.card, hand) is None:
                kept.append(move)
        elif cheaper_twin(move.card, hand) is None:
            kept.append(move)
    return kept
