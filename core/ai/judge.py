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
    MAJORITY_SHARE,
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


Options = tuple[tuple[tuple[int, int], ...], ...]
_OPTIONS: dict[int, Options] = {}
_OPTIONS_LIMIT = 1 << 17


def floor_options(floor: Sequence[Card], rules: Rules) -> Options:
    """For each kind, its captures on ``floor`` as (points, cards) pairs: card
    points and basra of the capture, played card included, and how many cards
    it puts in the pile. Cached on the set of floor cards: their order changes
    which positions are taken, never what a capture is worth."""
    key = 0
    for c in floor:
        key |= 1 << c.index
    if rules.seven_diamonds_basra == "count":
        key |= 1 << 52
    known = _OPTIONS.get(key)
    if known is not None:
        return known
    options: list[tuple[tuple[int, int], ...]] = [()] * KINDS
    if floor:
        everything = len(floor)
        whole_points = pile_points(floor)
        options[J_KIND] = ((whole_points + 1, everything + 1),)
        seven = KIND_CARD[SEVEN_D_KIND]
        options[SEVEN_D_KIND] = (
            (whole_points + (BASRA_POINTS if is_basra(seven, floor, rules) else 0), everything + 1),
        )
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
            found = set()
            for positions in plan_positions_for(card, floor):
                points = KIND_POINTS[kind]
                for i in positions:
                    points += floor[i].points
                if len(positions) == everything:
                    points += BASRA_POINTS
                found.add((points, len(positions) + 1))
            options[kind] = tuple(sorted(found, reverse=True))
    if len(_OPTIONS) >= _OPTIONS_LIMIT:
        _OPTIONS.clear()
    result = tuple(options)
    _OPTIONS[key] = result
    return result


def _best(options: tuple[tuple[int, int], ...], worth: int, taker: int, other: int) -> float:
    row = MAJORITY_SHARE
    base = row[taker][other]
    best = 0.0
    for points, cards in options:
        value = points + worth * (row[min(52, taker + cards)][other] - base)
        if value > best:
            best = value
    return best


def capture_values(floor: Sequence[Card], rules: Rules, worth: int, taker: int, other: int) -> list[float]:
    """For each kind, what its best capture on ``floor`` is worth to the side that
    plays it, which has taken ``taker`` cards to the other side's ``other``
    (0 when it takes nothing)."""
    if not floor:
        return [0.0] * KINDS
    return [_best(o, worth, taker, other) if o else 0.0 for o in floor_options(floor, rules)]


def own_best(hand: Sequence[Card], played: Card, floor: Sequence[Card], rules: Rules,
             worth: int, mine: int, theirs: int) -> float:
    """The best capture the rest of ``hand`` has on ``floor``, to this side."""
    if not floor:
        return 0.0
    options = floor_options(floor, rules)
    best = 0.0
    for card in hand:
        if card is played:
            continue
        found = options[KIND_OF[card.index]]
        if found:
            value = _best(found, worth, mine, theirs)
            if value > best:
                best = value
    return best


def _none_table() -> tuple[tuple[tuple[float, ...], ...], ...]:
    """NONE[draws][size][marked]: the chance that ``draws`` cards drawn from ``size``
    cards, ``marked`` of them marked, hold no marked card."""
    table = []
    for draws in range(HAND_LIMIT + 1):
        rows = []
        for size in range(53):
            row = []
            for marked in range(size + 1):
                none = 1.0
                for i in range(min(draws, size)):
                    if size - marked - i <= 0:
                        none = 0.0
                        break
                    none *= (size - marked - i) / (size - i)
                row.append(none)
            rows.append(tuple(row))
        table.append(tuple(rows))
    return tuple(table)


HAND_LIMIT = 4
NONE = _none_table()


def reply(values: Sequence[float], pool: Sequence[int], pool_size: int,
          known: Sequence[Card], cards: int) -> tuple[float, float]:
    """Over a hand of ``cards`` cards, the ``known`` ones plus the rest drawn from
    ``pool`` without replacement: the expected best of ``values``, and the chance
    that no card in it has a positive value."""
    floor_value = 0.0
    for card in known:
        v = values[KIND_OF[card.index]]
        if v > floor_value:
            floor_value = v
    draws = min(cards - len(known), pool_size, HAND_LIMIT)
    if draws <= 0:
        return floor_value, 0.0 if floor_value > 0 else 1.0
    ranked = [(v, pool[k]) for k, v in enumerate(values) if v > floor_value and pool[k]]
    if not ranked:
        return floor_value, 0.0 if floor_value > 0 else 1.0
    ranked.sort()
    row = NONE[draws][pool_size]
    total = floor_value
    covered = 0
    for j in range(len(ranked) - 1, -1, -1):
        v, count = ranked[j]
        covered += count
        lower = ranked[j - 1][0] if j else floor_value
        total += (v - lower) * (1.0 - row[covered])
    quiet = row[covered] if floor_value <= 0 else 0.0
    return total, quiet


def expected_best(values: Sequence[float], pool: Sequence[int], pool_size: int,
                  known: Sequence[Card], cards: int) -> float:
    """The expected best of ``values`` over a hand (see ``reply``)."""
    return reply(values, pool, pool_size, known, cards)[0]


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
        expected, quiet = reply(values, s.pool, s.pool_size, s.next_known, s.next_cards)
        score -= weights.reply * expected
        if weights.follow and left and quiet > 0:
            # If the reply takes nothing, this side plays next on (about) this floor.
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
