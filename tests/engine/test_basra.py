"""RULES.md section 4: basra."""

from __future__ import annotations

from typing import Any

import pytest

from core import Card, Match, Rules, capture_plans

from .helpers import cards, find_deck, new_match, round_events


def kinds(events: list[Any]) -> list[str]:
    return [e.kind for e in events]


def test_a_capture_that_leaves_the_floor_empty_is_a_basra_worth_10_points() -> None:
    match = new_match(["KC KD KH KS", "10S 2S 3S 4S"], "2C 3D 4H AS")
    events = match.play(1, "10S")
    assert match.floor == ()
    assert kinds(events) == ["card_played", "cards_taken", "basra"]
    assert match.view(0).round_basras == (0, 1)
    round_events(match)
    summary = match.rounds[0]
    assert summary.basras[1] >= 1
    assert summary.breakdown[1].basras == 10 * summary.basras[1]


def test_a_basra_by_a_number_card_taking_same_rank_cards() -> None:
    match = new_match(["QC QD QH QS", "5S 2S 3S 4S"], "5C 2C 3D 5H")
    events = match.play(1, "5S")
    assert match.floor == ()
    assert "basra" in kinds(events)


def test_a_basra_by_a_queen() -> None:
    # Seat 1 sweeps with a jack, seat 0 lays a queen, seat 1 takes it with a queen.
    match = new_match(["QC 9D 9H 9S", "JH QS 3S 4S"], "5C 2C 3D 5H")
    match.play(1, "JH")
    match.play(0, "QC")
    events = match.play(1, "QS")
    assert kinds(events) == ["card_played", "cards_taken", "basra"]


def test_a_basra_by_a_king() -> None:
    match = new_match(["KC 9D 9H 9S", "JH KS 3S 4S"], "5C 2C 3D 5H")
    match.play(1, "JH")
    match.play(0, "KC")
    events = match.play(1, "KS")
    assert kinds(events) == ["card_played", "cards_taken", "basra"]


def test_clearing_a_one_card_floor_counts() -> None:
    match = new_match(["8C 9D 9H 9S", "JH 8S 3S 4S"], "5C 2C 3D 5H")
    match.play(1, "JH")
    match.play(0, "8C")
    events = match.play(1, "8S")
    assert "basra" in kinds(events)
    assert match.view(1).round_basras == (0, 1)


def test_a_jack_never_makes_a_basra_however_clean_the_sweep() -> None:
    match = new_match(["JC 9D 9H 9S", "JH 8S 3S 4S"], "5C 2C 3D 5H")
    events = match.play(1, "JH")
    assert match.floor == ()
    assert "basra" not in kinds(events)
    # A jack taking a lone jack: a clean sweep, still no basra.
    match = new_match(["JC 9D 9H 9S", "JH JS 3S 4S"], "5C 2C 3D 5H")
    match.play(1, "JH")
    match.play(0, "JC")
    events = match.play(1, "JS")
    assert match.floor == ()
    assert "basra" not in kinds(events)
    assert match.view(1).round_basras == (0, 0)
    for floor in ("AH", "5C 2C 3D", "QH KH"):
        (plan,) = capture_plans(Card.parse("JD"), cards(floor))
        assert not plan.basra


@pytest.mark.parametrize("floor", ["AC 2D 3H 4S", "AC 2D 3H", "10S", "5C 5S", "AC AD AH AS"])
def test_the_7d_makes_a_basra_when_the_floor_is_number_cards_adding_up_to_10_or_less(floor: str) -> None:
    (plan,) = capture_plans(Card.parse("7D"), cards(floor))
    assert plan.basra


@pytest.mark.parametrize("floor", ["AC 2D 3H 5S", "10S AC", "9C 8C 7C 6C", "2C KH", "QS", "AC JS"])
def test_the_7d_makes_no_basra_over_10_or_with_a_face_card_on_the_floor(floor: str) -> None:
    (plan,) = capture_plans(Card.parse("7D"), cards(floor))
    assert len(plan.taken) == len(cards(floor))
    assert not plan.basra


