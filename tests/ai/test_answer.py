"""The best answer to a modelled seat in a 2-player last deal (``core.ai.answer``)."""

from __future__ import annotations

import random

import pytest

from core import Match, Rules
from core.ai import player
from core.ai.answer import MATCH_POINTS, MODELS, SEARCHER, SHORTLIST, STRONG, Answer, match_base
from core.ai.expert import STRONG_LIKE, Expert
from core.ai.inference import fitted_ranks
from core.ai.judge import DEFAULT_WEIGHTS, judge
from core.ai.playout import PlayChoice, Sampler, World
from core.ai.values import kind_counts

from .positions import cards


def world_of(hands: list[str], floor: str, captured: tuple[int, int]) -> World:
    """A last deal (the stock empty) with every hand as given, seat 0 to move
    and seat 1 the dealer."""
    world = World.__new__(World)
    world.players = len(hands)
    world.rules = Rules()
    world.worth = world.rules.majority_points
    world.dealer = 1
    world.to_move = 0
    world.hands = [list(cards(h)) for h in hands]
    world.floor = list(cards(floor))
    world.stock = []
    world.captured = list(captured)
    world.points = [0, 0]
    world.last_capture = None
    world.hidden = kind_counts(c for h in world.hands for c in h)
    return world


def last_deals(count: int, played: int = 0, level: str = "strong") -> list[Match]:
    """2-player matches of ``level`` players stopped in their first round's
    last deal, ``played`` plays into it."""
    out = []
    for i in range(count):
        match = Match.new(2, seed=f"answer:{level}:{i}")
        bots = [player(level, seed=s) for s in range(2)]
        while True:
            seat = match.to_move
            assert seat is not None
            view = match.view(seat)
            if view.stock_count == 0 and sum(view.hand_sizes) == 8 - played:
                break
            match.play(seat, *bots[seat].choose(view))
        out.append(match)
    return out


# Plain recursion over copies, with no table: what ``Answer`` must agree with.

def judged_best(world: World) -> list[PlayChoice]:
    moves = world.moves()
    if len(moves) == 1:
        return moves
    scores = [judge(world.situation(), c, p, DEFAULT_WEIGHTS) for c, p in moves]
    return [m for m, s in zip(moves, scores, strict=True) if s >= max(scores) - 1e-9]


def played_out(world: World, side: int) -> float:
    plays = judged_best(world)
    total = 0.0
    for card, positions in plays:
        trial = world.copy()
        total += trial.value(side) if trial.play(card, positions) else played_out(trial, side)
    return total / len(plays)


def model_replies(world: World, model: str) -> list[PlayChoice]:
    if model == STRONG:
        return judged_best(world)
    side = world.to_move % 2
    scored = []
    for card, positions in world.choices(DEFAULT_WEIGHTS, SHORTLIST):
        trial = world.copy()
        worth = trial.value(side) if trial.play(card, positions) else played_out(trial, side)
        scored.append((worth, (card, positions)))
    top = max(w for w, _ in scored)
    return [c for w, c in scored if w >= top - 1e-9]


def reference(world: World, side: int, model: str) -> float:
    options = world.moves() if world.to_move % 2 == side else model_replies(world, model)
    values = []
    for card, positions in options:
        trial = world.copy()
        values.append(trial.value(side) if trial.play(card, positions) else reference(trial, side, model))
    return max(values) if world.to_move % 2 == side else sum(values) / len(values)


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("level,played", [("strong", 0), ("baseline", 1), ("beginner", 3)])
def test_the_search_agrees_with_plain_recursion(model: str, level: str, played: int) -> None:
    for match in last_deals(3, played, level):
        seat = match.to_move
        assert seat is not None
        world = Sampler(match.view(seat)).world(random.Random(0))
        assert [set(h) for h in world.hands] == [set(match.hand(s)) for s in range(2)]
        moves = world.moves()
        expected = []
        for card, positions in moves:
            trial = world.copy()
            side = seat % 2
            expected.append(trial.value(side) if trial.play(card, positions)
                            else reference(trial, side, model))
        answer = Answer(world, model)
        assert answer.values(moves) == pytest.approx(expected)
        best, value = answer.best(moves)
        assert value == pytest.approx(max(expected))
        assert best == min(i for i, v in enumerate(expected) if v >= max(expected) - 1e-9)


# JH would sweep the floor now, but then the 4S laid on the empty floor lets
# the 6C take it and the 2D for a basra, and the majority with it (1 - 10 -
# 30); the 6C laid first leaves the 4S nothing to take, and the floor's rest
# goes to the jack's side with the majority (1 + 30). Laid first, the 2D
# leaves the other seat nothing to take, and the jack takes everything last.
HOLD_THE_JACK = (["JH 2D", "4S 6C"], "QD KD 3H", (20, 25))
SWEEP = {
    # A searching seat plays each lay out and finds the basra.
    SEARCHER: 1 - 10 - 30,
    # The judgement sees no difference between the two lays on an empty
    # floor, so the hand's order decides: either, equally likely.
    STRONG: ((1 - 10 - 30) + (1 + 30)) / 2,
}


