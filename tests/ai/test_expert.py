"""The expert: a seed reproduces its choices; its simulations follow the rules."""

from __future__ import annotations

import random

import pytest

from core import Match
from core.ai import player
from core.ai.expert import Expert
from core.ai.playout import sample_world
from core.ai.values import KIND_OF

from .positions import play_out, view_of


def positions(n: int, players: int = 2) -> list[Match]:
    """Matches stopped at assorted points of their first round."""
    out = []
    for i in range(n):
        match = Match.new(players, seed=f"expert:{i}")
        play_out(match, [player("strong", seed=s) for s in range(players)], plays=3 * i % 40)
        out.append(match)
    return out


def test_the_same_seed_reproduces_every_choice() -> None:
    for match in positions(6):
        view = match.view(match.to_move or 0)
        first = [player("expert", seed=5).choose(view) for _ in range(2)]
        assert first[0] == first[1]


def test_a_fresh_expert_replays_a_whole_sequence_of_choices() -> None:
    views = [m.view(m.to_move or 0) for m in positions(4)]
    a, b = Expert(seed=3, simulations=30), Expert(seed=3, simulations=30)
    assert [a.choose(v) for v in views] == [b.choose(v) for v in views]


def test_it_takes_a_basra_when_one_is_there() -> None:
    view = view_of("9D 2S KH QC", "4H 5S")
    card, plan = player("expert", seed=1).choose(view)
    assert (card.code, plan) == ("9D", 1)


def test_the_budget_must_allow_a_simulation() -> None:
    with pytest.raises(ValueError):
        Expert(simulations=0)
    with pytest.raises(ValueError):
        Expert(plays=0)


@pytest.mark.parametrize("players", [2, 4])
def test_the_same_seed_reproduces_choices_that_read_the_other_hands(players: int) -> None:
    for match in positions(4, players):
        match = Match.new(players, seed=f"expert:read:{players}")
        play_out(match, [player("strong", seed=s) for s in range(players)], plays=4 * players + 3)
        view = match.view(match.to_move or 0)
        assert Expert(seed=2, plays=300).choose(view) == Expert(seed=2, plays=300).choose(view)


@pytest.mark.parametrize("players", [2, 4])
def test_a_sampled_world_is_consistent_with_the_view(players: int) -> None:
    for match in positions(5, players):
        seat = match.to_move or 0
        view = match.view(seat)
        world = sample_world(view, random.Random(1))
        assert [len(h) for h in world.hands] == list(view.hand_sizes)
        assert world.hands[seat] == list(view.hand)
        assert len(world.stock) == view.stock_count
        hidden = [c for s, h in enumerate(world.hands) if s != seat for c in h] + world.stock
        assert set(hidden) == set(view.unknown()) | {c for c in view.buried if c in hidden}
        assert len(set(hidden)) == len(hidden)
        counts = [0] * 16
        for c in [*hidden, *view.hand]:
            counts[KIND_OF[c.index]] += 1
        assert world.hidden == counts


@pytest.mark.parametrize("players", [2, 4])
def test_a_simulated_deal_plays_exactly_like_the_engine(players: int) -> None:
    for i in range(4):
        match = Match.new(players, seed=f"sim:{i}")
        play_out(match, [player("beginner", seed=s) for s in range(players)], plays=players * 4 * (i % 3))
        world = sample_world(match.view(match.to_move or 0), random.Random(i))
        # put the real hidden cards in, then follow the same plays in both
        world.hands = [list(match.hand(s)) for s in range(players)]
        world.stock = list(match._stock)
        over = False
        while not over:
            seat = match.to_move
            assert seat is not None and world.to_move == seat
            card, plan = player("strong").choose(match.view(seat))
            positions_taken = match.plans(card)[plan - 1].positions if plan else None
            match.play(seat, card, plan)
            over = world.play(card, positions_taken)
            if not over:
                assert world.floor == list(match.floor)
        if world.round_over:
            assert tuple(world.captured) == match.rounds[-1].cards
        else:
            assert world.floor == list(match.floor)
            assert tuple(world.captured) == match.view(0).captured
