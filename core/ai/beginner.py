"""The beginner: greedy and plain, the card the turn clock plays for an absent player.

It takes when it can, the most cards first (a basra, then points, break
ties); otherwise it lays a low card. A jack or the 7D is never thrown on an
empty floor, nor used where another card takes as much.
"""

from __future__ import annotations

from ..view import SeatView
from .base import Player
from .moves import Move


def lay_order(move: Move) -> tuple[int, int, int]:
    """Lower is laid first: plain cards, then point cards, then the sweepers."""
    card = move.card
    return (int(card.is_sweeper), card.points, card.index % 13)


class Beginner(Player):
    level = "beginner"

    def choose_move(self, view: SeatView, moves: list[Move]) -> Move:
        captures = [m for m in moves if m.plan]
        if captures:
            return max(
                captures,
                key=lambda m: (len(m.taken), m.basra, m.points, not m.card.is_sweeper,
                               -(m.card.index % 13), -m.plan, self.rng.random()),
            )
        return min(moves, key=lambda m: (*lay_order(m), self.rng.random()))
