"""bench/last_deal.py: its positions are last deals as level B plays them, and
each is played to the round's end, the round's points counted."""

from __future__ import annotations

import re

import pytest

from core.ai import player
from core.ai.expert import STRONG_LIKE
from core.ai.inference import fitted_ranks
from core.match import Match

from .bench import load

last_deal = load("last_deal")


def test_the_positions_are_the_starts_of_last_deals_of_b_against_itself() -> None:
    records = last_deal.last_deals("beginner", 4, "check")
    assert len(records) == 4
    for record in records:
        match = Match.from_record(record)
        assert match.stock_count == 0
        assert [len(match.hand(seat)) for seat in range(2)] == [4, 4]
        # The deals over were the beginner's, which the expert reads as straying.
        seat = match.to_move
        assert seat is not None
        assert fitted_ranks(match.view(seat))[1 - seat][0] < STRONG_LIKE


def test_a_position_is_played_to_the_round_end_and_its_points_counted() -> None:
    record = last_deal.last_deals("strong", 1, "check")[0]
    times: list[float] = []
    diff = last_deal.play_out(record, player("expert", seed=1), player("strong", seed=2), 1, times)
    # The same plays again, on a match of its own, give the round's summary.
    match = Match.from_record(record)
    rounds = len(match.rounds)
    bots = {1: player("expert", seed=1), 0: player("strong", seed=2)}
    while len(match.rounds) == rounds:
        seat = match.to_move
        assert seat is not None
        match.play(seat, *bots[seat].choose(match.view(seat)))
    summary = match.rounds[-1]
    assert diff == summary.points[1] - summary.points[0]
    assert len(times) == 3  # the expert's decisions holding 4, 3 and 2 cards


def test_the_report_names_both_players_and_the_paired_difference(capsys: pytest.CaptureFixture[str]) -> None:
    assert last_deal.main(["--b", "beginner", "--positions", "3", "--seed", "check"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("expert (STRONG_LIKE 0.8) against beginner: 3 last deals (seed check), "
                      "each played from both seats, 6 pairs")
    assert out[1].startswith("  the expert: A's points less B's a round ")
    assert out[2].startswith("  exact search off: A's points less B's a round ")
    assert re.fullmatch(r"  the expert less exact search off: [+-]\d+\.\d{3} points a round "
                        r"\(standard error \d+\.\d{3}\); the two ended differently in \d+\.\d% of the pairs",
                        out[3])
