"""What one seat may know: the view computer players and chat adapters get.

A view never holds another seat's cards or the order of the stock. Everything
in it was seen by everyone at the table, except ``hand``, which is the seat's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from .cards import Card
from .plans import Plan, capture_plans
from .rules import Rules
from .scoring import RoundSummary


class PublicPlay(NamedTuple):
    """One play as the whole table saw it."""

    round_no: int
    seat: int
    card: Card
    taken: tuple[Card, ...]
    basra: bool


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    players: int
    rules: Rules
    hand: tuple[Card, ...]
    floor: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    stock_count: int
    scores: tuple[int, int]
    carry: int
    round_no: int
    dealer: int
    to_move: int | None
    winner: int | None
    captured: tuple[int, int]
    round_basras: tuple[int, int]
    last_capture_side: int | None
    buried: tuple[Card, ...]
    history: tuple[PublicPlay, ...]
    rounds: tuple[RoundSummary, ...]

    @property
    def side(self) -> int:
        return self.seat % 2

    @property
    def deals_left(self) -> int:
        """Deals still to come in this round after the current one."""
        return self.stock_count // (4 * self.players)

    @property
    def round_history(self) -> tuple[PublicPlay, ...]:
        return tuple(p for p in self.history if p.round_no == self.round_no)

    def plans(self, card: Card) -> tuple[Plan, ...]:
        """What ``card`` could take from the floor now (for previews and hints)."""
        return capture_plans(card, self.floor, self.rules)

    def unknown(self) -> frozenset[Card]:
        """Cards whose place this seat cannot know: in another hand or in the stock.

        Everything else is in this hand, on the floor, in a pile, or was seen
        being buried under the stock at the deal.
        """
        known: set[Card] = set(self.hand)
        known.update(self.floor)
        for play in self.round_history:
            known.add(play.card)
            known.update(play.taken)
        known.update(self.buried)
        return frozenset(c for c in Card.deck() if c not in known)
