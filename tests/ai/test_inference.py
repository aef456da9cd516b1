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
from core.ai.inference import (
    RANK_PRIOR,
    SEARCHER,
    PastPlay,
    Reader,
    fitted_models,
    fitted_ranks,
    moves_of,
    resample,
    searcher_log,
)
from core.ai.judge import judge, judge_parts, value_of
from core.ai.moves import legal_moves
from core.ai.odds import floor_key
from core.ai.playout import Sampler
from core.ai.strong import situation
from core.rules import Rules
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


def test_the_parts_of_a_judgement_add_up_to_it() -> None:
    # Every move of every position of a few matches, lays of dearer twins and
    # a round's last plays included.
    checked = 0
    for i in range(6):
        match = Match.new(2, seed=f"read:parts:{i}")
        bots = [player("strong", seed=0), player("beginner", seed=1)]
        while match.to_move is not None:
            view = match.view(match.to_move)
            s = situation(view)
            for move in legal_moves(view):
                positions = move.positions if move.plan else None
                assert value_of(judge_parts(s, move.card, positions)) == pytest.approx(
                    judge(s, move.card, positions), abs=1e-9)
                checked += 1
            card, plan = bots[match.to_move].choose(view)
            match.play(match.to_move, card, plan)
    assert checked > 1000


def _past(card: str, floor: str, taken: str) -> PastPlay:
    p = PastPlay()
    p.seat = 1
    p.card = Card.parse(card)
    p.floor = sorted(cards(floor), key=lambda c: c.index)
    p.key = floor_key(p.floor, Rules())
    took = set(cards(taken))
    p.positions = tuple(i for i, c in enumerate(p.floor) if c in took) if took else None
    p.later = []
    p.mine = p.theirs = 0
    p.pool = [4] * 16
    p.next_cards = 4
    p.partner_cards = 0
    p.last_capture_mine = False
    return p


def test_a_play_that_took_one_of_two_interchangeable_cards_is_its_plan() -> None:
    # The 5S takes an ace and the 4H: one plan, whichever ace it took.
    for ace in ("AC", "AD"):
        p = _past("5S", "AC AD 4H KS", f"{ace} 4H")
        at, parts = moves_of(p, list(cards("5S 9H")), [3] * 16, Rules(), 30)
        assert len(parts) == 2 and parts[at].taken == 3


def test_a_searcher_rarely_lets_a_basra_go_and_keeps_its_jack() -> None:
    # Floor 3H 4C: laying the 9D while the 7S would have swept it for a basra.
    passed = _past("9D", "3H 4C", "")
    at, parts = moves_of(passed, list(cards("9D 7S")), [3] * 16, Rules(), 30)
    swept = _past("7S", "3H 4C", "3H 4C")
    at_swept, parts_swept = moves_of(swept, list(cards("9D 7S")), [3] * 16, Rules(), 30)
    assert searcher_log(at, parts) < searcher_log(at_swept, parts_swept) - 2.0
    # A jack spent on two cards while a 9 takes as many: a searcher keeps the jack.
    spent = _past("JC", "4H 5S", "4H 5S")
    at_jack, parts_jack = moves_of(spent, list(cards("JC 9H 2D")), [3] * 16, Rules(), 30)
    nine = _past("9H", "4H 5S", "4H 5S")
    at_nine, parts_nine = moves_of(nine, list(cards("JC 9H 2D")), [3] * 16, Rules(), 30)
    assert searcher_log(at_jack, parts_jack) < searcher_log(at_nine, parts_nine) - 1.0
    assert SEARCHER.sweeper < 0 < SEARCHER.basra


@pytest.mark.parametrize("level, searching", [("strong", False), ("expert", True)])
def test_a_seat_is_read_as_a_searcher_when_that_fits_its_plays_better(level: str, searching: bool) -> None:
    # After a round, the strong player is read by the rank of its plays, and the
    # expert, which searches, by the parts of the judgement it weighs.
    match = Match.new(2, seed=f"read:searcher:{level}")
    play_out(match, [player("strong", seed=0), player(level, seed=1)], plays=60)
    _, read_as = fitted_models(match.view(0))
    assert read_as[1] is searching
