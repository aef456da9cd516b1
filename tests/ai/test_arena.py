"""The arena: whole matches between computer players, and the figures it prints."""

from __future__ import annotations

import pytest

from core.arena import main, percentile, play_match, run, wilson
from core.rules import Rules


def test_the_command_line_plays_a_tiny_run_and_prints_every_figure(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["--a", "strong", "--b", "beginner", "--matches", "2", "--target", "30", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert "A=strong vs B=beginner: 2 matches, 2 players" in out
    assert "95% CI" in out
    for line in ("points per round: A", "basras per round: A", "decision time A (strong): p50",
                 "decision time B (beginner): p50"):
        assert line in out
    assert "p99" in out


def test_four_players_seat_a_in_partnership() -> None:
    report = run("strong", "beginner", matches=2, players=4, seed=2, rules=Rules(target=30))
    assert report.players == 4 and report.matches == 2
    assert len(report.times[0]) == len(report.times[1])


def test_a_pair_of_matches_shares_its_decks_with_the_sides_swapped() -> None:
    first = play_match("beginner", "beginner", 0, 2, "pair", Rules(target=30))
    second = play_match("beginner", "beginner", 1, 2, "pair", Rules(target=30))
    # the same players on the same decks: what A scored in one, B scored in the other
    assert first.points == second.points[::-1]
    assert first.a_won != second.a_won


def test_the_wilson_interval_is_the_textbook_one() -> None:
    low, high = wilson(8, 10)
    assert round(low, 3) == 0.490 and round(high, 3) == 0.943
    assert wilson(0, 0) == (0.0, 1.0)


def test_percentiles_use_the_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([], 0.5) == 0.0


def test_a_run_needs_at_least_one_match(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--matches", "0"])


def test_the_arena_plays_the_baseline_level_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--a", "baseline", "--b", "beginner", "--matches", "2", "--target", "10"]) == 0
    assert "A=baseline vs B=beginner" in capsys.readouterr().out
