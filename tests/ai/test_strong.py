"""The strong player weighs points, the majority, and what the floor it leaves offers."""

from __future__ import annotations

from core.ai import player

from .positions import view_of


def test_it_does_not_leave_a_floor_one_unseen_card_sweeps() -> None:
    # Nothing takes. Laying the 3 leaves 7C 3H, which any of four 10s sweeps
    # for a basra; laying the king leaves nothing a single card clears.
    view = view_of("3H KS", "7C")
    assert player("strong").choose(view) == (view.hand[1], 0)
    assert player("beginner").choose(view) == (view.hand[0], 0)


def test_it_makes_the_basra() -> None:
    view = view_of("JC 2S 9D KH", "4H 5S")
    card, plan = player("strong").choose(view)
    assert (card.code, plan) == ("9D", 1)


def test_it_takes_the_ten_of_diamonds_over_a_plain_pair() -> None:
    view = view_of("10C 6S QH", "10D 6H 3C 4S")
    card, _ = player("strong").choose(view)
    assert card.code == "10C"


def test_it_keeps_the_jack_for_a_fuller_floor() -> None:
    # The jack would take one plain card; laying the queen costs little.
    view = view_of("JC QH", "4S")
    card, _ = player("strong").choose(view)
    assert card.code == "QH"


def test_it_sweeps_a_loaded_floor_with_the_jack() -> None:
    view = view_of("JC QH 3D", "AH 2C 10D 8S 9H KS")
    card, _ = player("strong").choose(view)
    assert card.code == "JC"


def test_with_two_players_it_lays_a_card_it_can_take_back_for_a_basra() -> None:
    # Laying one 5 of a pair on an empty floor: if the reply does not take it,
    # the other 5 makes a basra.
    view = view_of("5H 5C KS 9D", "", stock_count=32)
    card, _ = player("strong").choose(view)
    assert card.code in ("5H", "5C")


def test_in_two_v_two_it_plays_for_its_side() -> None:
    view = view_of("9D 2S KH", "4H 5S", players=4, seat=1)
    card, plan = player("strong").choose(view)
    assert (card.code, plan) == ("9D", 1)
