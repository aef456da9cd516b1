"""Scoring a round (RULES.md section 5)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .cards import Card
from .rules import Rules

MAJORITY = 27
_new = tuple.__new__


class Points(NamedTuple):
    """One side's points for one round, item by item."""

    majority: int = 0
    aces: int = 0
    jacks: int = 0
    two_clubs: int = 0
    ten_diamonds: int = 0
    basras: int = 0

    @property
    def total(self) -> int:
        return self.majority + self.aces + self.jacks + self.two_clubs + self.ten_diamonds + self.basras

    def to_dict(self) -> dict[str, int]:
        return {
            "majority": self.majority,
            "aces": self.aces,
            "jacks": self.jacks,
            "two_clubs": self.two_clubs,
            "ten_diamonds": self.ten_diamonds,
            "basras": self.basras,
        }


class RoundSummary(NamedTuple):
    """A finished round: per side (index 0 = seats 0 and 2) what it took and scored.

    ``points`` are the breakdown's totals. Named tuples rather than frozen
    dataclasses: a match scores thousands of rounds a second in searches,
    and a frozen dataclass takes several times longer to build.
    """

    round_no: int
    dealer: int
    cards: tuple[int, int]
    basras: tuple[int, int]
    breakdown: tuple[Points, Points]
    carry_in: int
    carry_out: int
    points: tuple[int, int]

    def to_dict(self) -> dict[str, object]:
        return {
            "cards": list(self.cards),
            "basras": list(self.basras),
            "points": list(self.points),
        }


def score_round(
    round_no: int,
    dealer: int,
    piles: Sequence[Sequence[Card]],
    basras: Sequence[int],
    carry: int,
    rules: Rules,
) -> RoundSummary:
    """Points for both sides. The majority goes to the side with 27 cards or
    more, with whatever was carried; a 26-26 tie carries it or splits it."""
    counts = (len(piles[0]), len(piles[1]))
    majority = [0, 0]
    carry_out = 0
    if counts[0] >= MAJORITY:
        majority[0] = rules.majority_points + carry
    elif counts[1] >= MAJORITY:
        majority[1] = rules.majority_points + carry
    elif rules.majority_tie == "split":
        majority = [rules.majority_points + carry, rules.majority_points + carry]
    else:
        carry_out = carry + rules.majority_points
    breakdown = []
    for side in (0, 1):
        pile = piles[side]
        aces = jacks = two_clubs = ten_diamonds = 0
        for card in [c for c in pile if c.points]:
            if card.rank == "A":
                aces += 1
            elif card.rank == "J":
                jacks += 1
            elif card.code == "2C":
                two_clubs = 2
            else:
                ten_diamonds = 3
        breakdown.append(
            _new(Points, (majority[side], aces, jacks, two_clubs, ten_diamonds, 10 * basras[side]))
        )
    a, b = breakdown
    return _new(
        RoundSummary,
        (round_no, dealer, counts, (basras[0], basras[1]), (a, b), carry, carry_out, (a.total, b.total)),
    )
