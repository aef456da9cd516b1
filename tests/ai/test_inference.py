"""Reading the hands from the plays: the hands the strong player really held rank
each of its plays first, a hand that would have passed up a basra loses weight,
and each seat is read as sharply as it has played by the judgement."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from core import Card, Match
from core.ai import player
from core.ai.inference import RANK_PRIOR, Reader, fitted_ranks, resample
from core.ai.playout import Sampler
from core.view import PublicPlay

from .positions import cards, play_out, view_of


@pytest.mark.parametrize("players", [2, 4])
def test_the_hands_the_strong_player_really_held_fit_its_plays(players: int) -> None:
    read = 0
    for i in range(12):
        match = Match.new(players, seed=f"read:{players}:{i}")
        play_out(match, [player("strong", seed=s) for s in range(players)], plays=1 + 5 * i % 40)
        if match.to_move is None:
            continue
        reader = Reader(match.view(match.to_move))
        for seat in reader.seats:
            ranks = reader.ranks(seat, list(match.hand(seat)))
            assert ranks and all(above == 0 for above, _ in ranks)
        read += reader.reads
    assert read


def test_a_hand_that_would_have_made_a_basra_did_not_lay_a_card() -> None:
    # Seat 1 laid the 3C on a lone 5H: a hand with a 5 would have swept it.
    laid = PublicPlay(round_no=1, seat=1, card=Card.parse("3C"), taken=(), basra=False)
    view = view_of("9S 8D 4C KD", "5H 3C", seat=0, dealer=0, hand_sizes=[4, 3], history=[laid],
                   stock_count=36)
    reader = Reader(view)
    assert reader.reads
    with_five = [list(view.hand), list(cards("5S 9C 10H"))]
    with_eight = [list(view.hand), list(cards("8H 2H 10D"))]  # the 3 makes 8 for the 8 to take
    assert reader.ranks(1, with_five[1])[0][0] > 0  # the 5 would have swept the floor
    assert reader.ranks(1, with_eight[1]) == [(0, 1)]
    assert reader.log_weight(with_five) < reader.log_weight(with_eight) - 0.5
    threes = list(cards("3S 3H 3D"))  # every card would have been laid alike
    assert reader.ranks(1, threes) == [(0, 4)]


def test_nothing_is_read_at_the_first_play_of_a_deal() -> None:
    match = Match.new(2, seed="read:start")
    assert not Reader(match.view(match.to_move or 0)).reads


def test_resampling_draws_in_proportion_to_the_weights() -> None:
    picked = resample([0.0, -100.0, 0.0, -100.0], 10, 0.5)
    assert sorted(set(picked)) == [0, 2] and picked.count(0) == 5
    assert resample([-3.0], 4, 0.9) == [0, 0, 0, 0]


def test_guesses_are_drawn_from_the_view_alone() -> None:
    match = Match.new(2, seed="read:guess")
    play_out(match, [player("strong", seed=s) for s in range(2)], plays=3)
    view = match.view(match.to_move or 0)
    a = Sampler(view).world(random.Random(4))
    b = Sampler(view).world(random.Random(4))
    assert a.hands == b.hands and a.stock == b.stock


def test_a_seat_that_plays_as_judged_is_read_more_sharply_than_one_that_plays_by_whim() -> None:
    match = Match.new(2, seed="read:fit")
    play_out(match, [player("strong", seed=0), player("strong", seed=1)], plays=40)
    sharp = fitted_ranks(match.view(0))[1]
    assert sharp[0] > 0.8 and sum(sharp) == pytest.approx(1.0)
    whim = Match.new(2, seed="read:fit")
    play_out(whim, [player("strong", seed=0), player("beginner", seed=1)], plays=40)
    loose = fitted_ranks(whim.view(0))[1]
    assert loose[0] < sharp[0] - 0.2 and sum(loose) == pytest.approx(1.0)


def test_before_any_deal_is_over_every_seat_is_read_at_the_prior() -> None:
    match = Match.new(4, seed="read:prior")
    play_out(match, [player("strong", seed=s) for s in range(4)], plays=5)
    prior = [c / sum(RANK_PRIOR) for c in RANK_PRIOR]
    assert fitted_ranks(match.view(match.to_move or 0)) == [prior] * 4


@pytest.mark.parametrize("players", [2, 4])
def test_a_reader_weighs_a_guess_the_same_whatever_it_weighed_before(players: int) -> None:
    # The weights are kept per seat by the kinds of its hand: a reader that has
    # weighed many guesses must give each the weight a fresh reader gives it.
    match = Match.new(players, seed=f"read:memo:{players}")
    play_out(match, [player("strong", seed=s) for s in range(players)], plays=2 + players * 4)
    view = match.view(match.to_move or 0)
    shared = Reader(view)
    assert shared.reads
    sampler = Sampler(view)
    rng = random.Random(7)
    guesses = [sampler.hands_of(sampler.shuffled(rng)) for _ in range(60)]
    weights = [shared.log_weight(hands) for hands in guesses]
    assert weights == [Reader(view).log_weight(hands) for hands in guesses]
    assert len(set(weights)) > 1


def test_the_other_hands_are_drawn_from_every_hidden_card() -> None:
    match = Match.new(2, seed="read:draw")
    play_out(match, [player("strong", seed=s) for s in range(2)], plays=5)
    view = match.view(match.to_move or 0)
    sampler = Sampler(view)
    rng = random.Random(3)
    other = 1 - view.seat
    held: dict[Card, int] = {}
    draws = 12000
    for _ in range(draws):
        for card in sampler.build(sampler.shuffled(rng)).hands[other]:
            held[card] = held.get(card, 0) + 1
    hidden = set(view.unknown())
    assert set(held) == hidden
    # each hidden card is in the hand about as often as the hand's share of them
    expected = draws * view.hand_sizes[other] / len(hidden)
    assert all(abs(n - expected) < 0.25 * expected for n in held.values())


def test_the_reading_makes_the_hands_the_strong_player_held_likelier() -> None:
    # bench/reading.py's score: the log of how many times likelier the reading makes
    # the true hand than the guesses drawn before reading (0: it says nothing).
    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    try:
        import reading
    finally:
        sys.path.pop(0)
    scores = reading.score(reading.cases("strong", "strong", 2, 3, "read:score"))
    (mean, count), = scores.values()
    assert count > 100 and mean > 0.3
