"""One-move judgement: what a play takes, and what the floor it leaves offers.

The next player is always an opponent. Its reply is valued as the best
capture in its hand, averaged over the hands it may hold (see ``odds``): a
lone card left behind is a basra gift exactly when unseen cards could take
it, and the odds count how many could. When the reply is likely to take
nothing, this side plays next on that floor: this hand with 2 players, the
partner's unseen hand in 2-v-2. A jack or the 7D held back is worth keeping
for a fuller floor. Of two cards of one rank that differ in points (the 10D
and another 10, the 2C and another 2), the cheaper is the one to lay: the
same lay, with fewer points offered to the reply.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..cards import Card
from ..plans import is_basra
from ..rules import Rules
from .moves import cheaper_twin
from .odds import (
    BASRA_POINTS,
    SHARE_BY_OTHER,
    best_value,
    cached_options,
    floor_options,
    pile_points,
    reply,
)
from .values import KIND_OF, MAJORITY_SHARE


@dataclass(frozen=True, slots=True)
class Weights:
    """How much the judgement cares about each thing, in points."""

    reply: float = 1.0  # the next player's best capture on the floor left
    keep_sweeper: float = 4.0  # holding a jack or the 7D for a fuller floor
    follow: float = 1.5  # what this side can take next if the reply takes nothing


DEFAULT_WEIGHTS = Weights()


class Situation(NamedTuple):
    """Everything the judgement needs, whether it comes from a view or a playout."""

    hand: Sequence[Card]
    floor: Sequence[Card]
    floor_key: int  # odds.floor_key of the floor
    rules: Rules
    mine: int  # cards this seat's side has taken this round
    theirs: int
    worth: int  # the majority's worth this round, carry included
    pool: Sequence[int]  # kind counts of the cards this seat cannot see
    pool_size: int
    next_known: Sequence[Card]  # cards known to be in the next player's hand
    next_cards: int  # how many cards the next player will hold for the reply
    partner_known: Sequence[Card]  # 2-v-2: cards known to be in the partner's hand
    partner_cards: int  # 2-v-2: the partner's cards when its turn comes; 0 with 2 players
    last_play: bool  # this play ends the round
    last_capture_mine: bool  # who gets the leftovers if this play takes nothing


def majority_gain(mine: int, theirs: int, taken: int) -> float:
    """What taking ``taken`` more cards is worth, in units of the majority's worth."""
    return MAJORITY_SHARE[min(52, mine + taken)][theirs] - MAJORITY_SHARE[mine][theirs]


def judge(situation: Situation, card: Card, positions: Sequence[int] | None,
          weights: Weights = DEFAULT_WEIGHTS) -> float:
    """The worth of playing ``card`` (taking ``positions``, or laying it when
    None) for this seat's side, in points."""
    s = situation
    floor = s.floor
    worth = s.worth
    theirs = s.theirs
    share = SHARE_BY_OTHER[theirs]  # share[mine]: this side's expected share of the majority
    key = s.floor_key
    if positions is not None:
        points = card.points
        for i in positions:
            c = floor[i]
            points += c.points
            key ^= 1 << c.index
        cleared = len(positions) == len(floor)
        if cleared and is_basra(card, floor, s.rules):
            points += BASRA_POINTS
        mine = s.mine + len(positions) + 1
        score = points + worth * (share[mine] - share[s.mine])
    else:
        twin = cheaper_twin(card, s.hand)
        if twin is not None:
            # The same lay, with more points offered: never the better one.
            # (Judged on its own, the chance to take back its own points
            # next turn could make it look better.)
            return judge(s, twin, None, weights) - (card.points - twin.points)
        cleared = False
        mine = s.mine
        score = 0.0
        key |= 1 << card.index
    if s.last_play:
        # The round ends: the leftovers go to the last side to capture.
        left = _left(floor, card, positions)
        if left:
            if positions is not None or s.last_capture_mine:
                score += pile_points(left) + worth * majority_gain(mine, theirs, len(left))
            else:
                score -= pile_points(left) + worth * majority_gain(theirs, mine, len(left))
        return score
    if card.is_sweeper and len(s.hand) > 1:
        score -= weights.keep_sweeper
    if s.next_cards and not cleared:
        options = cached_options(key) or floor_options(_left(floor, card, positions), s.rules, key)
        expected, quiet = reply(options, worth, theirs, mine, s.pool, s.pool_size, s.next_known, s.next_cards)
        score -= weights.reply * expected
        if weights.follow and quiet > 0:
            if s.partner_cards:
                follow, _ = reply(options, worth, mine, theirs, s.pool, s.pool_size,
                                  s.partner_known, s.partner_cards)
            else:
                follow = 0.0
                for other in s.hand:
                    if other is not card:
                        captures = options[KIND_OF[other.index]]
                        if captures:
                            follow = max(follow, best_value(captures, worth, mine, theirs))
            score += weights.follow * quiet * follow
    return score


def _left(floor: Sequence[Card], card: Card, positions: Sequence[int] | None) -> list[Card]:
    """The floor after the play."""
    if positions is None:
        return [*floor, card]
    drop = set(positions)
    return [c for i, c in enumerate(floor) if i not in drop]
