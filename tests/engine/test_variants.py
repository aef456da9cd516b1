"""RULES.md section 8: the four variants, each a field of Rules."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from core import BasraError, Card, IllegalPlay, Match, Rules, capture_plans

from .helpers import cards, codes, find_deck, new_match, play_match, round_events

SMALL = Rules(majority_points=3, majority_tie="split")


def test_all_variants_are_off_by_default() -> None:
    rules = Rules()
    assert rules.target == 121
    assert rules.majority_points == 30
    assert rules.majority_tie == "carry"
    assert rules.optional_capture is False
    assert rules.seven_diamonds_basra == "sum"
    assert Rules.preset("default") == rules


@pytest.mark.parametrize(
    ("name", "rules"),
    [
        ("target 100", Rules(target=100)),
        ("small majority", SMALL),
        ("optional capture", Rules(optional_capture=True)),
        ("7D by count", Rules(seven_diamonds_basra="count")),
    ],
)
def test_each_variant_is_a_named_preset(name: str, rules: Rules) -> None:
    assert Rules.preset(name) == rules
    assert Rules.from_dict(rules.to_dict()) == rules


def test_rules_are_frozen() -> None:
    rules = Rules()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.target = 100  # type: ignore[misc]


@pytest.mark.parametrize(
    "changes",
    [
        {"target": 0},
        {"target": "100"},
        {"majority_points": -1},
        {"majority_tie": "keep"},
        {"optional_capture": "yes"},
        {"seven_diamonds_basra": "both"},
    ],
)
def test_a_variant_setting_outside_its_choices_is_refused(changes: dict[str, Any]) -> None:
    with pytest.raises(BasraError):
        Rules(**changes)


def test_unknown_rules_fields_and_presets_are_refused() -> None:
    with pytest.raises(BasraError):
        Rules.from_dict({"target": 100, "jokers": True})
    with pytest.raises(BasraError):
        Rules.preset("three players")


# -- target 100 ------------------------------------------------------------


def test_target_100_the_match_is_played_to_100() -> None:
    for seed in range(8):
        match = Match.new(2, Rules(target=100), seed=seed)
        play_match(match)
        assert match.winner is not None
        assert match.scores[match.winner] >= 100
        totals = (0, 0)
        for summary in match.rounds[:-1]:
            totals = (totals[0] + summary.points[0], totals[1] + summary.points[1])
            assert max(totals) < 100 or totals[0] == totals[1]


# -- small majority ----------------------------------------------------------


def tie(match: Match, plays: list[list[Any]]) -> bool:
    return match.rounds[0].cards == (26, 26)


def test_small_majority_27_cards_are_worth_3() -> None:
    for seed in range(10):
        match = Match.new(2, SMALL, seed=seed)
        round_events(match)
        summary = match.rounds[0]
        if summary.cards == (26, 26):
            continue
        side = 0 if summary.cards[0] >= 27 else 1
        assert summary.breakdown[side].majority == 3
        assert summary.breakdown[1 - side].majority == 0
        assert sum(summary.points) == 16 + 10 * sum(summary.basras)


def test_small_majority_a_26_26_tie_gives_each_side_3_nothing_carried() -> None:
    match = Match.new(2, SMALL, decks=[find_deck(tie, rules=SMALL)])
    plays = round_events(match)
    summary = match.rounds[0]
    assert summary.cards == (26, 26)
    assert summary.breakdown[0].majority == summary.breakdown[1].majority == 3
    assert summary.carry_out == 0
    assert match.carry == 0
    scored = next(e for e in plays[-1] if e.kind == "round_scored")
    assert scored.carry_out == 0
    assert sum(summary.points) == 13 + 6 + 10 * sum(summary.basras)


# -- optional capture --------------------------------------------------------

OPTIONAL = Rules(optional_capture=True)


def test_optional_capture_a_capturing_card_may_be_laid_on_the_floor_without_taking() -> None:
    match = new_match(["KC KD KH KS", "5S 2D 3D 4D"], "5C 9H 5H 10S", rules=OPTIONAL)
    events = match.play(1, "5S", 0)
    assert [e.kind for e in events] == ["card_played"]
    assert events[0].plan == 0
    assert codes(match.floor) == ["5C", "9H", "5H", "10S", "5S"]
    assert match.piles == ((), ())


def test_optional_capture_a_jack_may_be_laid_on_a_full_floor() -> None:
    match = new_match(["KC KD KH KS", "JS 2D 3D 4D"], "5C 9H 5H 10S", rules=OPTIONAL)
    match.play(1, "JS", 0)
    assert codes(match.floor) == ["5C", "9H", "5H", "10S", "JS"]


def test_optional_capture_without_a_choice_a_capturing_card_still_takes_plan_1() -> None:
    match = new_match(["KC KD KH KS", "6C 2D 3D 4D"], "AH 2H 3S 4C", rules=OPTIONAL)
    match.play(1, "6C")
    assert codes(match.floor) == ["4C"]


def test_without_optional_capture_a_capturing_card_may_not_be_laid() -> None:
    match = new_match(["KC KD KH KS", "5S 2D 3D 4D"], "5C 9H 5H 10S")
    with pytest.raises(IllegalPlay):
        match.play(1, "5S", 0)
    assert codes(match.floor) == ["5C", "9H", "5H", "10S"]


def test_optional_capture_a_laid_capturing_card_is_recorded_as_card_slash_0() -> None:
    match = new_match(["KC KD KH KS", "5S 2D 3D 4D"], "5C 9H 5H 10S", rules=OPTIONAL)
    match.play(1, "5S", 0)
    assert match.to_record()["plays"] == ["5S/0"]


def test_optional_capture_a_replayed_record_keeps_the_laid_card_on_the_floor() -> None:
    match = new_match(["KC KD KH KS", "5S 2D 3D 4D"], "5C 9H 5H 10S", rules=OPTIONAL)
    match.play(1, "5S", 0)
    replayed = Match.from_record(match.to_record())
    assert replayed.floor == match.floor


def test_optional_capture_a_laid_capturing_card_replays_from_its_events() -> None:
    match = new_match(["KC KD KH KS", "5S 2D 3D 4D"], "5C 9H 5H 10S", rules=OPTIONAL)
    events = match.opening_events() + match.play(1, "5S", 0)
    assert Match.from_events(events).floor == match.floor


# -- 7D by count ---------------------------------------------------------------

COUNT = Rules(seven_diamonds_basra="count")


@pytest.mark.parametrize(
    "floor",
    ["9C 8C 7C 6C", "10C 10H 10S 9C 9H 9S 8C 8H 8S 7C", "JS 9C", "AC 2D 3H 4S", "JS"],
)
def test_7d_by_count_10_or_fewer_floor_cards_with_no_queen_or_king_make_a_basra(floor: str) -> None:
    (plan,) = capture_plans(Card.parse("7D"), cards(floor), COUNT)
    assert plan.basra


@pytest.mark.parametrize(
    "floor",
    ["9C 8C 7C QC", "KS", "10C 10H 10S 9C 9H 9S 8C 8H 8S 7C 6C", "AC AD AH AS 2C 2D 2H 2S 3C 3D 3H"],
)
def test_7d_by_count_over_10_cards_or_a_queen_or_king_make_no_basra(floor: str) -> None:
    (plan,) = capture_plans(Card.parse("7D"), cards(floor), COUNT)
    assert not plan.basra


def test_7d_by_count_in_a_match() -> None:
    match = new_match(["KC KD KH KS", "7D 2D 3D 4D"], "9C 8C 7C 6C", rules=COUNT)
    events = match.play(1, "7D")
    assert [e.kind for e in events] == ["card_played", "cards_taken", "basra"]
    match = new_match(["KC KD KH KS", "7D 2D 3D 4D"], "9C 8C 7C 6C")
    events = match.play(1, "7D")
    assert [e.kind for e in events] == ["card_played", "cards_taken"]


def test_7d_by_count_changes_nothing_for_other_cards() -> None:
    floor = cards("AC 2D 3H 4S")
    for card in ("10S", "JS"):
        assert capture_plans(Card.parse(card), floor, COUNT) == capture_plans(Card.parse(card), floor)


def test_the_majority_fields_work_apart_from_each_other() -> None:
    carry_3 = Rules(majority_points=3)
    match = Match.new(2, carry_3, decks=[find_deck(tie, rules=carry_3)])
    round_events(match)
    assert match.rounds[0].carry_out == 3
    assert match.carry == 3
    split_30 = Rules(majority_tie="split")
    match = Match.new(2, split_30, decks=[find_deck(tie, rules=split_30)])
    round_events(match)
    summary = match.rounds[0]
    assert summary.breakdown[0].majority == summary.breakdown[1].majority == 30
    assert summary.carry_out == 0
