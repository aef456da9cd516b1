"""The beginner: takes when it can, the most cards first; otherwise lays a low card;
never wastes a jack or the 7D on an empty floor."""

from __future__ import annotations

import pytest

from core import Card
from core.ai import player

from .positions import view_of


def choice(hand: str, floor: str = "", seed: int = 1) -> tuple[str, int]:
    card, plan = player("beginner", seed=seed).choose(view_of(hand, floor))
    return card.code, plan


def test_it_takes_the_play_that_takes_the_most_cards() -> None:
    # 9S takes 4H 5C; 6D takes 6H alone; 3S takes nothing
    assert choice("3S 6D 9S KC", "4H 5C 6H QD") == ("9S", 1)


def test_between_plans_it_takes_the_bigger_one() -> None:
    # 6C on AH 2H 3S 4D: plan 1 takes three cards, plan 2 two
    assert choice("6C", "AH 2H 3S 4D") == ("6C", 1)


def test_a_basra_beats_a_jack_taking_the_same_cards() -> None:
    assert choice("JC 5S 9D", "5H") == ("5S", 1)


def test_with_nothing_to_take_it_lays_its_lowest_plain_card() -> None:
    assert choice("9C 3H KS 6D", "QH") == ("3H", 0)


@pytest.mark.parametrize("sweeper", ["JC", "7D"])
def test_it_never_throws_a_jack_or_the_7d_on_an_empty_floor(sweeper: str) -> None:
    for seed in range(5):
        card, _ = choice(f"{sweeper} 8S 10H QC", "", seed=seed)
        assert card != sweeper


def test_it_keeps_point_cards_back_when_laying() -> None:
    assert choice("AS 2C 8D", "KH") == ("8D", 0)


def test_a_hand_of_sweepers_on_an_empty_floor_still_plays() -> None:
    card, plan = player("beginner").choose(view_of("JC 7D"))
    assert card in (Card.parse("JC"), Card.parse("7D")) and plan == 0


def test_the_same_seed_gives_the_same_choices() -> None:
    hands = ["2S 3H 4D 5C", "KS KH QD 9C", "AC 8S 10H 2D"]
    for hand in hands:
        assert choice(hand, "QS", seed=7) == choice(hand, "QS", seed=7)
