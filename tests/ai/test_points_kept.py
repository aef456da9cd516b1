"""No computer player gives points away where a card worth less does the same job.

Cards of one rank take the same plans and, laid, leave a floor on which every
capture takes the same cards (RULES.md section 3: interchangeable but for 2C
and 10D). So a lay of 10D where another 10 could be laid, or of 2C where
another 2 could, has the same outcome but offers the 10D's or the 2C's points
to whoever takes it. A capture is the other way round: taking with 10D rather
than another 10 takes the same cards and puts the 10D's points in this side's
pile, where the other 10 would leave them in the hand still to be played.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import Card, Rules, SeatView
from core.ai import Move, Player, legal_moves, player
from core.ai.expert import Expert
from core.ai.moves import without_wasted_points

from .positions import cards, view_of

RULES = [Rules(), Rules(optional_capture=True), Rules(seven_diamonds_basra="count"),
         Rules(majority_points=3, majority_tie="split")]
# The point cards that share their rank with cards worth nothing, and those cards.
PLAIN_TWINS = {"10D": ("10C", "10H", "10S"), "2C": ("2D", "2H", "2S")}


def level(name: str, seed: int) -> Player:
    # The expert's budget is cut to keep the tests fast: the rule it follows
    # here does not come from its simulations.
    return Expert(seed=seed, simulations=24) if name == "expert" else player(name, seed=seed)


def floor_after(view: SeatView, move: Move) -> list[str]:
    """The ranks on the floor once ``move`` is played, in floor order."""
    if not move.plan:
        return [c.rank for c in (*view.floor, move.card)]
    taken = set(move.taken)
    return [c.rank for c in view.floor if c not in taken]


def same_job(view: SeatView, a: Move, b: Move) -> bool:
    """Whether ``a`` and ``b`` take the same cards, leave a floor that takes
    the same way, and keep cards in hand that play the same, points apart."""
    kept_a = sorted((c.rank, c.is_sweeper) for c in view.hand if c is not a.card)
    kept_b = sorted((c.rank, c.is_sweeper) for c in view.hand if c is not b.card)
    return (bool(a.plan) == bool(b.plan) and set(a.taken) == set(b.taken)
            and floor_after(view, a) == floor_after(view, b) and kept_a == kept_b)


@st.composite
def positions(draw: st.DrawFn) -> SeatView:
    """A position in a round, often with a point card and a plain card of its
    rank in the hand (10D and a 10, or 2C and a 2)."""
    rng = draw(st.randoms(use_true_random=False))
    players = draw(st.sampled_from([2, 4]))
    hand: list[Card] = []
    if draw(st.booleans()):
        point = draw(st.sampled_from(sorted(PLAIN_TWINS)))
        plain = draw(st.lists(st.sampled_from(PLAIN_TWINS[point]), min_size=1, max_size=2, unique=True))
        hand = list(cards(" ".join([point, *plain])))
    rest = [c for c in Card.deck() if c not in hand]
    rng.shuffle(rest)
    size = draw(st.integers(max(1, len(hand)), 4))
    extra = size - len(hand)
    hand += rest[:extra]
    rng.shuffle(hand)
    floor = rest[extra : extra + draw(st.integers(0, 8))]
    stock = draw(st.sampled_from([0, 4 * players, 52 - 4 - 4 * players]))
    mine = draw(st.integers(0, 12))
    return view_of(" ".join(c.code for c in hand), " ".join(c.code for c in floor), players=players,
                   rules=draw(st.sampled_from(RULES)), stock_count=stock,
                   hand_sizes=[size] * players, captured=(mine, draw(st.integers(0, 12))))


@pytest.mark.parametrize("name", ["beginner", "strong", "expert"])
@settings(max_examples=60, deadline=None)
@given(view=positions(), seed=st.integers(0, 3))
def test_no_level_lays_a_point_card_where_a_plain_card_does_the_same_job(
    name: str, view: SeatView, seed: int
) -> None:
    chosen = level(name, seed).suggest(view)
    move = next(m for m in legal_moves(view) if (m.card, m.plan) == (chosen.card, chosen.plan))
    for other in legal_moves(view):
        if same_job(view, move, other):
            if move.plan:  # a capture banks the dearer card, never leaves it in the hand
                assert other.card.points <= move.card.points, (chosen, other)
            else:  # a lay offers the cheaper card, never the dearer
                assert other.card.points >= move.card.points, (chosen, other)


# Each of these laid the point card before, as in the players' report
# (test_suggest): taking it back next turn (with the jack's sweep, with the 8
# on 6 + 2, or the partner's basra on an empty floor) looked like a gain of
# its points.
@pytest.mark.parametrize(("hand", "floor", "players", "laid"), [
    ("2C 2D JS QH", "9S", 2, "2D"),
    ("2C 8C 2D", "6H", 2, "2D"),
    ("JD 10D 10C", "2S", 2, "10C"),
    ("2C 2D", "", 4, "2D"),
    ("10D 10C JH", "", 4, "10C"),
])
def test_the_hint_lays_the_plain_card_of_a_rank(hand: str, floor: str, players: int, laid: str) -> None:
    chosen = player("strong").suggest(view_of(hand, floor, players=players))
    assert (chosen.card.code, chosen.plan) == (laid, 0)


def test_the_hint_takes_with_the_ten_of_diamonds_rather_than_a_plain_ten() -> None:
    chosen = player("strong").suggest(view_of("10S 10D KH", "10C 5S"))
    assert chosen.card.code == "10D" and chosen.plan


def test_what_the_expert_weighs_leaves_out_plays_a_card_of_the_same_rank_does_better() -> None:
    view = view_of("10D 10S 2C 2H", "10C 3S")
    left = {(m.card.code, m.plan) for m in without_wasted_points(legal_moves(view), view.hand)}
    assert left == {("10D", 1), ("2H", 0)}


def test_the_expert_weighs_every_play_when_no_two_cards_share_a_rank() -> None:
    view = view_of("10D 2C AS KH", "4H 6C")
    assert without_wasted_points(legal_moves(view), view.hand) == legal_moves(view)

