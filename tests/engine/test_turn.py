"""RULES.md section 3: a turn, what each card takes, forced capture and the floor's order.

The capture plans themselves (sums, maximality, numbering, merging) are in
test_capture_plans.py.
"""

from __future__ import annotations

import pytest

from core import Card, IllegalPlay, capture_plans

from .helpers import cards, codes, new_match

# Seat 1 plays first (dealer 0). Seat 0 holds cards that take nothing on these floors.
QUIET = "6H 6S 8H 8S"


def test_a_player_plays_exactly_one_card_from_the_hand_face_up() -> None:
    match = new_match([QUIET, "9H 2D 3D 4D"], "5C 6C 8C 10C")
    match.play(1, "9H")
    assert codes(match.hand(1)) == ["2D", "3D", "4D"]
    assert match.view(0).history[-1].card == Card.parse("9H")
    assert codes(match.floor) == ["5C", "6C", "8C", "10C", "9H"]
    assert match.to_move == 0


@pytest.mark.parametrize("nothing", [None, "", "pass", "-"])
def test_there_is_no_passing_a_turn_is_a_card(nothing: object) -> None:
    match = new_match([QUIET, "9H 2D 3D 4D"], "5C 6C 8C 10C")
    with pytest.raises(IllegalPlay):
        match.play(1, nothing)  # type: ignore[arg-type]
    assert match.to_move == 1
    assert len(match.hand(1)) == 4


def test_jack_takes_the_whole_floor_face_cards_included() -> None:
    match = new_match([QUIET, "JH 2D 3D 4D"], "QC 5H KS 9S")
    events = match.play(1, "JH")
    assert match.floor == ()
    assert codes(match.piles[1]) == ["QC", "5H", "KS", "9S", "JH"]
    assert any(e.kind == "cards_taken" for e in events)


def test_a_jack_on_an_empty_floor_takes_nothing_and_stays() -> None:
    match = new_match(["JC 5D 6D 8D", "JH 2D 3D 4D"], "QC 5H KS 9S")
    match.play(1, "JH")
    match.play(0, "JC")
    assert codes(match.floor) == ["JC"]
    assert codes(match.piles[0]) == []
    assert capture_plans(Card.parse("JS"), ()) == ()


def test_a_jack_takes_a_lone_jack_on_the_floor() -> None:
    match = new_match(["JC 5D 6D 8D", "JH JS 3D 4D"], "QC 5H KS 9S")
    match.play(1, "JH")
    match.play(0, "JC")
    match.play(1, "JS")
    assert match.floor == ()
    assert codes(match.piles[1])[-2:] == ["JC", "JS"]


def test_7d_takes_the_whole_floor_like_a_jack() -> None:
    match = new_match([QUIET, "7D 2D 3D 4D"], "QC 5H KS 9S")
    match.play(1, "7D")
    assert match.floor == ()
    assert codes(match.piles[1]) == ["QC", "5H", "KS", "9S", "7D"]


def test_7d_on_an_empty_floor_stays() -> None:
    match = new_match(["7D 5D 6D 8D", "JH 2D 3D 4D"], "QC 5H KS 9S")
    match.play(1, "JH")
    match.play(0, "7D")
    assert codes(match.floor) == ["7D"]
    assert capture_plans(Card.parse("7D"), ()) == ()


def test_queen_takes_every_floor_queen_and_nothing_else() -> None:
    match = new_match([QUIET, "QS 2D 3D 4D"], "QC 5H QH KS")
    match.play(1, "QS")
    assert codes(match.floor) == ["5H", "KS"]
    assert codes(match.piles[1]) == ["QC", "QH", "QS"]


def test_king_takes_every_floor_king_and_nothing_else() -> None:
    match = new_match(["QC QD QH QS", "KS 2D 3D 4D"], "KC 5H KH 9S")
    match.play(1, "KS")
    assert codes(match.floor) == ["5H", "9S"]
    assert codes(match.piles[1]) == ["KC", "KH", "KS"]


@pytest.mark.parametrize("card", ["QS", "KS"])
def test_a_queen_or_king_with_no_card_of_its_rank_takes_nothing(card: str) -> None:
    floor = cards("5C 5H 10C AS QH" if card == "KS" else "5C 5H 10C AS KH")
    assert capture_plans(Card.parse(card), floor) == ()


def test_a_number_card_takes_every_floor_card_of_the_same_rank() -> None:
    match = new_match([QUIET, "5S 2D 3D 4D"], "5C 9H 5H 10S")
    match.play(1, "5S")
    assert codes(match.floor) == ["9H", "10S"]
    assert codes(match.piles[1]) == ["5C", "5H", "5S"]


