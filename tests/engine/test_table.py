"""RULES.md section 1: the table."""

from __future__ import annotations

import pytest

from core import BasraError, Card, Match

from .helpers import build_deck, cards, codes, new_match, play_round


def all_cards(match: Match) -> list[Card]:
    held = [c for seat in range(match.players) for c in match.hand(seat)]
    piles = [c for pile in match.piles for c in pile]
    return held + list(match.floor) + piles


def test_one_52_card_deck_nothing_removed() -> None:
    for players in (2, 4):
        match = Match.new(players, seed=3)
        in_play = all_cards(match)
        assert len(in_play) + match.stock_count == 52
        assert len(set(in_play)) == len(in_play)
        play_round(match)
        summary = match.rounds[0]
        assert sum(summary.cards) == 52


def test_a_deck_given_to_the_engine_must_hold_each_of_the_52_cards_once() -> None:
    deck = list(Card.deck())
    with pytest.raises(BasraError):
        Match.new(2, decks=[deck[:-1]])
    with pytest.raises(BasraError):
        Match.new(2, decks=[[*deck[:-1], deck[0]]])
    with pytest.raises(BasraError):
        Match.new(2, decks=[[*deck, deck[0]]])


def test_two_players_each_for_themselves_each_seat_is_a_side() -> None:
    match = new_match(["5H KC KD KH", "6S QC QD QH"], "5C 6D 9H 9S")
    match.play(1, "6S")
    match.play(0, "5H")
    assert codes(match.piles[0]) == ["5C", "5H"]
    assert codes(match.piles[1]) == ["6D", "6S"]


def test_four_players_partners_facing_each_other_seats_0_and_2_against_1_and_3() -> None:
    # Dealer 3: seat 0 plays first, then 1, 2, 3.
    match = new_match(
        ["5H KC KD KH", "6S QC QD QH", "8C KS 3C 3D", "9D QS 3H 3S"], "5C 6D 8H 9S", dealer=3
    )
    for seat, card in enumerate(["5H", "6S", "8C", "9D"]):
        match.play(seat, card)
    assert codes(match.piles[0]) == ["5C", "5H", "8H", "8C"]
    assert codes(match.piles[1]) == ["6D", "6S", "9S", "9D"]


def test_partners_share_one_capture_pile_and_one_score() -> None:
    # Seat 0 sweeps with a jack, seat 1 lays a king, seat 2 takes it: a basra for side 0.
    match = new_match(
        ["JC 4C 4D 4H", "KS 5C 5D 5H", "KH 6C 6D 6H", "8S 8C 8D 8H"], "2C 3D 9H 9S", dealer=3
    )
    match.play(0, "JC")
    match.play(1, "KS")
    match.play(2, "KH")
    assert match.view(0).round_basras == (1, 0)
    assert match.view(2).captured == match.view(0).captured == (7, 0)
    assert match.view(0).side == match.view(2).side == 0
    assert match.view(1).side == match.view(3).side == 1
    play_round(match)
    assert len(match.scores) == 2
    summary = match.rounds[0]
    assert summary.basras[0] >= 1
    assert sum(summary.cards) == 52
    assert match.scores == summary.points


@pytest.mark.parametrize("players", [0, 1, 3, 5, 6])
def test_three_players_are_not_offered_nor_any_count_but_2_and_4(players: int) -> None:
    with pytest.raises(BasraError):
        Match.new(players)


def test_four_players_each_for_themselves_are_not_offered_four_seats_make_two_sides() -> None:
    match = Match.new(4, seed=11)
    play_round(match)
    assert len(match.scores) == 2
    assert len(match.piles) == 2
    assert all(len(pair) == 2 for pair in (match.rounds[0].cards, match.rounds[0].points))


def test_play_passes_in_increasing_seat_number_seat_3_is_followed_by_seat_0() -> None:
    match = Match.new(4, seed=5, dealer=1)
    seen = []
    for _ in range(9):
        seat = match.to_move
        assert seat is not None
        seen.append(seat)
        match.play(seat, match.hand(seat)[0])
    assert seen == [2, 3, 0, 1, 2, 3, 0, 1, 2]


def test_in_a_2_player_match_seat_1_is_followed_by_seat_0() -> None:
    match = Match.new(2, seed=5, dealer=0)
    seen = []
    for _ in range(5):
        seat = match.to_move
        assert seat is not None
        seen.append(seat)
        match.play(seat, match.hand(seat)[0])
    assert seen == [1, 0, 1, 0, 1]


def test_the_deck_builder_deals_what_it_describes() -> None:
    deck = build_deck(["AC 2C 3C 4C", "AD 2D 3D 4D"], "5C 5D 5H 5S", "9C 9D")
    match = Match.new(2, decks=[deck])
    assert match.hand(0) == tuple(cards("AC 2C 3C 4C"))
    assert match.hand(1) == tuple(cards("AD 2D 3D 4D"))
    assert match.floor == tuple(cards("5C 5D 5H 5S"))
    deck_text = match.to_record()["decks"][0]
    assert deck_text[:4] == ["AD", "AC", "2D", "2C"]
    assert deck_text[12:14] == ["9C", "9D"]
