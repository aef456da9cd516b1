"""bench/deal_end.py: the positions it records at each deal's end are the
round's, and its fits recover what they are given."""

from __future__ import annotations

import random
from types import ModuleType

import pytest

from core.ai.values import LUMP, MAJORITY, MAJORITY_SHARE, majority_share

from .bench import load


@pytest.fixture(scope="module")
def deal_end() -> ModuleType:
    return load("deal_end")


def test_the_majority_share_the_fit_varies_is_the_experts_at_its_spread() -> None:
    for mine in range(0, 30, 3):
        for theirs in range(0, 30, 4):
            if mine + theirs <= 52:
                assert majority_share(mine, theirs, LUMP) == pytest.approx(MAJORITY_SHARE[mine][theirs])
    # a wider spread leaves a lead less settled
    assert 0 < majority_share(24, 18, 6.5) < majority_share(24, 18, LUMP)


def test_least_squares_recovers_the_coefficients(deal_end: ModuleType) -> None:
    rng = random.Random(3)
    xs = [[rng.uniform(-5, 5), rng.uniform(0, 10), 1.0] for _ in range(400)]
    ys = [2.0 * a - 0.5 * b + 3.0 + rng.gauss(0, 0.1) for a, b, _ in xs]
    coefficients, errors = deal_end.least_squares(xs, ys)
    assert coefficients == pytest.approx([2.0, -0.5, 3.0], abs=0.05)
    assert all(0 < e < 0.05 for e in errors)


@pytest.mark.parametrize("players", [2, 4])
def test_each_deals_end_is_recorded_with_how_its_round_ended(deal_end: ModuleType, players: int) -> None:
    rows = deal_end.rows(players, 2, "deal-end:test")
    assert rows
    sizes = {row[0] for row in rows}
    per_deal = 4 * players
    # every deal's end but the round's last, with the next deal still in the stock:
    # the cards neither taken nor on the floor are the stock the view counts and
    # the hands just dealt from it
    assert sizes == set(range(per_deal, 52 - 4 - per_deal + 1, per_deal))
    for _size, mine, theirs, worth, _shot, _cards, _points, sign, _so_far, _final, took in rows:
        assert worth >= 30 and sign in (1, -1) and took in (1, 0, -1)
        if mine >= MAJORITY:
            assert took == 1
        if theirs >= MAJORITY:
            assert took == -1