def test_the_7d_basra_in_a_match() -> None:
    match = new_match(["KC KD KH KS", "7D 2S 3S 4S"], "AC 2D 3H 4C")
    events = match.play(1, "7D")
    assert kinds(events) == ["card_played", "cards_taken", "basra"]
    match = new_match(["KC KD KH KS", "7D 2S 3S 4S"], "AC 2D 3H 5C")
    events = match.play(1, "7D")
    assert kinds(events) == ["card_played", "cards_taken"]
    assert match.floor == ()


def last_capture_side(plays: list[list[Any]]) -> int | None:
    side = None
    for events in plays:
        for e in events:
            if e.kind == "cards_taken" and not e.last:
                side = e.side
    return side


@pytest.mark.parametrize("players", [2, 4])
def test_cards_left_on_the_floor_at_the_end_go_to_the_side_that_made_the_last_capture(players: int) -> None:
    checked = 0
    for seed in range(40):
        match = Match.new(players, seed=seed)
        plays = round_events(match)
        leftovers = [e for events in plays for e in events if e.kind == "cards_taken" and e.last]
        if not leftovers:
            continue
        (left,) = leftovers
        assert left.side == last_capture_side(plays)
        checked += 1
    assert checked >= 10


def test_the_leftovers_can_go_to_the_side_that_did_not_play_last() -> None:
    def wanted(match: Match, plays: list[list[Any]]) -> bool:
        last = [e for e in plays[-1] if e.kind == "cards_taken" and e.last]
        played = next(e for e in plays[-1] if e.kind == "card_played")
        return bool(last) and last[0].side != played.seat % 2

    deck = find_deck(wanted)
    match = Match.new(2, decks=[deck])
    plays = round_events(match)
    left = next(e for e in plays[-1] if e.kind == "cards_taken" and e.last)
    assert left.side == last_capture_side(plays)


def test_the_leftovers_are_never_a_basra_and_score_no_bonus() -> None:
    seen = 0
    for seed in range(30):
        match = Match.new(2, seed=seed)
        plays = round_events(match)
        basras = [e for events in plays for e in events if e.kind == "basra"]
        summary = match.rounds[0]
        assert sum(summary.basras) == len(basras)
        final = plays[-1]
        ends = [i for i, e in enumerate(final) if e.kind == "cards_taken" and e.last]
        if ends:
            seen += 1
            assert "basra" not in kinds(final[ends[0]:])
        for side in (0, 1):
            assert summary.breakdown[side].basras == 10 * summary.basras[side]
    assert seen >= 10


def test_a_basra_on_the_last_play_of_a_round_counts() -> None:
    def wanted(match: Match, plays: list[list[Any]]) -> bool:
        return any(e.kind == "basra" for e in plays[-1])

    deck = find_deck(wanted)
    match = Match.new(2, decks=[deck])
    plays = round_events(match)
    basra = next(e for e in plays[-1] if e.kind == "basra")
    assert match.rounds[0].basras[basra.side] >= 1


@pytest.mark.parametrize(("dealer", "side"), [(3, 0), (2, 1)])
def test_a_basra_is_counted_for_the_side_of_the_seat_that_made_it(dealer: int, side: int) -> None:
    # The first three seats to play: a jack sweep, an 8 laid, an 8 taking it.
    order = [(dealer + 1 + i) % 4 for i in range(4)]
    hands = {order[0]: "JC 9D 9H 9S", order[1]: "8S 3S 4S 6S", order[2]: "8H KD KH KS",
             order[3]: "QC QD QH QS"}
    match = new_match([hands[seat] for seat in range(4)], "5C 2C 3D 5H", dealer=dealer)
    match.play(order[0], "JC")
    match.play(order[1], "8S")
    events = match.play(order[2], "8H")
    (basra,) = [e for e in events if e.kind == "basra"]
    assert basra.seat == order[2]
    assert basra.side == side == order[2] % 2
    expected = [0, 0]
    expected[side] = 1
    assert match.view(order[3]).round_basras == tuple(expected)


def test_the_basra_rule_for_the_7d_follows_the_rules_setting() -> None:
    floor = cards("9C 8C 7C 6C")
    assert not capture_plans(Card.parse("7D"), floor)[0].basra
    assert capture_plans(Card.parse("7D"), floor, Rules(seven_diamonds_basra="count"))[0].basra
