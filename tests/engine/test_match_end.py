"""RULES.md section 6: the match."""

from __future__ import annotations

from typing import Any

import pytest

from core import IllegalPlay, Match, Rules

from .helpers import first_card, play_match, round_deck, round_events


def round_points(seed: int, dealer: int) -> tuple[int, int]:
    match = Match.new(2, decks=[round_deck(seed)], dealer=dealer)
    round_events(match)
    summary = match.rounds[0]
    assert summary.carry_out == 0 or summary.cards == (26, 26)
    return summary.points if summary.carry_out == 0 else (-1, -1)


def test_the_match_is_played_to_121_points() -> None:
    assert Rules().target == 121


@pytest.mark.parametrize("players", [2, 4])
def test_the_match_is_played_over_as_many_rounds_as_it_takes(players: int) -> None:
    for seed in range(6):
        match = Match.new(players, seed=seed)
        play_match(match)
        assert match.winner is not None
        assert len(match.rounds) > 1
        assert match.scores[match.winner] >= 121
        totals = (0, 0)
        for summary in match.rounds[:-1]:
            totals = (totals[0] + summary.points[0], totals[1] + summary.points[1])
            # Before the last round nobody had won: under 121, or level.
            assert max(totals) < 121 or totals[0] == totals[1]


def test_the_target_is_checked_only_after_a_complete_round() -> None:
    match = Match.new(2, Rules(target=1), seed=3)
    while match.to_move is not None:
        assert match.winner is None
        assert match.to_move is not None
        card, plan = first_card(match)
        match.play(match.to_move, card, plan)
    assert match.winner is not None
    assert len(match.rounds) == 1


def test_one_side_at_121_or_more_wins() -> None:
    for seed in range(10):
        match = Match.new(2, seed=seed)
        play_match(match)
        a, b = match.scores
        assert match.winner == (0 if a > b else 1)
        assert max(a, b) >= 121
        assert match.to_move is None


def test_one_side_at_the_target_wins_even_with_the_other_far_behind() -> None:
    points = round_points(0, 0)
    high = max(points)
    match = Match.new(2, Rules(target=high), decks=[round_deck(0)])
    plays = round_events(match)
    assert match.winner == points.index(high)
    won = [e for e in plays[-1] if e.kind == "match_won"]
    assert len(won) == 1
    assert won[0].side == match.winner
    assert won[0].scores == tuple(match.scores)


def test_both_sides_over_target_higher_total_wins() -> None:
    for seed in range(50):
        points = round_points(seed, 0)
        if min(points) > 0:
            break
    low, high = sorted(points)
    assert low != high
    match = Match.new(2, Rules(target=low), decks=[round_deck(seed)])
    round_events(match)
    assert min(match.scores) >= low
    assert match.winner == points.index(high)


def test_both_sides_over_121_higher_total_wins() -> None:
    found = 0
    for seed in range(1000):
        match = Match.new(2, seed=seed)
        play_match(match)
        if min(match.scores) >= 121:
            found += 1
            a, b = match.scores
            assert match.winner == (0 if a > b else 1)
            if found == 3:
                break
    assert found == 3


def equal_totals_after_two_rounds() -> tuple[int, int, int]:
    """Decks for two rounds (dealer 0, then 1) after which both sides have the same total."""
    first = {seed: round_points(seed, 0) for seed in range(150)}
    second = {seed: round_points(seed, 1) for seed in range(150)}
    for s1, (a, b) in first.items():
        if a < 0:
            continue
        for s2, (c, d) in second.items():
            if c > 0 and d > 0 and a + c == b + d:
                return s1, s2, a + c
    raise AssertionError("no such rounds")


EQUAL = equal_totals_after_two_rounds()


def test_equal_totals_over_target_play_another_round() -> None:
    s1, s2, total = EQUAL
    match = Match.new(2, Rules(target=total), decks=[round_deck(s1), round_deck(s2)], seed=1)
    round_events(match)
    assert match.winner is None
    plays = round_events(match)
    assert match.scores == (total, total)
    assert match.winner is None
    assert match.round_no == 3
    assert match.to_move == (match.dealer + 1) % 2
    assert not any(e.kind == "match_won" for e in plays[-1])
    assert any(e.kind == "round_started" for e in plays[-1])
    # No lot: the next complete round decides, unless it levels again.
    plays = round_events(match)
    if match.scores[0] != match.scores[1]:
        assert match.winner == (0 if match.scores[0] > match.scores[1] else 1)


def test_equal_totals_below_target_play_on_as_usual() -> None:
    s1, s2, total = EQUAL
    match = Match.new(2, Rules(target=total + 1), decks=[round_deck(s1), round_deck(s2)], seed=1)
    round_events(match)
    round_events(match)
    assert match.scores == (total, total)
    assert match.winner is None
    assert match.round_no == 3


def test_only_the_match_result_counts_nothing_is_decided_before_the_end() -> None:
    match = Match.new(2, seed=12)
    won: list[Any] = []
    while match.to_move is not None:
        assert match.winner is None
        card, plan = first_card(match)
        won.extend(e for e in match.play(match.to_move, card, plan) if e.kind == "match_won")
    assert len(won) == 1
    assert won[0].side == match.winner
    assert match.view(0).winner == match.view(1).winner == match.winner


def test_after_the_match_no_card_can_be_played() -> None:
    match = Match.new(2, seed=12)
    play_match(match)
    before = match.to_record()
    for seat in (0, 1):
        with pytest.raises(IllegalPlay):
            match.play(seat, "AC")
    assert match.to_record() == before
