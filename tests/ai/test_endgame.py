"""The exact search of a deal whose hands are all known (``core.ai.endgame``)."""

from __future__ import annotations

import random

import pytest

from core import Match, Rules
from core.ai import player
from core.ai.endgame import MATCH_POINTS, Deal, match_base
from core.ai.expert import STRONG_LIKE, Expert
from core.ai.inference import fitted_ranks
from core.ai.playout import Sampler, World
from core.ai.values import kind_counts

from .positions import cards


def world_of(hands: list[str], floor: str, captured: tuple[int, int], *, dealer: int = 1,
             to_move: int = 0, rules: Rules | None = None) -> World:
    """A last deal (the stock empty) with every hand as given."""
    world = World.__new__(World)
    world.players = len(hands)
    world.rules = rules or Rules()
    world.worth = world.rules.majority_points
    world.dealer = dealer
    world.to_move = to_move
    world.hands = [list(cards(h)) for h in hands]
    world.floor = list(cards(floor))
    world.stock = []
    world.captured = list(captured)
    world.points = [0, 0]
    world.last_capture = None
    world.hidden = kind_counts(c for h in world.hands for c in h)
    return world


def minimax(world: World) -> float:
    """The worth of ``world`` for side 0 by plain minimax over copies, to the end of the deal."""
    side = world.to_move % 2
    best: float | None = None
    for card, positions in world.moves():
        trial = world.copy()
        value = trial.value(0) if trial.play(card, positions) else minimax(trial)
        if best is None or (value > best if side == 0 else value < best):
            best = value
    assert best is not None
    return best


def last_deals(players: int, count: int, played: int = 0, level: str = "strong") -> list[Match]:
    """Matches of ``level`` players stopped in their first round's last deal,
    ``played`` plays into it."""
    out = []
    for i in range(count):
        match = Match.new(players, seed=f"endgame:{players}:{i}")
        bots = [player(level, seed=s) for s in range(players)]
        while True:
            seat = match.to_move
            assert seat is not None
            view = match.view(seat)
            if view.stock_count == 0 and sum(view.hand_sizes) == 4 * players - played:
                break
            card, plan = bots[seat].choose(view)
            match.play(seat, card, plan)
        out.append(match)
    return out


# JH would sweep the floor now, but the 6C would then take the 4S and the 2D
# for a basra, and the majority with it. Laid first, the 2D leaves the
# opponent nothing to take, and the jack takes everything last.
HOLD_THE_JACK = (["JH 2D", "4S 6C"], "QD KD 3H", (20, 25))


def test_the_search_keeps_the_jack_for_the_last_sweep() -> None:
    deal = Deal(world_of(*HOLD_THE_JACK))
    sweep = (cards("JH")[0], (0, 1, 2))
    lay = (cards("2D")[0], None)
    assert deal.values([sweep, lay]) == [1 - 10 - 30, 1 + 30]
    assert deal.best([sweep, lay]) == (1, 31)


def test_a_round_that_ends_the_match_is_worth_more_than_its_points() -> None:
    deal = Deal(world_of(*HOLD_THE_JACK), base=(90, 110))
    sweep = (cards("JH")[0], (0, 1, 2))
    lay = (cards("2D")[0], None)
    assert deal.values([sweep, lay]) == [-39 - MATCH_POINTS, 31 + MATCH_POINTS]


def test_the_cards_left_go_to_the_last_side_to_capture() -> None:
    # Only the 5C takes; whoever plays it takes the 5S and the floor's rest at the end.
    world = world_of(["5C 9H", "KS QH"], "5S 8D", (23, 23))
    deal = Deal(world)
    take = (cards("5C")[0], (0,))
    assert deal.values([take]) == [30.0]


@pytest.mark.parametrize("players,played", [(2, 0), (2, 3), (4, 9)])
def test_the_search_agrees_with_plain_minimax(players: int, played: int) -> None:
    for match in last_deals(players, 4, played):
        seat = match.to_move
        assert seat is not None
        world = Sampler(match.view(seat)).world(random.Random(0))
        if players == 2:
            assert [set(h) for h in world.hands] == [set(match.hand(s)) for s in range(players)]
        world.hands = [list(match.hand(s)) for s in range(players)]
        moves = world.moves()
        sign = 1 if seat % 2 == 0 else -1
        expected = []
        for card, positions in moves:
            trial = world.copy()
            expected.append(sign * (trial.value(0) if trial.play(card, positions) else minimax(trial)))
        assert Deal(world).values(moves) == pytest.approx(expected)


def test_in_a_two_player_last_deal_against_a_seat_that_strays_the_expert_plays_a_best_play() -> None:
    for match in last_deals(2, 6, played=1, level="beginner"):
        seat = match.to_move
        assert seat is not None
        view = match.view(seat)
        assert fitted_ranks(view)[1 - seat][0] < STRONG_LIKE
        world = Sampler(view).world(random.Random(0))
        deal = Deal(world, match_base(view))
        moves = world.moves()
        values = deal.values(moves)
        card, plan = Expert(seed=1).choose(view)
        chosen = [v for (c, positions), v in zip(moves, values, strict=True) if c == card and (
            positions is None if plan == 0 else positions == view.plans(card)[plan - 1].positions)]
        assert chosen and chosen[0] == pytest.approx(max(values))


def test_against_a_seat_that_plays_as_the_strong_player_the_last_deal_is_played_out() -> None:
    # The playouts answer as the strong player answers, so they are kept: the
    # expert chooses exactly as it does with the exact search turned off.
    for match in last_deals(2, 6, played=1):
        seat = match.to_move
        assert seat is not None
        view = match.view(seat)
        assert fitted_ranks(view)[1 - seat][0] >= STRONG_LIKE
        assert Expert(seed=3).choose(view) == Expert(seed=3, exact=False).choose(view)


def test_an_exact_last_deal_differs_from_the_playouts_somewhere() -> None:
    # The switch is not idle: against a seat that strays, solving the last
    # deal changes the choice in some of these positions.
    choices = []
    for match in last_deals(2, 12, played=1, level="beginner"):
        seat = match.to_move
        assert seat is not None
        view = match.view(seat)
        choices.append(Expert(seed=3).choose(view) != Expert(seed=3, exact=False).choose(view))
    assert any(choices)


def test_in_a_two_v_two_last_deal_the_search_is_reproducible_and_legal() -> None:
    for match in last_deals(4, 3, played=5):
        seat = match.to_move
        assert seat is not None
        view = match.view(seat)
        first = Expert(seed=4).choose(view)
        assert Expert(seed=4).choose(view) == first
        card, plan = first
        assert card in view.hand and 0 <= plan <= len(view.plans(card))
