"""The expert: a seed reproduces its choices; its simulations follow the rules."""

from __future__ import annotations

import random

import pytest

from core import Match
from core.ai import player
from core.ai.expert import Expert
from core.ai.judge import DEFAULT_WEIGHTS
from core.ai.moves import legal_moves
from core.ai.playout import PlayChoice, Sampler, Seen, sample_world
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
    with pytest.raises(ValueError):
        Expert(second=0)


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


@pytest.mark.parametrize("players", [2, 4])
def test_the_next_plays_weighed_depend_only_on_what_the_seat_will_have_seen(players: int) -> None:
    # The guesses that reach this seat's next turn by the same plays must
    # offer it the same choices, in the same order: the search compares them
    # by their place in that list, across guesses.
    for match in positions(6, players):
        seat = match.to_move or 0
        view = match.view(seat)
        if len(view.hand) < 2:
            continue
        sampler = Sampler(view)
        rng = random.Random(7)
        move = legal_moves(view)[0]
        offered: dict[tuple[Seen, ...], list[PlayChoice]] = {}
        reached = 0
        for _ in range(60):
            world = sampler.world(rng)
            world.play(move.card, move.positions if move.plan else None)
            seen = world.play_to(seat)
            assert seen is not None  # the seat still holds a card
            choices = world.choices(DEFAULT_WEIGHTS, 3)
            assert choices[0] == world.policy()
            assert 1 <= len(choices) <= 3 and len(set(choices)) == len(choices)
            assert offered.setdefault(tuple(seen), choices) == choices
            reached += 1
        assert reached == 60 and len(offered) > 1


def test_the_next_play_is_chosen_by_the_other_guesses_that_reach_it() -> None:
    path = ((5, None),)
    # Three guesses reach the same turn; the second choice does better on the
    # first two, the first choice much better on the third. A fourth guess
    # ended the deal first.
    raw: list[list[tuple[tuple[Seen, ...] | None, list[float]]]] = [
        [(path, [0.0, 5.0]), (path, [0.0, 5.0]), (path, [20.0, 0.0]), (None, [2.0])]
    ]
    nodes = {(0, path): [20.0, 10.0, 3.0]}
    results = [[0.0, 0.0, 20.0, 2.0]]
    Expert(second=2, least=2)._settle([0], raw, nodes, results)
    # Each guess is settled by the other two: for the third, the first two
    # choose the second choice (its own 20 does not count); for each of the
    # first two, the third's 20 outweighs the other's 5.
    assert results == [[0.0, 0.0, 0.0, 2.0]]
    nodes = {(0, path): [5.0, 15.0, 3.0]}
    raw[0][2] = (path, [5.0, 5.0])
    results = [[0.0, 0.0, 5.0, 2.0]]
    Expert(second=2, least=2)._settle([0], raw, nodes, results)
    assert results == [[5.0, 5.0, 5.0, 2.0]]
    # Until enough others have been there, the strong player's choice stands.
    results = [[0.0, 0.0, 5.0, 2.0]]
    Expert(second=2, least=3)._settle([0], raw, nodes, results)
    assert results == [[0.0, 0.0, 5.0, 2.0]]
