"""What a floor offers, and the odds that a hand holds what takes it.

``floor_options`` lists, for each kind of card, the captures it has on a
floor as (points, cards) pairs, packed; it is cached on the set of floor cards, since
their order changes which positions are taken but never what a capture is
worth. ``reply`` weighs those captures over a hand drawn from the cards a
seat cannot see: the hypergeometric odds say how likely the hand holds one of
the kinds that would take most.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...cards import Card
from ...plans import is_basra, plan_positions_for
from ...rules import Rules
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
)

BASRA_POINTS = 10
HAND_SIZE = 4

# A kind's captures on a floor, packed in one int: 12 bits per capture, the
# capture's points (6 bits: at most 10 for a basra and 13 in cards) then its
# cards (6 bits); 0 when the kind takes nothing.
Captures = int
# A floor's captures: a flat tuple of ints, the packed captures of each of the
# KINDS kinds, then the kinds that take something. Flat on purpose: the
# garbage collector stops tracking a tuple of ints at once, so a large cache
# of them adds nothing to its full collections, where nested tuples and
# objects would stay tracked and make every full collection slower.
Options = tuple[int, ...]


def pack(captures: set[tuple[int, int]]) -> Captures:
    """Pack (points, cards) captures, the most points first."""
    packed = 0
    for points, cards in sorted(captures):
        packed = packed << 12 | points << 6 | cards
    return packed


_OPTIONS: dict[int, Options] = {}
_OPTIONS_LIMIT = 1 << 15  # about 10 MB


def pile_points(cards: Sequence[Card]) -> int:
    return sum(c.points for c in cards)


def _sums_mask(floor: Sequence[Card]) -> int:
    """Bit v set when some number cards on the floor add up to v (v <= 10)."""
    mask = 1
    for c in floor:
        v = c.value
        if v:
            mask |= (mask << v) & 0x7FF
    return mask


def floor_key(floor: Sequence[Card], rules: Rules) -> int:
    """The cache key of a floor: a bit per card, and one for the 7D basra rule."""
    key = 1 << 52 if rules.seven_diamonds_basra == "count" else 0
    for c in floor:
        key |= 1 << c.index
    return key


def cached_options(key: int) -> Options | None:
    """The options of the floor with ``floor_key`` ``key``, if already worked out."""
    return _OPTIONS.get(key)


def floor_options(floor: Sequence[Card], rules: Rules, key: int | None = None) -> Options:
    """For each kind, its captures on ``floor`` as (points, cards) pairs: the
    card points and basra of the capture, played card included, and how many
    cards it puts in the pile."""
    if key is None:
        key = floor_key(floor, rules)
    known = _OPTIONS.get(key)
    if known is not None:
        return known
    options: list[Captures] = [0] * KINDS
    if floor:
        everything = len(floor)
        whole_points = pile_points(floor)
        options[J_KIND] = pack({(whole_points + 1, everything + 1)})
        seven = KIND_CARD[SEVEN_D_KIND]
        bonus = BASRA_POINTS if is_basra(seven, floor, rules) else 0
        options[SEVEN_D_KIND] = pack({(whole_points + bonus, everything + 1)})
        sums = _sums_mask(floor)
        ranks = {c.rank for c in floor}
        for kind in range(KINDS):
            if kind in (J_KIND, SEVEN_D_KIND):
                continue
            card = KIND_CARD[kind]
            if kind in (Q_KIND, K_KIND):
                if card.rank not in ranks:
                    continue
            elif not sums >> card.value & 1:
                continue
            found = set()
            for positions in plan_positions_for(card, floor):
                points = KIND_POINTS[kind]
                for i in positions:
                    points += floor[i].points
                if len(positions) == everything:
                    points += BASRA_POINTS
                found.add((points, len(positions) + 1))
            options[kind] = pack(found)
    if len(_OPTIONS) >= _OPTIONS_LIMIT:
        _OPTIONS.clear()
    result: Options = (*options, *(k for k, o in enumerate(options) if o))
    _OPTIONS[key] = result
    return result


def _by_other() -> tuple[tuple[float, ...], ...]:
    """SHARE_BY_OTHER[other][mine] = MAJORITY_SHARE[mine][other], padded past 52
    so that ``mine + cards`` never needs clamping."""
    return tuple(
        tuple(MAJORITY_SHARE[min(52, mine)][other] for mine in range(106)) for other in range(53)
    )


SHARE_BY_OTHER = _by_other()


def best_value(captures: Captures, worth: int, taker: int, other: int) -> float:
    """The best of ``captures`` to the side that makes it, which has taken ``taker``
    cards to the other side's ``other``: points plus its better chance at the majority."""
    share = SHARE_BY_OTHER[other]
    base = share[taker]
    best = 0.0
    while captures:
        value = (captures >> 6 & 63) + worth * (share[taker + (captures & 63)] - base)
        if value > best:
            best = value
        captures >>= 12
    return best


def _none_table() -> tuple[tuple[tuple[float, ...], ...], ...]:
    """NONE[draws][size][marked]: the chance that ``draws`` cards drawn from ``size``
    cards, ``marked`` of them marked, hold no marked card."""
    table = []
    for draws in range(HAND_SIZE + 1):
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


NONE = _none_table()


def reply(options: Options, worth: int, taker: int, other: int, pool: Sequence[int], pool_size: int,
          known: Sequence[Card], cards: int) -> tuple[float, float]:
    """For a hand of ``cards`` cards, the ``known`` ones plus the rest drawn from
    ``pool`` (kind counts) without replacement: the expected value of its best
    capture in ``options``, and the chance that it has no capture of any value."""
    sure = 0.0
    for card in known:
        captures = options[KIND_OF[card.index]]
        if captures:
            v = best_value(captures, worth, taker, other)
            if v > sure:
                sure = v
    quiet = 0.0 if sure > 0 else 1.0
    draws = cards - len(known)
    if draws > pool_size:
        draws = pool_size
    if draws > HAND_SIZE:
        draws = HAND_SIZE
    if draws <= 0:
        return sure, quiet
    share = SHARE_BY_OTHER[other]
    base = share[taker]
    ranked = []
    for kind in options[KINDS:]:
        count = pool[kind]
        if count:
            captures = options[kind]
            best = 0.0
            while captures:
                value = (captures >> 6 & 63) + worth * (share[taker + (captures & 63)] - base)
                if value > best:
                    best = value
                captures >>= 12
            if best > sure:
                ranked.append((best, count))
    if not ranked:
        return sure, quiet
    ranked.sort()
    row = NONE[draws][pool_size]
    total = sure
    covered = 0
    j = len(ranked) - 1
    while j >= 0:
        v, count = ranked[j]
        covered += count
        lower = ranked[j - 1][0] if j else sure
        total += (v - lower) * (1.0 - row[covered])
        j -= 1
    return total, quiet * row[covered]
