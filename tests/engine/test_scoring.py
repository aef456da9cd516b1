"""RULES.md section 5: scoring a round."""

from __future__ import annotations

from typing import Any

import pytest

from core import Card, Match, Rules

from .helpers import find_deck, first_card, round_deck, round_events


def piles_from_events(plays: list[list[Any]]) -> tuple[list[Card], list[Card]]:
    """Each side's pile at the end of a round, rebuilt from the public events."""
    piles: tuple[list[Card], list[Card]] = ([], [])
    played = None
    for events in plays:
        for e in events:
            if e.kind == "card_played":
                played = Card.parse(e.card)
            elif e.kind == "cards_taken":
                piles[e.side].extend(Card.parse(c) for c in e.cards)
                if not e.last:
                    assert played is not None
                    piles[e.side].append(played)
    return piles


def basras_from_events(plays: list[list[Any]]) -> list[int]:
    counts = [0, 0]
    for events in plays:
        for e in events:
            if e.kind == "basra":
                counts[e.side] += 1
    return counts


def rounds_played(players: int, seeds: range) -> list[tuple[Match, list[list[Any]]]]:
    out = []
    for seed in seeds:
        match = Match.new(players, decks=[round_deck(seed)], seed=seed)
        out.append((match, round_events(match)))
    return out


ROUNDS = {players: rounds_played(players, range(25)) for players in (2, 4)}


def test_a_round_ends_when_the_stock_and_every_hand_are_empty() -> None:
    for players in (2, 4):
        match = Match.new(players, seed=17)
        plays = 0
        while match.round_no == 1:
            assert match.stock_count > 0 or any(match.hand(s) for s in range(players))
            assert match.rounds == []
            card, plan = first_card(match)
            assert match.to_move is not None
            match.play(match.to_move, card, plan)
            plays += 1
        assert plays == 48  # every card but the four first floor cards is played
        assert len(match.rounds) == 1


@pytest.mark.parametrize("players", [2, 4])
def test_majority_27_or_more_of_the_52_cards_scores_30(players: int) -> None:
    checked = 0
    for match, plays in ROUNDS[players]:
        summary = match.rounds[0]
        piles = piles_from_events(plays)
        assert summary.cards == (len(piles[0]), len(piles[1]))
        assert sum(summary.cards) == 52
        for side in (0, 1):
            if summary.cards[side] >= 27:
                assert summary.breakdown[side].majority == 30
                assert summary.breakdown[1 - side].majority == 0
                checked += 1
    assert checked >= 20


@pytest.mark.parametrize("players", [2, 4])
def test_each_ace_scores_1_each_jack_1_the_2c_2_the_10d_3(players: int) -> None:
    for match, plays in ROUNDS[players]:
        summary = match.rounds[0]
        piles = piles_from_events(plays)
        for side in (0, 1):
            pile = {c.code for c in piles[side]}
            points = summary.breakdown[side]
            assert points.aces == sum(1 for c in pile if c[0] == "A")
            assert points.jacks == sum(1 for c in pile if c[0] == "J")
            assert points.two_clubs == (2 if "2C" in pile else 0)
            assert points.ten_diamonds == (3 if "10D" in pile else 0)
        assert sum(b.aces + b.jacks for b in summary.breakdown) == 8


@pytest.mark.parametrize("players", [2, 4])
def test_each_basra_scores_10(players: int) -> None:
    for match, plays in ROUNDS[players]:
        summary = match.rounds[0]
        counts = basras_from_events(plays)
        assert list(summary.basras) == counts
        for side in (0, 1):
            assert summary.breakdown[side].basras == 10 * counts[side]


@pytest.mark.parametrize("players", [2, 4])
def test_the_points_of_a_side_are_the_sum_of_its_items(players: int) -> None:
    for match, _ in ROUNDS[players]:
        summary = match.rounds[0]
        for side in (0, 1):
            b = summary.breakdown[side]
            total = b.majority + b.aces + b.jacks + b.two_clubs + b.ten_diamonds + b.basras
            assert summary.points[side] == total
        assert match.scores == summary.points


@pytest.mark.parametrize("players", [2, 4])
def test_a_round_hands_out_43_points_plus_10_per_basra(players: int) -> None:
    for match, _ in ROUNDS[players]:
        summary = match.rounds[0]
        if summary.cards == (26, 26):
            assert sum(summary.points) == 13 + 10 * sum(summary.basras)
        else:
            assert sum(summary.points) == 43 + 10 * sum(summary.basras)


def tie(match: Match, plays: list[list[Any]]) -> bool:
    return match.rounds[0].cards == (26, 26)


def no_tie(match: Match, plays: list[list[Any]]) -> bool:
    return match.rounds[0].cards != (26, 26)


def test_26_26_nobody_scores_the_majority_it_is_carried() -> None:
    match = Match.new(2, decks=[find_deck(tie)])
    plays = round_events(match)
    summary = match.rounds[0]
    assert summary.cards == (26, 26)
    assert summary.breakdown[0].majority == summary.breakdown[1].majority == 0
    assert summary.carry_out == 30
    assert match.carry == 30
    scored = next(e for e in plays[-1] if e.kind == "round_scored")
    assert (scored.carry_in, scored.carry_out) == (0, 30)
    assert match.view(0).carry == 30


def test_26_26_carries_the_majority_to_the_next_round_worth_60_then_90_until_one_side_takes_27() -> None:
    tie_dealt_by_0 = find_deck(tie, dealer=0)
    tie_dealt_by_1 = find_deck(tie, dealer=1)
    decided = find_deck(no_tie, dealer=1)
    match = Match.new(2, decks=[tie_dealt_by_0, tie_dealt_by_1, tie_dealt_by_0, decided])
    carries = []
    for _ in range(4):
        carries.append(match.carry)
        round_events(match)
    assert carries == [0, 30, 60, 90]
    assert [r.carry_in for r in match.rounds] == [0, 30, 60, 90]
    assert [r.carry_out for r in match.rounds] == [30, 60, 90, 0]
    assert [r.cards for r in match.rounds[:3]] == [(26, 26)] * 3
    last = match.rounds[3]
    winner = 0 if last.cards[0] >= 27 else 1
    assert last.breakdown[winner].majority == 120
    assert last.breakdown[1 - winner].majority == 0
    assert match.carry == 0
    # Every round handed out 43 + 10 x basras plus what came in, less what went on.
    for r in match.rounds:
        assert sum(r.points) + r.carry_out == 43 + 10 * sum(r.basras) + r.carry_in


def test_a_carried_majority_is_scored_by_the_side_that_next_takes_27_or_more() -> None:
    match = Match.new(2, decks=[find_deck(tie), find_deck(no_tie, dealer=1)])
    round_events(match)
    round_events(match)
    second = match.rounds[1]
    side = 0 if second.cards[0] >= 27 else 1
    assert second.breakdown[side].majority == 60
    assert sum(second.points) == 43 + 30 + 10 * sum(second.basras)


def test_the_majority_is_27_not_26() -> None:
    from core.scoring import score_round

    deck = list(Card.deck())
    piles = (deck[:27], deck[27:])
    assert score_round(1, 0, piles, (0, 0), 0, Rules()).breakdown[0].majority == 30
    piles = (deck[:26], deck[26:])
    summary = score_round(1, 0, piles, (0, 0), 0, Rules())
    assert summary.breakdown[0].majority == summary.breakdown[1].majority == 0
    assert summary.carry_out == 30
    piles = (deck[:25], deck[25:])
    assert score_round(1, 0, piles, (0, 0), 0, Rules()).breakdown[1].majority == 30
