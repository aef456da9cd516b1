"""Reading a seat that searches by a small search of its own kind: which seats
are read so, what a search from a supposed hand makes of a play, and that the
chances kept across a deal's decisions are the ones a fresh reading gives."""

from __future__ import annotations

import math

from core import Card, Match
from core.ai import player
from core.ai.inference import Reader
from core.ai.judge import DEFAULT_WEIGHTS
from core.ai.mimic import Scene, log_chance
from core.rules import Rules

from .positions import cards, play_out


def scene(floor: str, card: str, held: list[int], stock: int = 36) -> Scene:
    """Seat 1 of 2 about to lay ``card`` on ``floor``, every other card unseen."""
    s = Scene()
    s.seat = 1
    s.players = 2
    s.rules = Rules()
    s.worth = s.rules.majority_points
    s.dealer = 0
    s.card = Card.parse(card)
    s.positions = None
    s.floor = list(cards(floor))
    s.held = held
    s.stock = stock
    s.stock_buried = []
    s.buried_held = [[], []]
    s.captured = [0, 0]
    s.last_side = 0
    s.unseen = [c for c in Card.deck() if c not in s.floor]
    return s


def test_a_searcher_that_laid_a_card_on_a_lone_five_held_no_five() -> None:
    laid = scene("5H", "3C", held=[4, 4])
    with_five = list(cards("5S 9C 10H 3C"))  # the 5 sweeps the floor: a basra
    with_eight = list(cards("8H 2H 10D 3C"))  # nothing takes the 5: a 3 laid is a fair play
    five = log_chance(laid, with_five, 1, DEFAULT_WEIGHTS)
    eight = log_chance(laid, with_eight, 1, DEFAULT_WEIGHTS)
    assert five < eight - 2.0
    assert math.exp(eight) > 0.05
    assert five <= 0.0 and eight <= 0.0


def test_the_chance_depends_on_the_kinds_of_the_hand_and_the_seed_alone() -> None:
    laid = scene("5H KD", "3C", held=[4, 4])
    a = log_chance(laid, list(cards("8H 2H 9S 3C")), 7, DEFAULT_WEIGHTS)
    b = log_chance(laid, list(cards("9C 8S 2S 3C")), 7, DEFAULT_WEIGHTS)  # suits and order differ
    assert a == b
    assert log_chance(laid, list(cards("8H 2H 9S 3C")), 7, DEFAULT_WEIGHTS) == a


def test_a_hand_of_one_move_says_nothing() -> None:
    assert log_chance(scene("5H", "3C", held=[1, 4]), list(cards("3C")), 1, DEFAULT_WEIGHTS) == 0.0


def reading_after(levels: list[str], plays: int, seed: str) -> Match:
    match = Match.new(2, seed=seed)
    play_out(match, [player(level, seed=f"{seed}:{s}") for s, level in enumerate(levels)], plays=plays)
    return match


def test_a_seat_that_searches_is_read_by_search_and_one_that_plays_as_judged_is_not() -> None:
    searched = 0
    for i in range(4):
        match = reading_after(["strong", "baseline"], 30 + 3 * i, f"mimic:who:{i}")
        view = match.view(0)
        assert Reader(view, mimic=False).searchers == [False, False]
        searched += Reader(view, mimic=True).searchers[1]
        both = reading_after(["strong", "strong"], 30 + 3 * i, f"mimic:who:{i}")
        assert Reader(both.view(0), mimic=True).searchers == [False, False]
    assert searched >= 3  # the baseline strays from the judgement about one play in four


def test_what_a_deal_kept_weighs_a_hand_as_a_fresh_reading_does() -> None:
    # An expert keeps a searching seat's chances across its decisions of a
    # deal; a hand must weigh what a reader with nothing kept gives it.
    for i in range(6):
        match = reading_after(["strong", "baseline"], 36 + i, f"mimic:kept:{i}")
        if match.to_move != 0:
            continue
        view = match.view(0)
        kept: dict[tuple[int, int, int], float] = {}
        first = Reader(view, mimic=True, known=kept)
        if not first.searches:
            continue
        hands = [list(match.hand(1)), list(cards("2S 2H 2D 2C"))[: len(match.hand(1))]]
        weights = [first.seat_weight(1, h) for h in hands]
        assert kept
        again = Reader(view, mimic=True, known=kept)
        fresh = Reader(view, mimic=True)
        assert [again.seat_weight(1, h) for h in hands] == weights
        assert [fresh.seat_weight(1, h) for h in hands] == weights
        return
    raise AssertionError("no position read a searching seat")


def test_an_expert_weighs_every_last_card_of_a_searching_seat_and_deals_only_those() -> None:
    from core.ai.expert import Expert
    from core.ai.playout import Sampler
    from core.ai.values import KIND_OF

    found = 0
    for i in range(40):
        match = reading_after(["strong", "baseline"], 30 + i, f"mimic:last:{i}")
        view = match.view(0)
        if match.to_move != 0 or len(match.hand(1)) != 1 or not view.stock_count:
            continue
        sampler = Sampler(view)
        table = Expert(seed=1, exact=1, guesses=4)._table(view, sampler)
        if table is None:
            continue
        logs, hands, by_kind = table
        kinds = {k for k in range(len(by_kind)) if by_kind[k]}
        # One hand for each kind of card the seat may hold, each weighed.
        assert sorted(h[0] for h in hands) == sorted(kinds)
        assert all(math.isfinite(w) for w in logs) and len(set(logs)) > 1
        guesses = Expert(seed=1, exact=1, guesses=4)._exact_guesses(sampler, table)
        assert guesses and all(len(w.hands[1]) == 1 and KIND_OF[w.hands[1][0].index] in kinds
                               for w in guesses)
        found += 1
        if found == 3:
            return
    raise AssertionError("too few positions with a searching seat down to its last card")
