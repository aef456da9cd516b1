"""RULES.md section 2: dealing."""

from __future__ import annotations

import pytest

from core import BasraError, Card, Match
from core.events import Dealt

from .helpers import build_deck, cards, codes, first_card, new_match, play_round, seat_order


def play_deal(match: Match) -> list[object]:
    """Play the cards of the current deal (first card each turn); the events."""
    out: list[object] = []
    for _ in range(sum(len(match.hand(s)) for s in range(match.players))):
        card, plan = first_card(match)
        assert match.to_move is not None
        out.extend(match.play(match.to_move, card, plan))
    return out


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (2, 1), (4, 0), (4, 3)])
def test_the_first_dealer_is_the_seat_drawn_for_it(players: int, dealer: int) -> None:
    match = Match.new(players, seed=1, dealer=dealer)
    assert match.dealer == dealer
    assert match.view(0).dealer == dealer


@pytest.mark.parametrize("dealer", [-1, 2, "0", None, 1.0])
def test_the_first_dealer_must_be_a_seat_of_the_match(dealer: object) -> None:
    with pytest.raises(BasraError):
        Match.new(2, seed=1, dealer=dealer)  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "dealer"), [(2, 1), (4, 2)])
def test_the_deal_passes_to_the_next_seat_every_round(players: int, dealer: int) -> None:
    match = Match.new(players, seed=2, dealer=dealer)
    dealers = [match.dealer]
    for _ in range(5):
        play_round(match)
        if match.to_move is None:
            break
        dealers.append(match.dealer)
    assert dealers == [(dealer + i) % players for i in range(len(dealers))]
    assert len(dealers) >= 3


@pytest.mark.parametrize(("players", "dealer"), [(2, 0), (2, 1), (4, 1), (4, 3)])
def test_the_first_player_of_a_round_is_the_seat_after_the_dealer(players: int, dealer: int) -> None:
    match = Match.new(players, seed=4, dealer=dealer)
    for _ in range(3):
        assert match.to_move == (match.dealer + 1) % players
        play_round(match)


def test_each_player_gets_4_cards_then_4_cards_go_face_up_to_the_floor() -> None:
    deck = list(Card.deck())
    match = Match.new(2, decks=[deck], dealer=1)
    # Dealer 1: seat 0 is dealt first, one card at a time.
    assert codes(match.hand(0)) == ["AC", "3C", "5C", "7C"]
    assert codes(match.hand(1)) == ["2C", "4C", "6C", "8C"]
    # 9C 10C JC QC are turned up; the JC goes under the stock and KC takes its place.
    assert codes(match.floor) == ["9C", "10C", "KC", "QC"]
    assert match.stock_count == 52 - 8 - 4


def test_a_given_deck_is_dealt_top_card_first_from_the_seat_after_the_dealer_four_times_round() -> None:
    deck = list(Card.deck())
    match = Match.new(4, decks=[deck], dealer=1)
    order = seat_order(1, 4)
    assert order == [2, 3, 0, 1]
    for k, seat in enumerate(order):
        assert list(match.hand(seat)) == [deck[k + 4 * i] for i in range(4)]
    # 4D 5D 6D 7D are turned up; the 7D is replaced by the next card, 8D.
    assert list(match.floor) == [*deck[16:19], deck[20]]
    assert match.stock_count == 32


def test_a_jack_or_7d_dealt_to_the_floor_goes_under_the_stock_and_is_replaced_in_place() -> None:
    match = new_match(["AC 2C 3C 4C", "AD 2D 3D 4D"], "5C JS 5H 6C", "9S 9H")
    assert codes(match.floor) == ["5C", "9S", "5H", "6C"]
    match = new_match(["AC 2C 3C 4C", "AD 2D 3D 4D"], "5C 5H 6C 7D", "9S 9H")
    assert codes(match.floor) == ["5C", "5H", "6C", "9S"]


def test_floor_positions_are_checked_left_to_right() -> None:
    match = new_match(["AC 2C 3C 4C", "AD 2D 3D 4D"], "6C 7D 5H JD", "9S 8H")
    assert codes(match.floor) == ["6C", "9S", "5H", "8H"]


def test_each_replacement_is_checked_too() -> None:
    match = new_match(["AC 2C 3C 4C", "AD 2D 3D 4D"], "JS 5H 7D 9C", "JH 7S 4S")
    assert codes(match.floor) == ["7S", "5H", "4S", "9C"]
    match = new_match(["AC 2C 3C 4C", "AD 2D 3D 4D"], "JS 5H 6H 9C", "JH 7D JC 4S")
    assert codes(match.floor) == ["4S", "5H", "6H", "9C"]


def test_every_jack_and_the_7d_on_the_floor_are_replaced() -> None:
    match = new_match(["AC 2C 3C 4C", "AD 2D 3D 4D"], "JS JH JC JD", "7D 5S 6S 8S 9S")
    assert codes(match.floor) == ["5S", "6S", "8S", "9S"]
    assert not any(c.is_jack or c.is_seven_of_diamonds for c in match.floor)