@pytest.mark.parametrize("model", MODELS)
def test_the_answer_keeps_the_jack_for_the_last_sweep(model: str) -> None:
    answer = Answer(world_of(*HOLD_THE_JACK), model)
    sweep = (cards("JH")[0], (0, 1, 2))
    lay = (cards("2D")[0], None)
    assert answer.values([sweep, lay]) == [SWEEP[model], 1 + 30]
    assert answer.best([sweep, lay]) == (1, 31)


def test_a_round_that_ends_the_match_is_worth_more_than_its_points() -> None:
    # At 90 to 110 the basra's line loses the match, the lay's line wins it.
    answer = Answer(world_of(*HOLD_THE_JACK), SEARCHER, base=(90, 110))
    sweep = (cards("JH")[0], (0, 1, 2))
    lay = (cards("2D")[0], None)
    assert answer.values([sweep, lay]) == [-39 - MATCH_POINTS, 31 + MATCH_POINTS]


@pytest.mark.parametrize("model", MODELS)
def test_the_cards_left_go_to_the_last_side_to_capture(model: str) -> None:
    # Only the 5C takes; whoever plays it takes the 5S and the floor's rest at the end.
    answer = Answer(world_of(["5C 9H", "KS QH"], "5S 8D", (23, 23)), model)
    assert answer.values([(cards("5C")[0], (0,))]) == [30.0]


def test_an_answer_needs_a_two_player_last_deal_and_a_known_model() -> None:
    world = world_of(*HOLD_THE_JACK)
    with pytest.raises(ValueError, match="unknown model"):
        Answer(world, "perfect")
    dealt = world.copy()
    dealt.stock = list(cards("5H"))
    with pytest.raises(ValueError, match="stock must be empty"):
        Answer(dealt, STRONG)
    four = world_of(["JH", "4S", "6C", "2D"], "QD", (20, 25))
    with pytest.raises(ValueError, match="2 players"):
        Answer(four, STRONG)


def how_often_the_models_foresee(level: str, models: tuple[str, ...], count: int) -> dict[str, float]:
    """For each of ``models``, the share of ``level``'s plays with a choice, in
    last deals of it against itself, that are among the model's replies. The
    models are put to the same plays: the deals are played once."""
    hits = dict.fromkeys(models, 0)
    total = 0
    for match in last_deals(count, 0, level):
        bots = [player(level, seed=f"foresee:{s}") for s in range(2)]
        rounds = len(match.rounds)
        while match.to_move is not None and len(match.rounds) == rounds:
            seat = match.to_move
            view = match.view(seat)
            card, plan = bots[seat].choose(view)
            if len(view.hand) > 1:
                positions = None if plan == 0 else view.plans(card)[plan - 1].positions
                for model in models:
                    world = Sampler(view).world(random.Random(0))
                    hits[model] += (card, positions) in Answer(world, model).replies(world)
                total += 1
            match.play(seat, card, plan)
    return {model: hits[model] / total for model in models}


def test_the_strong_model_foresees_every_play_of_the_strong_player() -> None:
    assert how_often_the_models_foresee("strong", (STRONG,), 6) == {STRONG: 1.0}


def test_the_searcher_model_foresees_the_baseline_better_than_the_strong_one() -> None:
    # The baseline searches one play deep with the strong player's playouts;
    # where its playouts tie, the hand's order (not seen) decides. Both models
    # are put to the same plays of the same deals.
    shares = how_often_the_models_foresee("baseline", (SEARCHER, STRONG), 8)
    searcher, strong = shares[SEARCHER], shares[STRONG]
    assert searcher >= 0.9
    assert searcher > strong


def test_in_a_last_deal_the_expert_plays_the_best_answer_to_its_model() -> None:
    # The other seat is answered as the strong player when its plays in the
    # deals over were the strong player's best often enough, else as a seat
    # that searches.
    models = set()
    for level in ("beginner", "baseline", "strong"):
        for match in last_deals(4, 1, level):
            seat = match.to_move
            assert seat is not None
            view = match.view(seat)
            model = STRONG if fitted_ranks(view)[1 - seat][0] >= STRONG_LIKE else SEARCHER
            models.add(model)
            world = Sampler(view).world(random.Random(0))
            moves = world.moves()
            values = Answer(world, model, match_base(view)).values(moves)
            card, plan = Expert(seed=1).choose(view)
            positions = None if plan == 0 else view.plans(card)[plan - 1].positions
            assert values[moves.index((card, positions))] == pytest.approx(max(values))
    assert models == {STRONG, SEARCHER}


@pytest.mark.parametrize("level", ["beginner", "strong"])
def test_the_answer_differs_from_the_playouts_somewhere(level: str) -> None:
    # Not idle: in some of these positions the answer and the playouts
    # choose differently.
    differs = []
    for played in (0, 1):
        for match in last_deals(20, played, level):
            view = match.view(match.to_move)  # type: ignore[arg-type]
            differs.append(Expert(seed=3).choose(view) != Expert(seed=3, exact=False).choose(view))
    assert any(differs)
