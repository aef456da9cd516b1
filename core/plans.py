"""Capture plans: what a card can take from the floor (RULES.md section 3).

The search works on counts of interchangeable cards, never on subsets of
floor cards, so a floor of twenty number cards still answers quickly:

1. a remainder is what a plan leaves of the number cards that could join a
   sum; a plan is maximal exactly when its remainder has no group adding up
   to the card's value. Such remainders are few (5,175 for a 10 over a
   whole deck), so they are listed once per value when the module loads,
   filed by their total modulo the value; a floor keeps those within its
   own counts whose total leaves a multiple of the value to take. A small
   floor lists its own instead, kind by kind, pruning as soon as the value
   becomes reachable;
2. what is taken (everything but the remainder) must split into disjoint
   groups that each add up to the value; that is checked on count vectors
   (a 2C counting as a 2), always placing first the highest kind left,
   whose groups are fewest.

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

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice
from typing import Final

from .cards import Card
from .errors import BadArgument, shown
from .rules import Rules

_DEFAULT_RULES = Rules.preset("default")


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
# A layout gives each floor position a byte, for a number card of one value:
# the card's field when it can join a sum, SAME for a card of the played
# rank (always taken), APART for a card that can do neither.
SAME = 10
APART = 11
_APART_BYTE = bytes([APART])
# A card's kind: its value for number cards, then 11, 12 and 13 for jacks,
# queens and kings (a jack lying on the floor is no queen's or king's).
_KIND = bytes(c.value or 11 + ("J", "Q", "K").index(c.rank) for c in Card.deck())
# _LAYOUT_TABLES[kind]: a bytes.translate table from card index to layout byte.
_LAYOUT_TABLES = tuple(
    bytes(
        SAME
        if _KIND[c.index] == kind
        else _field(c)
        if 0 < c.value < kind <= 10
        else APART
        for c in Card.deck()
    ).ljust(256, bytes([APART]))
    for kind in range(14)
)
# The plans of each layout met so far, one dict per kind; see remember.
_LAYOUT_LIMIT: Final = 1 << 13  # per kind and cache: the layout dicts hold about 15 MB when full
_BY_LAYOUT: Final[tuple[dict[bytes, tuple[tuple[int, ...], ...]], ...]] = tuple({} for _ in range(14))
# Per card index, what its plans are looked up with: the layout table, the
# cache and the card's kind; None for the sweepers (jacks and the 7D), which
# take the whole floor. Final, like the other tables the lookups read: compiled,
# they are C statics rather than names looked up on every play.
CARD_LOOKUPS: Final = tuple(
    None if c.is_sweeper else (_LAYOUT_TABLES[_KIND[c.index]], _BY_LAYOUT[_KIND[c.index]], _KIND[c.index])
    for c in Card.deck()
)


def capture_plans(card: object, floor: object, rules: object = None) -> tuple[Plan, ...]:
    """Every maximal plan for ``card`` on ``floor``, numbered by position in the tuple.

    Pure: the same card, floor and rules always give the same plans, in the
    order of RULES.md (more cards first, then earlier floor positions).
    An empty tuple means the card takes nothing. ``card`` is a Card, ``floor``
    a list of different Cards and ``rules`` a Rules (the defaults when None);
    anything else is a BadArgument.
    """
    if not isinstance(card, Card):
        raise BadArgument(f"not a card: {shown(card)}")
    if isinstance(floor, (str, bytes)) or not isinstance(floor, Sequence):
        raise BadArgument(f"a floor is a list of cards, not {shown(floor)}")
    cards: list[Card] = []
    for item in floor:
        if not isinstance(item, Card):
            raise BadArgument(f"floor: not a card: {shown(item)}")
        cards.append(item)
    if len(set(cards)) != len(cards):
        raise BadArgument("floor: the same card twice")
    if rules is None:
        rules = _DEFAULT_RULES
    elif not isinstance(rules, Rules):
        raise BadArgument(f"rules must be a Rules, not {shown(rules)}")
    return plans_on(card, cards, rules)


def plans_on(card: Card, floor: Sequence[Card], rules: Rules) -> tuple[Plan, ...]:
    """``capture_plans`` for a floor the engine keeps itself, which needs no checks."""
    everything = len(floor)
    return tuple(
        Plan(
            tuple(map(floor.__getitem__, positions)),
            positions,
            len(positions) == everything and is_basra(card, floor, rules),
        )
        for positions in plan_positions_for(card, floor)
    )


ALL_POSITIONS: Final = tuple(tuple(range(n)) for n in range(53))


def plan_positions_for(
    card: Card, floor: Sequence[Card], indexes: bytes | None = None
) -> tuple[tuple[int, ...], ...]:
    """The plans of ``card`` as sorted floor positions, in plan order (no Plan objects).

    ``indexes``, when given, is ``bytes(c.index for c in floor)``, which a
    caller that keeps it up to date saves building here.
    """
    if not floor:
        return ()
    lookup = CARD_LOOKUPS[card.index]
    if lookup is None:
        return (ALL_POSITIONS[len(floor)],)  # a sweeper takes everything
    if indexes is None:
        indexes = bytes([c.index for c in floor])
    table, known, kind = lookup
    layout = indexes.translate(table)
    found = known.get(layout)
    return found if found is not None else remember(kind, layout)


def remember(kind: int, layout: bytes) -> tuple[tuple[int, ...], ...]:
    """Search a layout not yet in the cache and keep the answer.

    The caches are plain dicts, bounded by ``_keep``: several times quicker
    to ask than an ``lru_cache``, and most questions are repeats."""
    if kind > 10:
        same = tuple([i for i, code in enumerate(layout) if code == SAME])
        found: tuple[tuple[int, ...], ...] = (same,) if same else ()
    else:
        found = plan_positions(kind, layout)
    return _keep(_BY_LAYOUT[kind], layout, found)


def _keep(
    cache: dict[bytes, tuple[tuple[int, ...], ...]], layout: bytes, plans: tuple[tuple[int, ...], ...]
) -> tuple[tuple[int, ...], ...]:
    """Cache ``plans`` for ``layout``; a full cache forgets its older half first."""
    if len(cache) >= _LAYOUT_LIMIT:
        for key in list(islice(cache, _LAYOUT_LIMIT // 2)):
            del cache[key]
    cache[layout] = plans
    return plans


def is_basra(card: Card, floor: Sequence[Card], rules: Rules) -> bool:
    """Whether taking the whole of ``floor`` with ``card`` is a basra (RULES.md section 4)."""
    if card.is_jack or not floor:
        return False
    if card.is_seven_of_diamonds:
        if rules.seven_diamonds_basra == "count":
            return len(floor) <= 10 and not any(c.rank in ("Q", "K") for c in floor)
        return all(c.is_number for c in floor) and sum(c.value for c in floor) <= 10
    return True


def plan_positions(value: int, layout: bytes) -> tuple[tuple[int, ...], ...]:
    """The search behind ``capture_plans`` for a number card of ``value``.

    ``layout`` holds a byte for each floor position: its field, ``SAME`` or
    ``APART``. Cards apart change nothing but the positions, so the plans
    come from the layout without them (cached, and shared by many floors)
    and are moved back to the floor's positions.
    """
    relevant = layout.translate(None, _APART_BYTE)
    known = _RELEVANT[value]
    plans = known.get(relevant)
    if plans is None:
        plans = _keep(known, relevant, _relevant_plans(value, relevant))
    if len(relevant) == len(layout) or not plans:
        return plans
    where = [i for i, code in enumerate(layout) if code != APART]
    return tuple([tuple([where[i] for i in positions]) for positions in plans])


def _relevant_plans(value: int, layout: bytes) -> tuple[tuple[int, ...], ...]:
    """Plans on a layout of cards that are all of the played rank or can join a sum."""
    same: list[int] = []
    where: dict[int, list[int]] = {}
    packed_counts = 0
    total = 0
    for i, field in enumerate(layout):
        if field == SAME:
            same.append(i)
        else:
            packed_counts += 1 << (4 * field)
            total += _FIELD_VALUE[field]
            if field in where:
                where[field].append(i)
            else:
                where[field] = [i]
    if total < value:
        # Nothing can add up to the value: the same-rank cards are the only plan.
        return (tuple(same),) if same else ()
    # Of interchangeable cards, a plan takes the first on the floor:
    # firsts[k] are the positions of the first k cards of a field.
    present = [(4 * field, [at[:k] for k in range(len(at) + 1)]) for field, at in where.items()]
    plans = []
    for taking in _takings(value, packed_counts):
        positions = same[:]
        for shift, firsts in present:
            positions += firsts[(taking >> shift) & 15]
        if positions:
            positions.sort()
            plans.append(tuple(positions))
    plans.sort(key=_plan_order)
    return tuple(plans)


# The plans of the cards that matter, cached on layouts without the cards
# apart: random floors share their relevant cards far more often than
# whole layouts.
_RELEVANT: Final[tuple[dict[bytes, tuple[tuple[int, ...], ...]], ...]] = tuple({} for _ in range(11))


def clear_caches() -> None:
    """Forget every cached answer (for timing the search cold)."""
    for by_layout in _BY_LAYOUT:
        by_layout.clear()
    for relevant in _RELEVANT:
        relevant.clear()
    _takings.cache_clear()


def _plan_order(positions: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    return (-len(positions), positions)


@lru_cache(maxsize=1 << 15)
def _takings(value: int, packed_counts: int) -> tuple[int, ...]:
    """Packed count vectors that split into groups adding up to ``value`` and
    leave no such group among the cards they do not take.

    Cached on the counts alone, which repeat far more often than whole floors do.
    """
    total = 0
    bound = 1  # how many remainders this floor allows at most
    for f in range(_FIELDS):
        count = (packed_counts >> (4 * f)) & 15
        if count:
            total += count * _FIELD_VALUE[f]
            bound *= count + 1
    if total <= value:
        # Every card here is worth less than the value: all of them make one
        # group, or nothing can be taken.
        return (packed_counts,) if total == value else (0,)
    wanted = total % value
    table = _REMAINDERS[value][wanted]
    if bound < len(table) or (_CAPS_GUARDED - packed_counts) & _GUARD != _GUARD:
        # Search this floor's own remainders: fewer than the deck-wide table
        # holds (or more cards of a kind than a deck holds: not a real floor).
        lefts = [packed for packed, left in _value_free(value, packed_counts) if left % value == wanted]
        table = tuple(lefts)
    guarded = packed_counts | _GUARD
    # A plan leaves a remainder with no group adding up to the value (else it
    # would take that group too) and takes a multiple of the value.
    fitting = [packed_counts - left for left in table if (guarded - left) & _GUARD == _GUARD]
    if total < 2 * value:
        return tuple(fitting)  # what is taken adds up to the value: one group, or nothing
    splits = _splitter(value)
    return tuple(taking for taking in fitting if splits(taking))


def _splitter(value: int) -> Callable[[int], bool]:
    """Whether a packed count vector can be cut into disjoint groups that each
    add up to the value; remembers its answers for one search."""
    groups = _MERGED_GROUPS[value]
    memo: dict[int, bool] = {0: True}

    def splits(taken: int) -> bool:
        guarded = taken | _GUARD
        answer = False
        for group in groups[(taken.bit_length() - 1) >> 2]:
            rest = guarded - group
            if rest & _GUARD == _GUARD:
                rest ^= _GUARD
                known = memo.get(rest)
                if known is None:
                    known = splits(rest)
                if known:
                    answer = True
                    break
        memo[taken] = answer
        return answer

    def merged_splits(taken: int) -> bool:
        # For sums a 2C is a 2 like any other: fold its field into the 2s.
        two_clubs = taken & _TWO_CLUBS_FIELD
        if two_clubs:
            taken += (two_clubs >> 4) - two_clubs
        known = memo.get(taken)
        return splits(taken) if known is None else known

    return merged_splits


def _value_free(value: int, packed_counts: int) -> list[tuple[int, int]]:
    """Every packed vector within ``packed_counts`` with no group of cards
    adding up to ``value`` (the remainders a maximal plan may leave), each
    with its total."""
    goal = 1 << value
    full = (goal << 1) - 1
    # (reachable, packed, total): bit s of ``reachable`` is set when some of
    # the cards chosen so far add up to s.
    found = [(1, 0, 0)]
    for f in range(_FIELDS):
        v = _FIELD_VALUE[f]
        count = (packed_counts >> (4 * f)) & 15
        if not count or v >= value:
            continue
        shift = 4 * f
        grown = []
        for reachable, packed, total in found:
            grown.append((reachable, packed, total))
            for r in range(1, count + 1):
                reachable |= (reachable << v) & full
                if reachable & goal:
                    break
                grown.append((reachable, packed + (r << shift), total + r * v))
        found = grown
    return [(packed, total) for _, packed, total in found]


# The most of each kind a deck holds: four of a rank, three 2s besides the 2C.
_CAPS = sum((1 if f == 2 else 3 if f == 1 else 4) << (4 * f) for f in range(_FIELDS))
_CAPS_GUARDED = _CAPS | _GUARD
_TWO_CLUBS_FIELD = 15 << 8


def _remainders_by_residue(value: int) -> tuple[tuple[int, ...], ...]:
    by_residue: list[list[int]] = [[] for _ in range(value)]
    for packed, total in _value_free(value, _CAPS):
        by_residue[total % value].append(packed)
    return tuple(map(tuple, by_residue))


# _REMAINDERS[value][t]: the remainders a maximal plan for ``value`` may leave
# on any floor a deck allows, filed by their total modulo the value (a plan
# takes a multiple of the value, so only one file fits a given floor).
# About 10,000 small integers in all, built once.
_REMAINDERS = tuple(_remainders_by_residue(value) if value else () for value in range(11))
# Groups for the split check, where a 2C counts as one more 2.
_MERGED_GROUPS = {
    value: [[group for group in groups if not group & _TWO_CLUBS_FIELD] for groups in by_highest]
    for value, by_highest in _GROUPS.items()
}
