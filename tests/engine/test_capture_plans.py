"""RULES.md section 3: capture plans — sums, maximality, merging and numbering.

The engine's search works on counts of cards; ``reference.py`` reads the rule
book literally, trying subsets of floor cards, and the two must agree.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import Card, Plan, Rules, capture_plans

from .helpers import cards, codes, new_match
from .reference import has_group, kind, reference_basra, reference_plans

NUMBERS = [c for c in Card.deck() if c.is_number]
MAX_CANDIDATES = 12  # cards that could join a sum: the reference tries every subset of them


def taken(plans: tuple[Plan, ...]) -> list[list[str]]:
    return [codes(p.taken) for p in plans]


# -- the examples of the rule book ------------------------------------------


def test_example_floor_4s_6h_10c_3d_play_10d_takes_10c_4s_6h_and_3d_stays() -> None:
    plans = capture_plans(Card.parse("10D"), cards("4S 6H 10C 3D"))
    assert taken(plans) == [["4S", "6H", "10C"]]
    match = new_match(["KC KD KH KS", "10D 2D 3H 4D"], "4S 6H 10C 3D")
    match.play(1, "10D")
    assert codes(match.floor) == ["3D"]
    assert sorted(codes(match.piles[1])) == sorted(["10C", "4S", "6H", "10D"])


def test_example_floor_ah_2h_3s_4d_play_6c_has_the_plans_2h_4d_and_ah_2h_3s() -> None:
    plans = capture_plans(Card.parse("6C"), cards("AH 2H 3S 4D"))
    # More cards first: {AH,2H,3S} is plan 1, {2H,4D} plan 2.
    assert taken(plans) == [["AH", "2H", "3S"], ["2H", "4D"]]


def test_when_a_card_has_several_maximal_plans_the_player_chooses_one() -> None:
    match = new_match(["KC KD KH KS", "6C 2D 3H 5D"], "AH 2H 3S 4D")
    match.play(1, "6C", 2)
    assert codes(match.floor) == ["AH", "3S"]
    match = new_match(["KC KD KH KS", "6C 2D 3H 5D"], "AH 2H 3S 4D")
    match.play(1, "6C", 1)
    assert codes(match.floor) == ["4D"]
    match = new_match(["KC KD KH KS", "6C 2D 3H 5D"], "AH 2H 3S 4D")
    match.play(1, "6C")  # no choice given: plan 1
    assert codes(match.floor) == ["4D"]


def test_example_floor_ac_ad_4h_play_5s_is_one_plan_ac_4h_not_two() -> None:
    plans = capture_plans(Card.parse("5S"), cards("AC AD 4H"))
    assert taken(plans) == [["AC", "4H"]]


# -- what a plan is ----------------------------------------------------------


def test_same_rank_cards_are_always_in_the_plan() -> None:
    floor = cards("5C AH 2H 3S 4D 5H")
    plans = capture_plans(Card.parse("5S"), floor)
    assert plans
    for plan in plans:
        assert {"5C", "5H"} <= set(codes(plan.taken))


def test_same_rank_cards_alone_are_a_plan_when_no_group_adds_up() -> None:
    plans = capture_plans(Card.parse("9S"), cards("9C KH 4D 3S 9H"))
    assert taken(plans) == [["9C", "9H"]]


def test_any_number_of_disjoint_groups_are_taken_together() -> None:
    plans = capture_plans(Card.parse("10S"), cards("AH 9C 2H 8D 3S 7C 4D 6H 5C 5H"))
    # Five groups: A+9, 2+8, 3+7, 4+6, 5+5; the plan with every card comes first.
    assert taken(plans)[0] == ["AH", "9C", "2H", "8D", "3S", "7C", "4D", "6H", "5C", "5H"]


def test_a_plan_is_maximal_no_further_group_of_the_remaining_cards_adds_up() -> None:
    # {2H,4D} alone is not a plan here: AH and 5C left over add up to 6 as well.
    plans = capture_plans(Card.parse("6C"), cards("AH 2H 5C 4D"))
    assert taken(plans) == [["AH", "2H", "5C", "4D"]]


def test_a_maximal_plan_need_not_be_the_largest() -> None:
    plans = capture_plans(Card.parse("6C"), cards("AH 2H 3S 4D"))
    assert [len(p) for p in plans] == [3, 2]


def test_cards_of_one_rank_are_interchangeable_the_first_on_the_floor_stands() -> None:
    plans = capture_plans(Card.parse("5C"), cards("2H 2S 3C KD"))
    assert taken(plans) == [["2H", "3C"]]
    plans = capture_plans(Card.parse("8C"), cards("4H AD 4S 3C 3H AS"))
    # Many ways to pick the 4s, 3s and aces; no two plans left are the same kinds of cards.
    keys = [sorted(kind(c) for c in p.taken) for p in plans]
    assert len(keys) == len({tuple(k) for k in keys})


def test_2c_is_not_interchangeable_with_another_2() -> None:
    plans = capture_plans(Card.parse("5D"), cards("2H 2C 3S"))
    assert taken(plans) == [["2H", "3S"], ["2C", "3S"]]
    plans = capture_plans(Card.parse("5D"), cards("2H 2S 3S"))
    assert taken(plans) == [["2H", "3S"]]


def test_10d_is_not_interchangeable_with_another_10_but_a_10_takes_every_10_anyway() -> None:
    plans = capture_plans(Card.parse("10S"), cards("10D 4C 10H 6H 4D"))
    # 4C and 4D are interchangeable: one plan, the first 4 on the floor.
    assert taken(plans) == [["10D", "4C", "10H", "6H"]]


def test_aces_are_interchangeable_among_themselves() -> None:
    plans = capture_plans(Card.parse("3S"), cards("AC AD AH 2D"))
    # Three aces, or an ace and the 2: which ace goes with the 2 makes no difference.
    assert taken(plans) == [["AC", "AD", "AH"], ["AC", "2D"]]


# -- numbering ---------------------------------------------------------------


def test_plans_are_numbered_more_cards_first() -> None:
    plans = capture_plans(Card.parse("6C"), cards("4D AH 2H 3S"))
    assert taken(plans) == [["AH", "2H", "3S"], ["4D", "2H"]]


def test_then_the_plan_whose_sorted_floor_positions_come_first() -> None:
    plans = capture_plans(Card.parse("5D"), cards("2C 2H 3S"))
    assert [p.positions for p in plans] == [(0, 2), (1, 2)]
    plans = capture_plans(Card.parse("6S"), cards("4D 2H 2C KS"))
    assert [p.positions for p in plans] == [(0, 1), (0, 2)]


def test_plan_numbers_in_play_are_the_positions_in_plans_from_1() -> None:
    floor = "4D 2H 2C KS"
    for number in (1, 2):
        match = new_match(["KC KD KH QS", "6S 2D 3H 5D"], floor)
        plan = match.plans("6S")[number - 1]
        match.play(1, "6S", number)
        assert set(match.floor) == set(cards(floor)) - set(plan.taken)


def test_a_plans_cards_are_in_floor_order() -> None:
    plans = capture_plans(Card.parse("9C"), cards("5H KS 8D 4C AH"))
    for plan in plans:
        assert list(plan.positions) == sorted(plan.positions)
        assert codes(plan.taken) == [codes(cards("5H KS 8D 4C AH"))[i] for i in plan.positions]


def test_a_card_that_takes_nothing_has_no_plan() -> None:
    assert capture_plans(Card.parse("9C"), cards("5H KS 8D 2C")) == ()
    assert capture_plans(Card.parse("AC"), cards("5H KS 8D 2C")) == ()
    assert capture_plans(Card.parse("4C"), ()) == ()


def test_capture_plans_is_pure() -> None:
    floor = cards("AH 2H 3S 4D")
    first = capture_plans(Card.parse("6C"), floor)
    assert capture_plans(Card.parse("6C"), floor) == first
    assert capture_plans(Card.parse("6C"), tuple(floor), Rules()) == first
    assert codes(floor) == ["AH", "2H", "3S", "4D"]


# -- against the reference ----------------------------------------------------


def check_against_reference(card: Card, floor: list[Card], rules: Rules) -> None:
    plans = capture_plans(card, floor, rules)
    expected = reference_plans(card, floor)
    assert [p.positions for p in plans] == expected, (card, codes(floor))
    for plan in plans:
        assert plan.taken == tuple(floor[i] for i in plan.positions)
        whole = len(plan.positions) == len(floor)
        assert plan.basra == (whole and reference_basra(card, floor, rules))
        if card.is_number and not card.is_seven_of_diamonds:
            # Maximal: what is left holds no group adding up to the value.
            left = tuple(sorted(c.value for i, c in enumerate(floor)
                                if i not in plan.positions and c.value > 0))
            assert not has_group(tuple(v for v in left if v < card.value), card.value)


def limit_candidates(card: Card, floor: list[Card]) -> list[Card]:
    """Drop sum candidates beyond MAX_CANDIDATES so the reference stays quick."""
    out, candidates = [], 0
    for c in floor:
        if card.is_number and 0 < c.value < card.value:
            if candidates == MAX_CANDIDATES:
                continue
            candidates += 1
        out.append(c)
    return out


RULES = st.sampled_from([Rules(), Rules(seven_diamonds_basra="count")])


@settings(max_examples=250, deadline=None)
@given(st.data(), RULES)
def test_capture_plans_agree_with_the_reference_on_random_floors(data: st.DataObject, rules: Rules) -> None:
    card = data.draw(st.sampled_from(Card.deck()))
    others = [c for c in Card.deck() if c is not card]
    floor = data.draw(st.lists(st.sampled_from(others), unique=True, max_size=20))
    check_against_reference(card, limit_candidates(card, floor), rules)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_capture_plans_agree_with_the_reference_on_floors_of_small_number_cards(data: st.DataObject) -> None:
    card = data.draw(st.sampled_from([c for c in NUMBERS if c.value >= 4]))
    small = [c for c in NUMBERS if c.value < card.value]
    floor = data.draw(st.lists(st.sampled_from(small), unique=True, min_size=1, max_size=MAX_CANDIDATES))
    check_against_reference(card, floor, Rules())


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_capture_plans_agree_with_the_reference_on_floors_of_20_number_cards(data: st.DataObject) -> None:
    card = data.draw(st.sampled_from([c for c in NUMBERS if 2 <= c.value <= 8]))
    below = [c for c in NUMBERS if c.value < card.value]
    rest = [c for c in NUMBERS if c.value >= card.value and c is not card]
    k = data.draw(st.integers(min_value=max(0, 20 - len(rest)), max_value=min(MAX_CANDIDATES, len(below))))
    floor = data.draw(st.lists(st.sampled_from(below), unique=True, min_size=k, max_size=k))
    floor += data.draw(st.lists(st.sampled_from(rest), unique=True, min_size=20 - k, max_size=20 - k))
    floor = data.draw(st.permutations(floor))
    assert len(floor) == 20 and all(c.is_number for c in floor)
    check_against_reference(card, floor, Rules())


@settings(max_examples=100, deadline=None)
@given(st.data())
def test_plans_that_differ_only_by_interchangeable_cards_are_one_plan(data: st.DataObject) -> None:
    card = data.draw(st.sampled_from(NUMBERS))
    floor = data.draw(st.lists(st.sampled_from([c for c in NUMBERS if c is not card]), unique=True,
                               max_size=10))
    plans = capture_plans(card, floor)
    kinds = [tuple(sorted(kind(c) for c in p.taken)) for p in plans]
    assert len(kinds) == len(set(kinds))
    assert [(-len(p), p.positions) for p in plans] == sorted((-len(p), p.positions) for p in plans)


@pytest.mark.parametrize(
    ("card", "floor", "expected"),
    [
        ("8S", "7D AH", [["7D", "AH"]]),
        ("7S", "7D 3C 4H", [["7D", "3C", "4H"]]),
        ("10C", "7D 3C JH QH KH", [["7D", "3C"]]),
        ("9C", "JH QH KH", []),
        ("2S", "AC AD AH", [["AC", "AD"]]),
    ],
)
def test_plans_of_number_cards_on_mixed_floors(card: str, floor: str, expected: list[list[str]]) -> None:
    assert taken(capture_plans(Card.parse(card), cards(floor))) == expected
