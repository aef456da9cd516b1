"""Capture plans: what a card can take from the floor (RULES.md section 3).

The search works on counts of interchangeable cards, never on subsets of
floor cards, so a floor of twenty number cards still answers quickly:

1. a remainder is what a plan leaves of the number cards that could join a
   sum; a plan is maximal exactly when its remainder has no group adding up
   to the card's value, so the remainders are enumerated kind by kind,
   pruning as soon as the value becomes reachable;
2. what is taken (everything but the remainder) must split into disjoint
   groups that each add up to the value; that is checked on count vectors,
   always placing first the highest kind left, whose groups are fewest.

Cards of one rank are interchangeable except 2C and 10D, so 2C is a kind of
its own (a 10D is never in a group: a lone 10 is a same-rank capture).
A 7D lying on the floor is a plain 7 here, interchangeable with the other
7s: only when played does it sweep.

>>> from core.cards import Card
>>> floor = [Card.parse(c) for c in "4S 6H 10C 3D".split()]
>>> [str(p) for p in capture_plans(Card.parse("10D"), floor)]
['4S 6H 10C']
>>> floor = [Card.parse(c) for c in "AH 2H 3S 4D".split()]
>>> [str(p) for p in capture_plans(Card.parse("6C"), floor)]
['AH 2H 3S', '2H 4D']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from .cards import Card
from .rules import Rules

_DEFAULT_RULES = Rules()


@dataclass(frozen=True, slots=True)
class Plan:
    """One way a card can capture: the floor cards it takes, in floor order."""

    taken: tuple[Card, ...]
    positions: tuple[int, ...]
    basra: bool

    def __str__(self) -> str:
        return " ".join(card.code for card in self.taken)

    def __len__(self) -> int:
        return len(self.taken)


# The search packs a count vector into one integer, four bits a field, one
# field per kind of card that can join a sum. Kinds are ordered by value, and
# the 2C is a field of its own: a 2 that is not interchangeable with the
# other 2s. The top bit of each field is a guard, so "does this group fit"
# is one subtraction. 10s never join a group (a lone 10 is a same-rank take).
_FIELDS = 10
_FIELD_VALUE = (1, 2, 2, 3, 4, 5, 6, 7, 8, 9)
_GUARD = sum(8 << (4 * f) for f in range(_FIELDS))


def _field(card: Card) -> int:
    """The card's field in a packed count vector; -2 for cards that never join a sum."""
    if card.code == "2C":
        return 2
    if 1 <= card.value <= 9:
        return card.value - 1 if card.value <= 2 else card.value
    return -2


