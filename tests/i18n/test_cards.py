"""Cards, scores and names keep their order inside Arabic text."""

from __future__ import annotations

import pytest

from bots.i18n import card_face, card_label, cards_text, isolate, number_text, score_text, user_text

LRI, FSI, PDI = "\u2066", "\u2068", "\u2069"


@pytest.mark.parametrize(
    ("code", "label"),
    [("10D", "10♦"), ("QS", "Q♠"), ("AH", "A♥"), ("2C", "2♣"), ("JS", "J♠"), ("7d", "7♦")],
)
def test_a_card_shows_its_rank_and_suit_symbol(code: str, label: str) -> None:
    assert card_face(code) == label
    # On its own in text or on a button, isolated: Arabic around it cannot put the suit first.
    assert card_label(code) == f"{LRI}{label}{PDI}"


class FakeCard:
    """Stands in for the engine's Card: only its str() matters."""

    def __init__(self, code: str) -> None:
        self.code = code

    def __str__(self) -> str:
        return self.code


def test_anything_whose_str_is_a_card_code_can_be_shown() -> None:
    assert card_face(FakeCard("KH")) == "K♥"
    assert cards_text([FakeCard("10D"), "7C"]) == f"{LRI}10♦ 7♣{PDI}"


def test_a_run_of_cards_is_one_left_to_right_isolate_in_play_order() -> None:
    text = cards_text(["10D", "7C", "QS"])
    assert text == f"{LRI}10♦ 7♣ Q♠{PDI}"
    assert text.count(LRI) == 1 and text.count(PDI) == 1


def test_an_empty_run_is_still_balanced() -> None:
    assert cards_text([]) == LRI + PDI


@pytest.mark.parametrize("bad", ["1D", "11H", "KX", "", "10", "JOKER"])
def test_a_non_card_is_refused_by_name(bad: str) -> None:
    with pytest.raises(ValueError, match="not a card"):
        card_label(bad)


def test_a_score_is_isolated_so_it_does_not_flip_in_arabic() -> None:
    assert score_text(121, 87) == f"{LRI}121–87{PDI}"
    assert isolate("121–87") == score_text(121, 87)


def test_numbers_use_western_digits_and_signed_ones_are_isolated() -> None:
    assert number_text(43) == "43"
    assert number_text(-3) == f"{LRI}-3{PDI}"


def test_a_name_keeps_its_own_direction() -> None:
    assert user_text("عمر") == f"{FSI}عمر{PDI}"
