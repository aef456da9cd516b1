"""One-move judgement: what a play takes, and what the floor it leaves offers
the next player, who is always an opponent.

The reply is valued as the best capture in the next player's hand, averaged
over the hands it may hold: its cards come from the cards this seat cannot
see, so for each kind of card we know how many are out and, from the
hypergeometric odds, how likely the hand holds one of the kinds that would
hurt most. A lone card left behind is a basra gift exactly when some unseen
card could take it, and this counts how many could.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from ..cards import Card
from ..plans import is_basra, plan_positions_for
from ..rules import Rules
from .values import (
    J_KIND,
    K_KIND,
    KIND_CARD,
    KIND_OF,
    KIND_POINTS,
    KINDS,
    Q_KIND,
    SEVEN_D_KIND,
    majority_gain,
)

BASRA_POINTS = 10


@dataclass(frozen=True, slots=True)
class Weights:
    """How much the judgement cares about each thing, in points."""

    reply: float = 1.0  # the next player's best capture on the floor left
    keep_sweeper: float = 4.0  # holding a jack or the 7D for a fuller floor
    follow: float = 1.5  # what this hand can take next turn if the reply takes nothing


DEFAULT_WEIGHTS = Weights()


class Situation(NamedTuple):
    """Everything the judgement needs, whether it comes from a view or a playout."""

    hand: Sequence[Card]
    floor: Sequence[Card]
    rules: Rules
    mine: int  # cards this seat's side has taken this round
    theirs: int
    worth: int  # the majority's worth this round, carry included
    pool: Sequence[int]  # kind counts of the cards the next player's unknown cards come from
    pool_size: int
    next_known: Sequence[Card]  # cards known to be in the next player's hand
    next_cards: int  # how many cards the next player will hold for the reply
    partner_known: Sequence[Card]  # 2-v-2: cards known to be in the partner's hand
    partner_cards: int  # 2-v-2: the partner's cards when its turn comes; 0 with 2 players
    last_play: bool  # this play ends the round
    last_capture_mine: bool  # who gets the leftovers if this play takes nothing


def pile_points(cards: Sequence[Card]) -> int:
    return sum(c.points for c in cards)


def capture_value(card: Card, floor: Sequence[Card], positions: Sequence[int], rules: Rules) -> int:
    """Card points and basra bonus of a capture (the played card included)."""
    points = card.points
    for i in positions:
        points += floor[i].points
    if len(positions) == len(floor) and is_basra(card, floor, rules):
        points += BASRA_POINTS
    return points


def _sums_mask(floor: Sequence[Card]) -> int:
    """Bit v set when some number cards on the floor add up to v (v <= 10)."""
    mask = 1
    for c in floor:
        v = c.value
        if v:
            mask |= (mask << v) & 0x7FF
    return mask


def capture_values(floor: Sequence[Card], rules: Rules, worth: int, taker: int, other: int) -> list[float]:
    """For each kind, what its best capture on ``floor`` is worth to the side that
    plays it, which has taken ``taker`` cards to the other side's ``other``
    (0 when it takes nothing)."""
    values = [0.0] * KINDS
    if not floor:
        return values
    everything = len(floor)
    whole_points = pile_points(floor)
    sweep = whole_points + worth * majority_gain(taker, other, everything + 1)
    values[J_KIND] = sweep + 1
    values[SEVEN_D_KIND] = sweep + (BASRA_POINTS if is_basra(KIND_CARD[SEVEN_D_KIND], floor, rules) else 0)
    mask = _sums_mask(floor)
    ranks = {c.rank for c in floor}
    for kind in range(KINDS):
        if kind in (J_KIND, SEVEN_D_KIND):
            continue
        card = KIND_CARD[kind]
        if kind in (Q_KIND, K_KIND):
            if card.rank not in ranks:
                continue
        elif not mask >> card.value & 1:
            continue
        best = 0.0
        for positions in plan_positions_for(card, floor):
            points = KIND_POINTS[kind]
            for i in positions:
                points += floor[i].points
            if len(positions) == everything:
                points += BASRA_POINTS
            value = points + worth * majority_gain(taker, other, len(positions) + 1)
            if value > best:
                best = value
        values[kind] = best
    return values


def chance_of_none(values: Sequence[float], pool: Sequence[int], pool_size: int,
                   known: Sequence[Card], cards: int) -> float:
    """The chance that a hand like the one ``expected_best`` weighs holds no
    card of positive value."""
    for card in known:
        if values[KIND_OF[card.index]] > 0:
            return 0.0
    draws = min(cards - len(known), pool_size)
    bad = sum(pool[k] for k, v in enumerate(values) if v > 0)
    none = 1.0
    for i in range(draws):
        if pool_size - bad - i <= 0:
            return 0.0
        none *= (pool_size - bad - i) / (pool_size - i)
    return none


def own_best(hand: Sequence[Card], played: Card, floor: Sequence[Card], rules: Rules,
             worth: int, mine: int, theirs: int) -> float:
    """The best capture the rest of ``hand`` has on ``floor``, to this side."""
    best = 0.0
    if not floor:
        return best
    mask = _sums_mask(floor)
    ranks = {c.rank for c in floor}
    for card in hand:
        if card is played:
            continue
        if card.is_sweeper:
            pass
        elif card.value:
            if not mask >> card.value & 1:
                continue
        elif card.rank not in ranks:
            continue
        for positions in plan_positions_for(card, floor):
            value: float = capture_value(card, floor, positions, rules)
            value += worth * majority_gain(mine, theirs, len(positions) + 1)
            if value > best:
                best = value
    return best


def expected_best(values: Sequence[float], pool: Sequence[int], pool_size: int,
                  known: Sequence[Card], cards: int) -> float:
    """The expected best of ``values`` over a hand of ``cards`` cards: the
    ``known`` ones plus the rest drawn from ``pool`` without replacement."""
    floor_value = 0.0
    for card in known:
        v = values[KIND_OF[card.index]]
        if v > floor_value:
            floor_value = v
    draws = min(cards - len(known), pool_size)
    if draws <= 0:
        return floor_value
    ranked = sorted((v, k) for k, v in enumerate(values) if v > floor_value and pool[k])
    if not ranked:
        return floor_value
    total = floor_value
    covered = 0
    u = pool_size
    for j in range(len(ranked) - 1, -1, -1):
        v, k = ranked[j]
        covered += pool[k]
        lower = ranked[j - 1][0] if j else floor_value
        # chance that none of the `covered` best cards is drawn
        none = 1.0
        for i in range(draws):
            if u - covered - i <= 0:
                none = 0.0
                break
            none *= (u - covered - i) / (u - i)
        total += (v - lower) * (1.0 - none)
    return total


def judge(situation: Situation, card: Card, positions: Sequence[int] | None,
          weights: Weights = DEFAULT_WEIGHTS) -> float:
    """The worth of playing ``card`` (taking ``positions``, or laying it when
    None) for this seat's side, in points."""
    s = situation
    floor = s.floor
    rules = s.rules
    if positions is not None:
        taken = len(positions) + 1
        score: float = capture_value(card, floor, positions, rules)
        score += s.worth * majority_gain(s.mine, s.theirs, taken)
        mine = s.mine + taken
        if len(positions) == len(floor):
            left: Sequence[Card] = ()
        else:
            drop = set(positions)
            left = [c for i, c in enumerate(floor) if i not in drop]
    else:
        score = 0.0
        mine = s.mine
        left = [*floor, card]
    if s.last_play:
        # The round ends: leftovers go to the last side to capture.
        if left:
            if positions is not None or s.last_capture_mine:
                score += pile_points(left) + s.worth * majority_gain(mine, s.theirs, len(left))
            else:
                score -= pile_points(left) + s.worth * majority_gain(s.theirs, mine, len(left))
        return score
    if card.is_sweeper and len(s.hand) > 1:
        score -= weights.keep_sweeper
    if s.next_cards:
        values = capture_values(left, rules, s.worth, s.theirs, mine)
        score -= weights.reply * expected_best(values, s.pool, s.pool_size, s.next_known, s.next_cards)
        if weights.follow and left:
            # If the reply takes nothing, this side plays next on (about) this floor.
            quiet = chance_of_none(values, s.pool, s.pool_size, s.next_known, s.next_cards)
            if quiet > 0:
                if s.partner_cards:
                    ours = capture_values(left, rules, s.worth, mine, s.theirs)
                    follow = expected_best(ours, s.pool, s.pool_size, s.partner_known, s.partner_cards)
                elif len(s.hand) > 1:
                    follow = own_best(s.hand, card, left, rules, s.worth, mine, s.theirs)
                else:
                    follow = 0.0
                score += weights.follow * quiet * follow
    return score


def judge_all(situation: Situation, moves: Sequence[tuple[Card, Sequence[int] | None]],
              weights: Weights = DEFAULT_WEIGHTS) -> list[float]:
    return [judge(situation, card, positions, weights) for card, positions in moves]
