"""A plain reading of RULES.md sections 3 and 4, to check the engine's fast search against.

Straightforward on purpose: it tries every subset of the floor cards that
could join a sum, so it is only fit for floors with a dozen or so of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from functools import cache
from itertools import combinations

from core import Card, Rules


def kind(card: Card) -> str:
    """Cards of one kind are interchangeable: one rank, except the 2C and 10D."""
    return card.code if card.code in ("2C", "10D") else card.rank


@cache
def has_group(values: tuple[int, ...], target: int) -> bool:
    """Whether some of ``values`` (sorted) add up to ``target``."""
    reachable = {0}
    for v in values:
        reachable |= {r + v for r in reachable if r + v <= target}
    return target in reachable


@cache
def splits_into_groups(values: tuple[int, ...], target: int) -> bool:
    """Whether ``values`` (sorted) can be cut into disjoint groups each adding up to ``target``."""
    if not values:
        return True
    if sum(values) % target:
        return False
    largest, rest = values[-1], values[:-1]
    for size in range(1, len(rest) + 1):
        for chosen in set(combinations(rest, size)):
            if largest + sum(chosen) == target:
                left = list(rest)
                for v in chosen:
                    left.remove(v)
                if splits_into_groups(tuple(left), target):
                    return True
    return False


def reference_basra(card: Card, floor: Sequence[Card], rules: Rules) -> bool:
    """Taking the whole of ``floor`` with ``card``: is it a basra (section 4)?"""
    if not floor or card.rank == "J":
        return False
    if card.code == "7D":
        if rules.seven_diamonds_basra == "count":
            return len(floor) <= 10 and not any(c.rank in ("Q", "K") for c in floor)
        return all(c.value > 0 for c in floor) and sum(c.value for c in floor) <= 10
    return True


def reference_plans(card: Card, floor: Sequence[Card]) -> list[tuple[int, ...]]:
    """The plans of ``card`` on ``floor`` as sorted floor positions, numbered in order."""
    if not floor:
        return []
    if card.rank == "J" or card.code == "7D":
        return [tuple(range(len(floor)))]
    same = [i for i, c in enumerate(floor) if c.rank == card.rank]
    if card.value == 0:
        return [tuple(same)] if same else []
    value = card.value
    candidates = [i for i, c in enumerate(floor) if 0 < c.value < value]
    plans = []
    for size in range(len(candidates) + 1):
        for taken in combinations(candidates, size):
            left = tuple(sorted(floor[i].value for i in candidates if i not in taken))
            if has_group(left, value):
                continue  # not maximal
            if not splits_into_groups(tuple(sorted(floor[i].value for i in taken)), value):
                continue
            positions = tuple(sorted(same + list(taken)))
            if positions:
                plans.append(positions)
    plans.sort(key=lambda p: (-len(p), p))
    out: list[tuple[int, ...]] = []
    seen: set[frozenset[tuple[str, int]]] = set()
    for positions in plans:
        key = frozenset(Counter(kind(floor[i]) for i in positions).items())
        if key not in seen:
            seen.add(key)
            out.append(positions)
    return out
