"""The game's values as the computer players count them.

Cards fall into 16 kinds that behave alike for capturing and scoring (all
aces, the 2C alone, the 7D alone, ...). The majority is valued as the chance
of reaching 27 cards, from a normal approximation of how the cards still out
will split: captures come in lumps, so the spread is wider than a coin toss.
"""

from __future__ import annotations

import math
from typing import Final

from ..cards import Card

KINDS: Final = 16
# One representative card per kind; plans depend only on rank and on 2C being special.
_KIND_CARDS: Final = ("AH", "2H", "2C", "3H", "4H", "5H", "6H", "7H", "7D", "8H", "9H", "10H", "10D",
                      "JH", "QH", "KH")
KIND_CARD: Final = tuple(Card.parse(c) for c in _KIND_CARDS)
KIND_POINTS: Final = tuple(c.points for c in KIND_CARD)
J_KIND: Final = 13
SEVEN_D_KIND: Final = 8
Q_KIND: Final = 14
K_KIND: Final = 15


def _kind(card: Card) -> int:
    if card.code == "2C":
        return 2
    if card.code == "7D":
        return SEVEN_D_KIND
    if card.code == "10D":
        return 12
    rank = card.rank
    if rank == "J":
        return J_KIND
    if rank == "Q":
        return Q_KIND
    if rank == "K":
        return K_KIND
    value = card.value
    if value <= 2:
        return value - 1
    if value <= 7:
        return value
    return value + 1


KIND_OF: Final = tuple(_kind(c) for c in Card.deck())


def kind_counts(cards: object) -> list[int]:
    counts = [0] * KINDS
    for card in cards:  # type: ignore[attr-defined]
        counts[KIND_OF[card.index]] += 1
    return counts


# The spread of the final split: captures average about three cards.
LUMP: Final = 3.0
MAJORITY: Final = 27


def majority_share(mine: int, theirs: int, lump: float = LUMP) -> float:
    """Chance that the side with ``mine`` cards ends with 27 or more, less the
    other side's chance, when the rest split evenly on average, in captures
    of ``lump`` cards on average."""
    if mine >= MAJORITY:
        return 1.0
    if theirs >= MAJORITY:
        return -1.0
    rest = 52 - mine - theirs
    if rest <= 0:
        return 0.0
    sd = math.sqrt(rest * lump / 4.0)

    def at_least(need: int) -> float:
        # P(X >= need) for X ~ N(rest/2, sd), with a continuity correction
        z = (need - 0.5 - rest / 2.0) / sd
        return 0.5 * math.erfc(z / math.sqrt(2.0))

    return at_least(MAJORITY - mine) - at_least(MAJORITY - theirs)


# MAJORITY_SHARE[mine][theirs]: expected share of the majority, from -1 to 1.
MAJORITY_SHARE: Final = tuple(tuple(majority_share(a, b) for b in range(53)) for a in range(53))


def majority_gain(mine: int, theirs: int, taken: int) -> float:
    """What taking ``taken`` more cards is worth, in units of the majority's worth."""
    row = MAJORITY_SHARE
    return row[min(52, mine + taken)][theirs] - row[mine][theirs]