def _all_groups() -> dict[int, list[list[int]]]:
    """For each value, every multiset of kinds adding up to it (two cards or more),
    packed and filed by its highest field: a 9 can only go with an ace, an 8
    with a 2 or two aces, so the split search starting there stays narrow."""
    table: dict[int, list[list[int]]] = {}
    for value in range(2, 11):
        by_highest: list[list[int]] = [[] for _ in range(_FIELDS)]

        def extend(f: int, left: int, highest: int, packed: int, value: int = value,
                   by_highest: list[list[int]] = by_highest) -> None:
            if left == 0:
                by_highest[highest].append(packed)
                return
            if f < 0:
                return
            most = 1 if f == 2 else 4
            for r in range(min(most, left // _FIELD_VALUE[f]), -1, -1):
                if r and _FIELD_VALUE[f] >= value:
                    continue
                extend(f - 1, left - r * _FIELD_VALUE[f], highest if highest >= 0 or r == 0 else f,
                       packed + (r << (4 * f)))

        extend(_FIELDS - 1, value, -1, 0)
        table[value] = by_highest
    return table


_GROUPS = _all_groups()
# _LAYOUT_CODES[value][card.index]: the card's code in a layout for a number
# card of that value: -1 same rank, -2 cannot join a sum, else its field.
_LAYOUT_CODES = tuple(
    tuple(
        -1 if c.value == value else _field(c) if 0 < c.value < value else -2
        for c in Card.deck()
    )
    for value in range(11)
)


def capture_plans(card: Card, floor: Sequence[Card], rules: Rules | None = None) -> tuple[Plan, ...]:
    """Every maximal plan for ``card`` on ``floor``, numbered by position in the tuple.

    Pure: the same card, floor and rules always give the same plans, in the
    order of RULES.md (more cards first, then earlier floor positions).
    An empty tuple means the card takes nothing.
    """
    if rules is None:
        rules = _DEFAULT_RULES
    everything = len(floor)
    return tuple(
        Plan(
            tuple(floor[i] for i in positions),
            positions,
            len(positions) == everything and is_basra(card, floor, rules),
        )
        for positions in plan_positions_for(card, floor)
    )


_ALL_POSITIONS = tuple(tuple(range(n)) for n in range(53))


def plan_positions_for(card: Card, floor: Sequence[Card]) -> tuple[tuple[int, ...], ...]:
    """The plans of ``card`` as sorted floor positions, in plan order (no Plan objects)."""
    if not floor:
        return ()
    if card.is_sweeper:
        return (_ALL_POSITIONS[len(floor)],)
    rank = card.rank
    if not card.is_number:
        same = tuple(i for i, c in enumerate(floor) if c.rank == rank)
        return (same,) if same else ()
    value = card.value
    table = _LAYOUT_CODES[value]
    return _number_plans(value, tuple([table[c.index] for c in floor]))


def is_basra(card: Card, floor: Sequence[Card], rules: Rules) -> bool:
    """Whether taking the whole of ``floor`` with ``card`` is a basra (RULES.md section 4)."""
    if card.is_jack or not floor:
        return False
    if card.is_seven_of_diamonds:
        if rules.seven_diamonds_basra == "count":
            return len(floor) <= 10 and not any(c.rank in ("Q", "K") for c in floor)
        return all(c.is_number for c in floor) and sum(c.value for c in floor) <= 10
    return True


@lru_cache(maxsize=1 << 15)
def _number_plans(value: int, layout: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Plans as sorted position tuples, for a number card of ``value``.

    ``layout`` gives each floor position's kind, -1 for same-rank cards
    (always taken). Cached: the computer players ask the same questions often.
    """
    return plan_positions(value, layout)


def plan_positions(value: int, layout: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The uncached search behind ``capture_plans`` for number cards.

    ``layout`` holds each floor position's field, -1 for a same-rank card
    (always taken) and -2 for a card that cannot join a sum for this value.
    """
    same: list[int] = []
    candidates: list[tuple[int, int]] = []
    packed_counts = 0
    total = 0
    for i, field in enumerate(layout):
        if field == -1:
            same.append(i)
        elif field >= 0:
            candidates.append((i, 4 * field))
            packed_counts += 1 << (4 * field)
            total += _FIELD_VALUE[field]
    if total < value:
        # Nothing can add up to the value: the same-rank cards are the only plan.
        return (tuple(same),) if same else ()
    plans = []
    for taking in _takings(value, packed_counts):
        # Of interchangeable cards, a plan takes the first on the floor.
        positions = list(same)
        for i, shift in candidates:
            if (taking >> shift) & 15:
                taking -= 1 << shift
                positions.append(i)
        if positions:
            positions.sort()
            plans.append(tuple(positions))
    plans.sort(key=_plan_order)
    return tuple(plans)


def _plan_order(positions: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return (-len(positions), positions)


@lru_cache(maxsize=1 << 15)
def _takings(value: int, packed_counts: int) -> tuple[int, ...]:
    """``_maximal_takings`` cached on the counts alone, which repeat far more
    often than whole floors do."""
    counts = [(packed_counts >> (4 * f)) & 15 for f in range(_FIELDS)]
    return tuple(_maximal_takings(value, counts))


def _maximal_takings(value: int, counts: list[int]) -> list[int]:
    """Packed count vectors that split into groups adding up to ``value`` and
    leave no such group among the cards they do not take."""
    present = [f for f in range(_FIELDS) if counts[f]]
    packed_counts = sum(counts[f] << (4 * f) for f in present)
    if not present:
        return [0]
    groups = _GROUPS[value]
    total = sum(counts[f] * _FIELD_VALUE[f] for f in present)
    goal_bit = 1 << value
    full = (1 << (value + 1)) - 1
    split_memo: dict[int, bool] = {}

    def splits(taken: int) -> bool:
        """Can ``taken`` be cut into disjoint groups that each add up to the value?"""
        if not taken:
            return True
        known = split_memo.get(taken)
        if known is not None:
            return known
        guarded = taken | _GUARD
        answer = False
        for group in groups[(taken.bit_length() - 1) >> 2]:
            rest = guarded - group
            if rest & _GUARD == _GUARD and splits(rest ^ _GUARD):
                answer = True
                break
        split_memo[taken] = answer
        return answer

    # Walk the kinds in order, keeping what a plan may leave of the kinds seen
    # so far, filed by the state that matters for the rest: the reachable sums
    # that later kinds could still bring up to the value, and the left total
    # modulo the value. Branches with one state share one list.
    m = len(present)
    relevant = [0] * (m + 1)
    suffix_sums = 1
    for k in range(m, -1, -1):
        if k < m:
            for _ in range(counts[present[k]]):
                suffix_sums |= (suffix_sums << _FIELD_VALUE[present[k]]) & full
        relevant[k] = sum(1 << (value - x) for x in range(value + 1) if suffix_sums >> x & 1)
    # residues[k]: the totals, modulo the value, that the kinds from present[k]
    # on could still leave; a branch that cannot end on the wanted total is cut.
    wanted = total % value
    residues = [1] * (m + 1)
    for k in range(m - 1, -1, -1):
        step = _FIELD_VALUE[present[k]]
        reachable_residues = 0
        for r in range(counts[present[k]] + 1):
            shift_by = (r * step) % value
            later = residues[k + 1]
            reachable_residues |= ((later << shift_by) | (later >> (value - shift_by))) & ((1 << value) - 1)
        residues[k] = reachable_residues
    states: dict[tuple[int, int], list[int]] = {(1, 0): [0]}
    for k, f in enumerate(present):
        v = _FIELD_VALUE[f]
        keep = relevant[k + 1]
        later = residues[k + 1]
        shift = 4 * f
        following: dict[tuple[int, int], list[int]] = {}
        for (reachable, residue), lefts in states.items():
            for r in range(counts[f] + 1):
                if r:
                    reachable |= (reachable << v) & full
                    if reachable & goal_bit:
                        break
                left_total = (residue + r * v) % value
                if not later >> ((wanted - left_total) % value) & 1:
                    continue
                key = (reachable & keep, left_total)
                bucket = following.get(key)
                if bucket is None:
                    bucket = following[key] = []
                if r:
                    add = r << shift
                    bucket.extend([left + add for left in lefts])
                else:
                    bucket.extend(lefts)
        states = following
    candidates = [left for (_, residue), lefts in states.items() if residue == wanted for left in lefts]
    return [packed_counts - left for left in candidates if splits(packed_counts - left)]
