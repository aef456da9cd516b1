"""What a seat can work out about the cards it cannot see.

``SeatView.unknown()`` gives the cards in other hands or in the stock. The
jacks and 7D buried at the deal are not among them: everyone saw them go to
the bottom of the stock, and the deal order says where they end up. The last
deal hands out the stock one card at a time ending with the dealer, so the
last buried card goes to the dealer, the one before it to the seat before the
dealer, and so on (RULES.md section 2).
"""

from __future__ import annotations

from ...cards import Card
from ...view import SeatView


def hidden_cards(view: SeatView) -> list[Card]:
    """The unknown cards in a fixed order (deck order), so seeded sampling repeats."""
    return sorted(view.unknown(), key=lambda c: c.index)


def buried_holder(view: SeatView, position_from_last: int) -> int:
    """The seat that gets the buried card ``position_from_last`` places from the
    bottom of the stock (0 is the bottom card, dealt last, to the dealer)."""
    return (view.dealer - position_from_last) % view.players


def buried_placement(view: SeatView) -> tuple[list[Card], dict[int, list[Card]]]:
    """Where the buried cards not yet played are: still in the stock (bottom card
    first), or in the hands of the last deal, by seat (this seat left out)."""
    played = {play.card for play in view.round_history}
    in_stock: list[Card] = []
    in_hands: dict[int, list[Card]] = {}
    if view.stock_count > 0:
        in_stock = [c for c in reversed(view.buried) if c not in played]
        return in_stock, in_hands
    for i, card in enumerate(reversed(view.buried)):
        seat = buried_holder(view, i)
        if card in played or seat == view.seat:
            continue
        in_hands.setdefault(seat, []).append(card)
    return in_stock, in_hands
