"""A wave's pairing (``bots.service.pairing``): as many pairs as allowed, nobody twice, never
two who must stay apart, and the closest ratings when there is a choice."""

from __future__ import annotations

import doctest
from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from bots.service import pairing


@dataclass(frozen=True)
class Waiting:
    player_id: str
    rating: float
    joined_at: float


def test_the_examples_in_its_docs_hold() -> None:
    assert doctest.testmod(pairing).failed == 0


people = st.lists(
    st.tuples(st.floats(-10, 40, allow_nan=False), st.floats(0, 120, allow_nan=False)),
    max_size=24,
).map(lambda rows: [Waiting(f"p{i}", rating, -waited) for i, (rating, waited) in enumerate(rows)])


@given(people, st.sets(st.tuples(st.integers(0, 23), st.integers(0, 23)), max_size=30))
def test_nobody_twice_and_every_pair_may_meet(
    waiting: list[Waiting], apart_ids: set[tuple[int, int]]
) -> None:
    apart = {frozenset((f"p{a}", f"p{b}")) for a, b in apart_ids if a != b}
    chosen = pairing.pairs(waiting, now=0.0, apart=apart)
    seated = [p for pair in chosen for p in pair]
    assert len(seated) == len(set(seated))
    by_id = {w.player_id: w for w in waiting}
    for a, b in chosen:
        assert frozenset((a, b)) not in apart
        assert pairing.may_meet(by_id[a], by_id[b], 0.0)
        assert by_id[a].joined_at <= by_id[b].joined_at
    # As many pairs as allowed: no two people left over could have met.
    left = [w for w in waiting if w.player_id not in seated]
    for i, a in enumerate(left):
        for b in left[i + 1:]:
            assert frozenset((a.player_id, b.player_id)) in apart or not pairing.may_meet(a, b, 0.0)


def test_closest_ratings_are_paired_when_both_pairings_seat_everyone() -> None:
    waiting = [Waiting("a", 0, 0), Waiting("b", 4, 0), Waiting("c", 1, 0), Waiting("d", 5, 0)]
    assert sorted(sorted(p) for p in pairing.pairs(waiting, now=0.0)) == [["a", "c"], ["b", "d"]]


def test_a_longer_wait_is_paired_first_when_only_one_pair_can_be() -> None:
    waiting = [Waiting("new", 0, 0), Waiting("old", 0, -30), Waiting("older", 0, -40)]
    assert pairing.pairs(waiting, now=0.0) == [("older", "old")]
