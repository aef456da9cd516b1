"""Card notation (RULES.md, introduction): rank then suit, one text form."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import Card

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("C", "D", "H", "S")
SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}


def test_the_deck_holds_52_different_cards_in_a_fixed_order() -> None:
    deck = Card.deck()
    assert len(deck) == 52
    assert len(set(deck)) == 52
    assert deck == Card.deck()
    assert [str(c) for c in deck] == [rank + suit for suit in SUITS for rank in RANKS]


@pytest.mark.parametrize("text", ["10D", "7D", "2C", "JS", "AH", "QC", "KH", "9S"])
def test_notation_is_rank_then_suit_and_prints_back_the_same(text: str) -> None:
    card = Card.parse(text)
    assert str(card) == text
    assert card.rank + card.suit == text


@pytest.mark.parametrize(("text", "expected"), [("10♦", "10D"), ("2♣", "2C"), ("J♠", "JS"), ("A♥", "AH")])
def test_parsing_accepts_the_suit_symbols(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize(("text", "expected"), [("10d", "10D"), ("q♠", "QS"), ("jh", "JH"), ("aS", "AS")])
def test_parsing_accepts_lower_case(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


def test_formatting_always_gives_the_ascii_form() -> None:
    for card in Card.deck():
        text = str(card)
        assert text.isascii()
        assert str(Card.parse(card.rank + SYMBOLS[card.suit])) == text
        assert str(Card.parse(text.lower())) == text


def test_every_card_round_trips_through_its_text_in_every_spelling() -> None:
    for card in Card.deck():
        for spelling in (card.code, card.code.lower(), card.rank + SYMBOLS[card.suit], card.symbol):
            assert Card.parse(spelling) is card


def test_the_symbol_form_is_rank_and_suit_symbol() -> None:
    assert Card.parse("10D").symbol == "10♦"
    assert Card.parse("QS").symbol == "Q♠"


@pytest.mark.parametrize(
    "text",
    ["", " ", "1D", "11H", "JX", "10", "D", "0D", "1", "10DD", "D10", "♦10", "KK", "AC AD", "10♦♦", "Z♠"],
)
def test_anything_else_is_not_a_card(text: str) -> None:
    with pytest.raises(ValueError):
        Card.parse(text)


@pytest.mark.parametrize("thing", [None, 10, b"10D", ("10", "D"), 7.0])
def test_a_non_text_is_not_a_card(thing: object) -> None:
    with pytest.raises(ValueError):
        Card.parse(thing)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=4))
def test_parsing_either_gives_the_card_of_that_text_or_raises_value_error(text: str) -> None:
    try:
        card = Card.parse(text)
    except ValueError:
        return
    assert Card.parse(str(card)) is card
    assert text.strip().upper().replace("♣", "C").replace("♦", "D").replace("♥", "H").replace(
        "♠", "S"
    ) == str(card)


def test_cards_are_immutable_shared_values() -> None:
    card = Card.parse("10D")
    assert Card.parse("10♦") is card
    assert copy.copy(card) is card
    assert copy.deepcopy(card) is card
    assert pickle.loads(pickle.dumps(card)) is card
    with pytest.raises(AttributeError):
        card.rank = "9"  # type: ignore[misc]
    assert {card: 1}[Card.parse("10d")] == 1


def test_card_values_a_is_1_number_cards_their_number_faces_none() -> None:
    values = {c.rank: c.value for c in Card.deck()}
    assert values == {
        "A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "10": 10,
        "J": 0, "Q": 0, "K": 0,
    }
