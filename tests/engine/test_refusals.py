"""The engine's refusals are typed: a caller answers each without checking the rules again."""

from __future__ import annotations

from typing import Any

import pytest

import core
from core import IllegalPlay, Match

from .helpers import new_match, play_match

QUIET = "KC KD KH KS"


def refusal(match: Match, seat: Any, card: Any, plan: Any = None) -> IllegalPlay:
    before = match.to_record()
    with pytest.raises(IllegalPlay) as info:
        match.play(seat, card, plan)
    assert match.to_record() == before
    return info.value


def test_each_refusal_a_player_can_press_has_its_own_type_and_says_what_it_refers_to() -> None:
    match = new_match([QUIET, "5S 2D 3D 4D"], "5C 9H 5H 10S")
    wrong_seat = refusal(match, 0, "KC")
    assert type(wrong_seat) is core.NotTheirTurn and wrong_seat.to_move == 1
    not_held = refusal(match, 1, "7S")
    assert type(not_held) is core.NotInHand and not_held.card == "7S"
    must = refusal(match, 1, "5S", 0)
    assert type(must) is core.MustTake and must.card == "5S"
    no_plan = refusal(match, 1, "5S", 3)
    assert type(no_plan) is core.NoSuchPlan and (no_plan.card, no_plan.plan) == ("5S", 3)


def test_a_finished_match_refuses_every_play_as_over() -> None:
    match = Match.new(2, seed=4)
    play_match(match)
    assert type(refusal(match, 0, "AC")) is core.MatchIsOver


def test_refusals_that_are_not_a_players_press_stay_plain_illegal_plays() -> None:
    match = new_match([QUIET, "5S 2D 3D 4D"], "5C 9H 5H 10S")
    assert type(refusal(match, 7, "5S")) is IllegalPlay  # no such seat
    assert type(refusal(match, 1, "ZZ")) is IllegalPlay  # not a card
    assert type(refusal(match, 1, "5S", "1")) is IllegalPlay  # a plan that is not a number