def test_a_number_card_takes_disjoint_groups_of_floor_number_cards_adding_up_to_its_value() -> None:
    floor = cards("5C 2D 3H 4S AH 9C")
    (plan,) = capture_plans(Card.parse("5S"), floor)
    assert codes(plan.taken) == ["5C", "2D", "3H", "4S", "AH"]


def test_the_7d_lying_on_the_floor_joins_a_sum_as_a_number_7() -> None:
    (plan,) = capture_plans(Card.parse("8C"), cards("7D AH KS"))
    assert codes(plan.taken) == ["7D", "AH"]
    (plan,) = capture_plans(Card.parse("7S"), cards("7D KS"))
    assert codes(plan.taken) == ["7D"]
    # In a match: the 7D laid on an empty floor is then taken by a sum.
    match = new_match(["7D 5D 6D AD", "JH 2D 3D 8H"], "QC 5H KS 9S")
    match.play(1, "JH")
    match.play(0, "7D")
    match.play(1, "2D")
    match.play(0, "AD")
    match.play(1, "8H")
    assert codes(match.floor) == ["2D"]
    assert codes(match.piles[1])[-3:] == ["7D", "AD", "8H"]


@pytest.mark.parametrize("face", ["JS", "QS", "KS"])
def test_jack_queen_and_king_have_no_value_and_never_join_a_group(face: str) -> None:
    for card in ("AC", "2C", "5C", "10C", "9C"):
        floor = cards(f"{face} 3H")
        plans = capture_plans(Card.parse(card), floor)
        assert all(Card.parse(face) not in p.taken for p in plans)
    # A face card on the floor is never part of any number card's plan.
    floor = cards(f"{face} AH 2H 3S 4D 5D")
    for number in [c for c in Card.deck() if c.is_number and not c.is_seven_of_diamonds]:
        if number in floor:
            continue
        for plan in capture_plans(number, floor):
            assert Card.parse(face) not in plan.taken


def test_forced_capture_a_card_with_a_plan_always_takes_one() -> None:
    match = new_match([QUIET, "9H 2D 3D 4D"], "5C 4C 8C 10C")
    with pytest.raises(IllegalPlay):
        match.play(1, "9H", 0)
    events = match.play(1, "9H")
    assert codes(match.floor) == ["8C", "10C"]
    assert [e.kind for e in events][:2] == ["card_played", "cards_taken"]


def test_a_card_with_no_plan_is_left_on_the_floor() -> None:
    match = new_match([QUIET, "9H 2D 3D 4D"], "5C 6C 8C 10C")
    events = match.play(1, "9H")
    assert codes(match.floor)[-1] == "9H"
    assert [e.kind for e in events] == ["card_played"]
    assert match.piles == ((), ())


def test_a_player_may_play_a_card_that_takes_nothing_while_another_card_could_capture() -> None:
    match = new_match([QUIET, "9H 2D 5S 4D"], "5C 6C 8C 10C")
    assert match.plans("5S")
    assert not match.plans("9H")
    match.play(1, "9H")
    assert codes(match.floor) == ["5C", "6C", "8C", "10C", "9H"]


def test_the_interface_can_show_the_catch_is_empty_before_the_play() -> None:
    match = new_match([QUIET, "9H 2D 5S 4D"], "5C 6C 8C 10C")
    assert match.plans("9H") == ()
    assert match.view(1).plans(Card.parse("9H")) == ()
    assert [codes(p.taken) for p in match.view(1).plans(Card.parse("5S"))] == [["5C"]]


def test_new_floor_cards_go_to_the_end() -> None:
    match = new_match(["QS 9D 6D 8D", "9H 2D 3D 4D"], "5C 6C 8C 10C")
    match.play(1, "9H")
    match.play(0, "QS")
    assert codes(match.floor) == ["5C", "6C", "8C", "10C", "9H", "QS"]


def test_taken_cards_leave_gaps_that_close_up() -> None:
    match = new_match(["QS 9D 6D 8D", "9H 2D 3D 4D"], "5C 6C 8C 10C")
    match.play(1, "9H")
    match.play(0, "QS")
    match.play(1, "2D")  # takes nothing: 2D at the end
    match.play(0, "8D")  # takes 8C, and 6C+2D
    assert codes(match.floor) == ["5C", "10C", "9H", "QS"]


def test_every_player_sees_the_same_floor_order() -> None:
    match = new_match(
        ["QS 9D 6D 8D", "9H 2D 3D 4D", "KS KH KD KC", "QC QD QH AS"], "5C 6C 8C 10C", dealer=3
    )
    match.play(0, "QS")
    match.play(1, "9H")
    floors = {match.view(seat).floor for seat in range(4)}
    assert floors == {match.floor}
    assert codes(match.floor) == ["5C", "6C", "8C", "10C", "QS", "9H"]
