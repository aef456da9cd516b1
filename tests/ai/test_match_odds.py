"""Playing for the match: the chance of winning from the end of a deal or round."""

from __future__ import annotations

import pytest

from core import Match
from core.ai import player
from core.ai.match_odds import MOST_TARGET, STEP, for_rules
from core.ai.playout import round_totals
from core.ai.round_points import DEALS, ROUND_POINTS, count_rounds
from core.rules import Rules

from .positions import play_out


@pytest.mark.parametrize("players", [2, 4])
def test_the_table_is_fair_between_even_players(players: int) -> None:
    odds = for_rules(players, Rules())
    assert odds is not None
    table = odds.table
    n = len(table)
    assert n == (121 + STEP - 1) // STEP
    for i in range(n):
        assert table[i][i] == pytest.approx(0.5, abs=1e-9)
        for j in range(n):
            assert table[i][j] + table[j][i] == pytest.approx(1.0, abs=1e-9)
            if i + 1 < n:
                assert table[i + 1][j] >= table[i][j] - 1e-12  # more points never hurt
    # 60 points up at the start of a round is a long way ahead, not a sure win.
    assert 0.7 < odds.at_round_end(60, 0) < 0.9
    assert odds.at_round_end(0, 100) < 0.1


def test_the_end_of_a_round_decides_at_the_target() -> None:
    odds = for_rules(2, Rules())
    assert odds is not None
    assert odds.at_round_end(121, 120) == 1.0
    assert odds.at_round_end(125, 130) == 0.0
    assert odds.at_round_end(130, 130) == 0.5  # another round: even
    assert odds.at_round_end(120, 0) < 1.0  # not yet
    small = for_rules(2, Rules(target=100))
    assert small is not None and small.at_round_end(100, 99) == 1.0


def test_the_end_of_a_deal_weighs_the_rest_of_the_round() -> None:
    odds = for_rules(2, Rules())
    assert odds is not None
    # Both sides within reach of 121: the majority decides, and it leans to
    # the side with more cards.
    even = odds.at_deal_end(110, 110, 15, 15, 30, 6, 10, 1, 0.0)
    assert even == pytest.approx(0.5, abs=1e-9)
    ahead_in_cards = odds.at_deal_end(110, 110, 20, 12, 30, 6, 10, 1, 0.0)
    assert ahead_in_cards > 0.7
    # A side sure of the majority and of the target has won.
    assert odds.at_deal_end(100, 50, 27, 10, 30, 6, 10, 1, 0.0) == pytest.approx(1.0)
    # A lead at the next deal's floor is worth something.
    led = odds.at_deal_end(60, 60, 10, 10, 30, 6, 10, 3, 5.0)
    assert led > odds.at_deal_end(60, 60, 10, 10, 30, 6, 10, 3, 0.0)
    # A split tie gives both sides the majority.
    split = for_rules(2, Rules(majority_tie="split"))
    assert split is not None
    assert split.at_deal_end(100, 100, 26, 26, 30, 0, 0, 0, 0.0) == pytest.approx(0.5)


def test_matches_beyond_the_largest_target_count_points() -> None:
    assert for_rules(2, Rules(target=MOST_TARGET)) is not None
    assert for_rules(2, Rules(target=MOST_TARGET + 1)) is None


def test_round_totals_are_the_points_each_side_has_so_far() -> None:
    for seed in range(8):
        match = Match.new(2, seed=f"totals:{seed}")
        bots = [player("strong", seed=s) for s in range(2)]
        play_out(match, bots, plays=70 + 3 * seed)  # into the match's later rounds
        view = match.view(match.to_move or 0)
        totals = round_totals(view)
        # What each side has taken this round, counted from its piles.
        piles = match.piles
        basras = view.round_basras
        for side in (0, 1):
            taken = sum(c.points for c in piles[side]) + 10 * basras[side]
            assert totals[side] == view.scores[side] + taken


def test_the_round_data_are_what_rounds_give() -> None:
    for players in (2, 4):
        assert DEALS[players] * 4 * players + 4 == 52
        rows = ROUND_POINTS[players]
        assert sum(n for *_, n in rows) > 10_000
        for mine, theirs, who, n in rows:
            # 13 card points a round, and 10 a basra
            assert (mine + theirs - 13) % 10 == 0 and who in (0, 1, 2) and n > 0
    again = count_rounds(2, 3)
    assert again == count_rounds(2, 3)
    assert all((a + b - 13) % 10 == 0 for a, b, _, _ in again)
