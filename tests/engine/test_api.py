"""The public API of the engine, exactly as the issue names it."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

import core
from core import BasraError, Card, IllegalPlay, Match, Plan, Rules, capture_plans

from .helpers import build_deck, codes, new_match, play_match

QUIET = "KC KD KH KS"


def test_the_public_names_are_importable_from_core() -> None:
    for name in ("Card", "Rules", "Plan", "Match", "capture_plans", "BasraError", "IllegalPlay"):
        assert hasattr(core, name)


def test_match_new_has_the_documented_signature() -> None:
    params = inspect.signature(Match.new).parameters
    assert list(params) == ["players", "rules", "seed", "decks", "dealer"]
    assert params["players"].default == 2
    assert params["rules"].default is None
    for name, default in (("seed", None), ("decks", None), ("dealer", 0)):
        assert params[name].kind is inspect.Parameter.KEYWORD_ONLY
        assert params[name].default == default


def test_play_and_capture_plans_have_the_documented_signatures() -> None:
    play = inspect.signature(Match.play).parameters
    assert list(play) == ["self", "seat", "card", "plan"]
    assert play["plan"].default is None
    plans = inspect.signature(capture_plans).parameters
    assert list(plans) == ["card", "floor", "rules"]
    assert plans["rules"].default is None


def test_illegal_play_is_a_basra_error_which_is_a_value_error() -> None:
    assert issubclass(IllegalPlay, BasraError)
    assert issubclass(BasraError, ValueError)


def test_match_cannot_be_built_directly() -> None:
    with pytest.raises(TypeError):
        Match()


def test_card_parse_str_and_deck() -> None:
    assert str(Card.parse("10D")) == "10D"
    assert Card.parse("10♦") is Card.parse("10D")
    assert str(Card.parse("q♠")) == "QS"
    assert len(Card.deck()) == 52
    with pytest.raises(ValueError):
        Card.parse("11D")


def test_rules_fields_and_defaults() -> None:
    rules = Rules(target=100, majority_points=3, majority_tie="split", optional_capture=True,
                  seven_diamonds_basra="count")
    assert (rules.target, rules.majority_points, rules.majority_tie) == (100, 3, "split")
    assert (rules.optional_capture, rules.seven_diamonds_basra) == (True, "count")
    assert Rules() == Rules(target=121, majority_points=30, majority_tie="carry",
                            optional_capture=False, seven_diamonds_basra="sum")


def test_capture_plans_gives_plans_with_taken_and_basra() -> None:
    plans = capture_plans(Card.parse("6C"), [Card.parse(c) for c in ("AH", "2H", "3S", "4D")])
    assert isinstance(plans, tuple)
    assert all(isinstance(p, Plan) for p in plans)
    assert all(isinstance(p.taken, tuple) and all(isinstance(c, Card) for c in p.taken) for p in plans)
    assert all(p.basra is False for p in plans)
    (whole,) = capture_plans(Card.parse("6C"), [Card.parse("AH"), Card.parse("5H")])
    assert whole.basra is True
    assert capture_plans(Card.parse("9C"), [Card.parse("AH")]) == ()


def test_decks_are_given_top_card_first_as_cards_or_text_one_per_round() -> None:
    deck = build_deck([QUIET, "5S 2D 3D 4D"], "5C 9H 5H 10S")
    as_text = Match.new(2, decks=[[c.code for c in deck]])
    as_cards = Match.new(2, decks=[deck])
    assert as_text.hand(1) == as_cards.hand(1)
    assert as_text.floor == as_cards.floor
    assert as_text.to_record()["decks"] == as_cards.to_record()["decks"]


def test_rounds_beyond_the_given_decks_are_shuffled_from_the_seed() -> None:
    deck = build_deck([QUIET, "5S 2D 3D 4D"], "5C 9H 5H 10S")
    one = Match.new(2, decks=[deck], seed="abc")
    two = Match.new(2, decks=[deck], seed="abc")
    for match in (one, two):
        while match.round_no == 1:
            assert match.to_move is not None
            match.play(match.to_move, match.hand(match.to_move)[0])
    assert one.to_record()["decks"][1] == two.to_record()["decks"][1]
    assert one.hand(0) == two.hand(0)
    assert Match.new(2, seed=5).to_record() == Match.new(2, seed=5).to_record()
    assert Match.new(2, seed=5).to_record() != Match.new(2, seed=6).to_record()


def test_a_seeded_shuffle_is_uniform_and_reads_more_of_its_stream_when_it_must() -> None:
    from collections import Counter

    from core.match import _shuffled_order

    seeds = 20_000
    tops = Counter(_shuffled_order(seed, 1)[0] for seed in range(seeds))
    expected = seeds / 52
    chi_square = sum((tops[i] - expected) ** 2 / expected for i in range(52))
    assert chi_square < 90  # 51 degrees of freedom: above 90 once in 1,500 fair runs
    for seed in range(50):
        order = _shuffled_order(seed, 3)
        assert sorted(order) == list(range(52))
        # Starting from 1 byte, the stream is read again at 2, 4, 8 ... bytes:
        # the same bytes in the same order, so the same deck.
        assert _shuffled_order(seed, 3, size=1) == order


def test_without_a_seed_the_deal_comes_from_the_os() -> None:
    decks = {tuple(Match.new(2).to_record()["decks"][0]) for _ in range(5)}
    assert len(decks) > 1


def test_the_reading_api() -> None:
    match = new_match([QUIET, "5S 2D 3D 4D"], "5C 9H 5H 10S", dealer=0)
    assert match.to_move == 1
    assert match.hand(1) == tuple(Card.parse(c) for c in ("5S", "2D", "3D", "4D"))
    assert match.floor == tuple(Card.parse(c) for c in ("5C", "9H", "5H", "10S"))
    assert match.stock_count == 40
    assert match.scores == (0, 0)
    assert match.round_no == 1
    assert match.carry == 0
    assert match.rounds == []
    assert match.winner is None
    assert [codes(p.taken) for p in match.plans("5S")] == [["5C", "5H"]]
    assert match.plans(Card.parse("5S")) == match.plans("5s")


@pytest.mark.parametrize("seat", [-1, 2, 5, "0", None, True])
def test_hand_and_view_of_a_seat_that_does_not_exist_are_refused(seat: Any) -> None:
    match = new_match([QUIET, "5S 2D 3D 4D"], "5C 9H 5H 10S")
    with pytest.raises(BasraError):
        match.hand(seat)
    with pytest.raises(BasraError):
        match.view(seat)


def test_play_returns_the_events_of_the_play() -> None:
    match = new_match([QUIET, "5S 2D 3D 4D"], "5C 9H 5H 10S")
    events = match.play(1, "5S")
    assert isinstance(events, list)
    assert [e.kind for e in events] == ["card_played", "cards_taken"]


def test_play_plan_none_takes_plan_1() -> None:
    match = new_match([QUIET, "6C 2D 3D 5D"], "AH 2H 3S 4D")
    plan_1 = match.plans("6C")[0]
    match.play(1, "6C", None)
    assert set(match.piles[1]) == {*plan_1.taken, Card.parse("6C")}


def test_play_plan_none_lays_a_card_that_takes_nothing() -> None:
    match = new_match([QUIET, "9S 2D 3D 5D"], "AH 2H QS 4D")
    match.play(1, "9S")
    assert codes(match.floor) == ["AH", "2H", "QS", "4D", "9S"]


def test_play_plan_0_lays_a_card_that_takes_nothing() -> None:
    match = new_match([QUIET, "9S 2D 3D 5D"], "AH 2H QS 4D")
    events = match.play(1, "9S", 0)
    assert events[0].plan == 0
    assert codes(match.floor)[-1] == "9S"


def test_play_accepts_a_card_as_text_in_any_spelling() -> None:
    match = new_match([QUIET, "10D 2D 3D 5D"], "AH 2H 3S 4D")
    match.play(1, "10♦")
    assert Card.parse("10D") not in match.hand(1)


def refused(match: Match, seat: Any, card: Any, plan: Any = None) -> str:
    """Play and expect a refusal that changes nothing; the message."""
    before = (match.to_record(), [match.view(s) for s in range(match.players)], match.to_move)
    with pytest.raises(IllegalPlay) as info:
        match.play(seat, card, plan)
    after = (match.to_record(), [match.view(s) for s in range(match.players)], match.to_move)
    assert before == after
    return str(info.value)


def test_illegal_play_not_this_seats_turn() -> None:
    match = new_match([QUIET, "5S 2D 3D 4D"], "5C 9H 5H 10S")
    assert "turn" in refused(match, 0, "KC")


@pytest.mark.parametrize("seat", [2, 3, -1, "1", None])
def test_illegal_play_no_such_seat(seat: Any) -> None:
    match = new_match([QUIET, "5S 2D 3D 4D"], "5C 9H 5H 10S")
    refused(match, seat, "5S")


def test_illegal_play_card_not_in_hand_names_the_card() -> None:
    match = new_match([QUIET, "5S 2D 3D 4D"], "5C 9H 5H 10S")
    message = refused(match, 1, "7S")
    assert "7S" in message and "not in hand" in message
    refused(match, 1, "KC")  # the other seat's card
    refused(match, 1, "5C")  # a floor card


def test_illegal_play_not_a_card_names_the_input() -> None:
    match = new_match([QUIET, "5S 2D 3D 4D"], "5C 9H 5H 10S")
    assert "11S" in refused(match, 1, "11S")


@pytest.mark.parametrize("plan", [2, 3, -1, 1.0, "1", True])
def test_illegal_play_no_such_plan(plan: Any) -> None:
    match = new_match([QUIET, "5S 2D 3D 4D"], "5C 9H 5H 10S")
    refused(match, 1, "5S", plan)


def test_illegal_play_a_plan_number_for_a_card_that_takes_nothing() -> None:
    match = new_match([QUIET, "9S 2D 3D 4D"], "5C 8H 5H 10S")
    refused(match, 1, "9S", 1)


def test_illegal_play_forced_capture_refused() -> None:
    match = new_match([QUIET, "5S 2D 3D 4D"], "5C 9H 5H 10S")
    assert "5S" in refused(match, 1, "5S", 0)


def test_illegal_play_match_over() -> None:
    match = Match.new(2, seed=4)
    play_match(match)
    assert match.to_move is None
    assert "over" in refused(match, 0, "AC")
    assert "over" in refused(match, 1, "AC")
    assert "over" in refused(match, None, Card.parse("AC"))


def test_scores_are_per_side_seats_0_and_2_are_side_0() -> None:
    match = Match.new(4, seed=2)
    play_match(match)
    assert isinstance(match.scores, tuple) and len(match.scores) == 2
    assert match.scores == tuple(sum(r.points[s] for r in match.rounds) for s in (0, 1))
    assert match.winner in (0, 1)


def test_finished_rounds_give_cards_basras_points_and_the_breakdown() -> None:
    match = Match.new(2, seed=2)
    play_match(match)
    assert match.round_no == len(match.rounds)
    for summary in match.rounds:
        for pair in (summary.cards, summary.basras, summary.points):
            assert isinstance(pair, tuple) and len(pair) == 2
        for side in (0, 1):
            b = summary.breakdown[side]
            assert set(b.to_dict()) == {"majority", "aces", "jacks", "two_clubs", "ten_diamonds", "basras"}
            assert b.total == summary.points[side]


def test_the_view_holds_what_the_seat_may_know() -> None:
    match = new_match([QUIET, "5S 2D 3D 4D"], "5C 9H 5H 10S")
    match.play(1, "5S")
    view = match.view(0)
    assert view.seat == 0
    assert view.hand == match.hand(0)
    assert view.floor == match.floor
    assert view.hand_sizes == (4, 3)
    assert view.stock_count == 40
    assert view.scores == (0, 0)
    assert view.carry == 0
    assert view.to_move == 0
    (play,) = view.history
    assert (play.seat, codes([play.card]), codes(play.taken), play.basra) == (1, ["5S"], ["5C", "5H"], False)


def test_to_record_and_from_record() -> None:
    match = new_match([QUIET, "5S 2D 3D 4D"], "5C 9H 5H 10S")
    match.play(1, "5S")
    record = match.to_record()
    assert record["format"] == "basra-record/1"
    assert record["plays"] == ["5S"]
    again = Match.from_record(record)
    assert again.to_record() == record
    assert again.floor == match.floor and again.to_move == match.to_move
