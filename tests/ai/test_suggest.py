"""Hints: ``suggest`` gives the card, the plan and a reason the bots can translate."""

from __future__ import annotations

import string

import pytest

from core import Card
from core.ai import REASONS, Reason, player
from core.ai.reasons import CARD_FIELDS

from .positions import view_of

LEVELS = ["beginner", "strong", "expert"]


@pytest.mark.parametrize("level", LEVELS)
def test_a_suggestion_is_the_play_the_player_would_make(level: str) -> None:
    view = view_of("10C 6S QH 2D", "10D 6H 3C 4S")
    suggestion = player(level, seed=2).suggest(view)
    assert (suggestion.card, suggestion.plan) == player(level, seed=2).choose(view)


def test_taking_the_ten_of_diamonds_says_so() -> None:
    view = view_of("10C 6S QH", "10D KS QC")
    reason = player("strong").suggest(view).reason
    assert reason.key == "take_clean"
    assert str(reason) == "takes 10♦ (3 points) and leaves no single card"


@pytest.mark.parametrize("level", LEVELS)
def test_no_hint_lays_the_ten_of_diamonds_where_a_plain_ten_does_the_same(level: str) -> None:
    # As players reported it: the floor holds only 4♥. Laid, 10♦ and 10♠ take
    # nothing and leave the same floor to take from, but 10♦ offers 3 points.
    view = view_of("10D JS 9D 10S", "4H")
    suggestion = player(level, seed=1).suggest(view)
    assert (suggestion.card.code, suggestion.plan) != ("10D", 0)


def test_the_hint_lays_the_plain_ten_and_keeps_the_jack() -> None:
    suggestion = player("strong").suggest(view_of("10D JS 9D 10S", "4H"))
    assert (suggestion.card.code, suggestion.plan) == ("10S", 0)
    assert str(suggestion.reason) == "lays 10♠ and keeps J♠ for a fuller floor"


def test_a_basra_is_named_with_its_points() -> None:
    reason = player("strong").suggest(view_of("9D KH", "4H 5S")).reason
    assert str(reason) == "makes a basra with 9♦: takes 4♥ 5♠ (10 points with the basra)"


def test_a_capture_that_leaves_one_card_says_which() -> None:
    reason = player("beginner").suggest(view_of("6C", "6H QS", stock_count=0,
                                                hand_sizes=[1, 1])).reason
    assert str(reason) == "takes 6♥ though it leaves Q♠ alone"


def test_one_point_is_singular() -> None:
    reason = Reason("take_clean", {"taken": (Card.parse("AH"),), "points": 1})
    assert str(reason) == "takes A♥ (1 point) and leaves no single card"
    assert reason.count == 1


@pytest.mark.parametrize(("hand", "floor", "key"), [
    ("5S", "QH", "only_card"),
    ("8C 3D", "", "lay_empty"),
    ("3H KS", "7C", "lay_safe"),
    ("JC 4H", "KD 9S", "lay_keep_sweeper"),
    ("JC 4H", "KD 9S 7C", "sweep"),
    ("8H 6D", "4S 2D 5D 7S 3S", "take_deny"),
    ("8H 6D", "4S 2D 5D 7S 3S QC", "take_majority"),
])
def test_lays_sweeps_and_plain_takes_have_their_own_reasons(hand: str, floor: str, key: str) -> None:
    assert player("strong").suggest(view_of(hand, floor)).reason.key == key


@pytest.mark.parametrize("key", sorted(REASONS))
def test_every_template_formats_with_cards_and_numbers(key: str) -> None:
    singular, plural = REASONS[key].singular, REASONS[key].plural
    fields = {name for _, name, _, _ in string.Formatter().parse(singular) if name}
    assert fields == {name for _, name, _, _ in string.Formatter().parse(plural) if name}
    args: dict[str, object] = {
        name: (Card.parse("10D"),) if name in CARD_FIELDS else 2 for name in fields
    }
    text = str(Reason(key, args))
    assert "{" not in text
    if fields & CARD_FIELDS:
        assert "10♦" in text


def test_the_bots_can_render_cards_their_own_way() -> None:
    reason = Reason("lay_keep_sweeper", {"card": Card.parse("4H"), "sweeper": Card.parse("JC")})
    fields = reason.fields(lambda cards: "+".join(c.code for c in cards))
    assert reason.template[0].format_map(fields) == "lays 4H and keeps JC for a fuller floor"


def test_an_unknown_reason_is_refused() -> None:
    with pytest.raises(ValueError):
        Reason("because")
