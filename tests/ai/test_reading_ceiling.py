"""bench/reading_ceiling.py: the chance of a play under the baseline's own
policy is the share of its runs that make it, and a short measure runs."""

from __future__ import annotations

import math
from types import ModuleType

import pytest

from core import Match
from core.ai import player

from .bench import load


@pytest.fixture(scope="module")
def ceiling() -> ModuleType:
    return load("reading_ceiling")


def test_the_play_the_baseline_made_has_the_top_share(ceiling: ModuleType) -> None:
    match = Match.new(2, seed="ceiling:test")
    view = match.view(match.to_move or 0)
    made = player("baseline", seed="ceiling:0").choose(view)
    chances = {}
    for move in ceiling.legal_moves(view):
        chances[(move.card, move.plan)] = ceiling.own_chance(view, move.card, move.plan, 4)
    assert chances[made] > 0.5  # the run with seed ceiling:0 made it, and most others do
    assert all(0 < c < 1 for c in chances.values())
    assert sum(c * 5 - 0.5 for c in chances.values()) == pytest.approx(4)  # every run makes one play


def test_a_short_measure_reads_the_plays_it_says(ceiling: ModuleType) -> None:
    own, rank, done = ceiling.measure(3, 2, 2, "ceiling:short")
    assert done == 3 and math.isfinite(own) and math.isfinite(rank)
