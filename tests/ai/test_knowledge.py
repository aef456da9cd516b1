"""What a seat can work out: the buried jacks and 7D come back in the last deal, to
the dealer first, then the seat before it (RULES.md section 2)."""

from __future__ import annotations

import pytest

from core import Match
from core.ai import player
from core.ai.knowledge import buried_placement, hidden_cards

from .positions import deck_with, play_out


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("dealer", [0, 1])
def test_buried_cards_are_placed_where_the_deal_puts_them(players: int, dealer: int) -> None:
    hands = 4 * players
    # floor JC 2D JH 3D: the JC is replaced by the 7D, that by the JS, and later
    # the JH by the next card
    filler = [f"{r}{s}" for s in "CHS" for r in ("2", "3", "4", "5", "6", "8", "9")][:hands]
    deck = deck_with(" ".join([*filler, "JC", "2D", "JH", "3D", "7D", "JS"]))
    match = Match.new(players, decks=[deck], dealer=dealer)
    buried = match.view(0).buried
    assert [c.code for c in buried] == ["JC", "7D", "JS", "JH"]
    in_stock, in_hands = buried_placement(match.view(0))
    assert in_stock == list(reversed(buried)) and not in_hands
    bots = [player("beginner", seed=s) for s in range(players)]
    play_out(match, bots, plays=52 - 4 - hands)  # to the start of the last deal
    assert match.view(0).stock_count == 0 and match.round_no == 1
    for seat in range(players):
        view = match.view(seat)
        _, in_hands = buried_placement(view)
        for other, cards in in_hands.items():
            assert other != seat
            assert set(cards) <= set(match.hand(other))
        placed = {c for cards in in_hands.values() for c in cards} | set(view.hand)
        assert set(buried) <= placed
        assert not set(buried) & set(hidden_cards(view))
