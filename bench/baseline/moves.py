"""The moves a card of the same rank does better, frozen for the baseline."""

from __future__ import annotations

from collections.abc import Sequence

from core.ai.moves import Move
from core.cards import Card


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