def test_the_cards_put_under_the_stock_come_out_last_in_the_final_deal() -> None:
    # JS, then JH (its replacement), then 7D go to the bottom, each under the last:
    # the stock ends ... JS JH 7D. The final deal of 8 cards, seat 1 first, gives
    # the 6th card to seat 0, the 7th to seat 1, the 8th to seat 0.
    match = new_match(["AC 2C 3C 4C", "AD 2D 3D 4D"], "JS 5H 7D 9C", "JH 3S 4S")
    assert codes(match.floor) == ["3S", "5H", "4S", "9C"]
    assert match.stock_count == 40
    deals = 1
    while match.stock_count:
        play_deal(match)
        deals += 1
    assert deals == 6
    assert codes(match.hand(0))[2:] == ["JS", "7D"]
    assert codes(match.hand(1))[3:] == ["JH"]


def test_the_deal_event_names_the_cards_put_under_the_stock() -> None:
    match = new_match(["AC 2C 3C 4C", "AD 2D 3D 4D"], "JS 5H 7D 9C", "JH 3S 4S")
    dealt = [e for e in match.opening_events() if isinstance(e, Dealt)]
    assert dealt[0].buried == ("JS", "JH", "7D")
    assert dealt[0].floor == ("3S", "5H", "4S", "9C")
    assert codes(match.view(1).buried) == ["JS", "JH", "7D"]


def test_when_every_hand_is_empty_and_the_stock_is_not_each_player_gets_4_more_no_new_floor_cards() -> None:
    match = new_match(
        ["KC KD KH KS", "QC QD QH QS"],
        "9C 9D 10S 10H",
        later_deals=[["8C 8D 8H 8S", "6H 6S 6C 6D"]],
    )
    for _ in range(7):
        events = play_deal_step(match)
        assert not any(isinstance(e, Dealt) for e in events)
        assert match.stock_count == 40
    floor_before = match.floor
    last = match.hand(0)[0]
    events = play_deal_step(match)
    assert [type(e) for e in events if isinstance(e, Dealt)] == [Dealt]
    assert codes(match.hand(0)) == ["8C", "8D", "8H", "8S"]
    assert codes(match.hand(1)) == ["6H", "6S", "6C", "6D"]
    assert match.stock_count == 32
    assert set(match.floor) <= {*floor_before, last}
    dealt = next(e for e in events if isinstance(e, Dealt))
    assert dealt.floor == ()
    assert dealt.deal_no == 2


def play_deal_step(match: Match) -> list[object]:
    card, plan = first_card(match)
    assert match.to_move is not None
    return list(match.play(match.to_move, card, plan))


def test_no_new_cards_while_any_hand_still_holds_cards() -> None:
    match = Match.new(4, seed=9)
    for _ in range(15):
        events = play_deal_step(match)
        assert not any(isinstance(e, Dealt) for e in events)
        assert match.stock_count == 32
    assert sum(len(match.hand(s)) for s in range(4)) == 1


@pytest.mark.parametrize(("players", "deals"), [(2, 6), (4, 3)])
def test_2_players_have_6_deals_per_round_4_players_3(players: int, deals: int) -> None:
    match = Match.new(players, seed=21)
    count = sum(1 for e in match.opening_events() if isinstance(e, Dealt))
    while match.round_no == 1:
        card, plan = first_card(match)
        assert match.to_move is not None
        count += sum(1 for e in match.play(match.to_move, card, plan) if isinstance(e, Dealt))
    assert count == deals + 1  # the first deal of round 2 came with round 1's last play


def test_later_deals_start_again_with_the_seat_after_the_dealer() -> None:
    deck = build_deck(
        ["KC KD QC QD", "KH KS QH QS", "9C 9D 9H 9S", "8C 8D 8H 8S"],
        "2C 3D 4H 5S",
        "6C 6D 6H 6S 10C 10D 10H 10S AC AD AH AS 3C 3H 3S 4C",
        dealer=2,
    )
    match = Match.new(4, decks=[deck], dealer=2)
    while match.stock_count == 32:
        play_deal_step(match)
    # Deal 2, top of the stock first: seat 3, 0, 1, 2, four times round.
    assert codes(match.hand(3)) == ["6C", "10C", "AC", "3C"]
    assert codes(match.hand(0)) == ["6D", "10D", "AD", "3H"]
    assert codes(match.hand(1)) == ["6H", "10H", "AH", "3S"]
    assert codes(match.hand(2)) == ["6S", "10S", "AS", "4C"]
    assert match.to_move == 3


def test_a_round_deals_all_52_cards() -> None:
    match = Match.new(2, seed=8)
    dealt = cards(match.hand(0)) + cards(match.hand(1)) + list(match.floor)
    while match.round_no == 1:
        for e in play_deal_step(match):
            if isinstance(e, Dealt) and e.round_no == 1:
                dealt += [Card.parse(c) for h in e.hands for c in h]
    assert sorted(c.index for c in dealt) == list(range(52))
