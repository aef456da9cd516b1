"""The practice hint: what the computer would play from a hand, and why.

The table service has no hint call yet, so this asks ``core.ai`` directly,
from what the hand view shows (the seat's own hand, the floor, the public
counts). The computer only chooses among legal plays; no rule lives here.
The view lacks the round's history, so a reason about unseen cards may be
less precise than the computer's own play would be.
"""

from __future__ import annotations

from core import Card, SeatView
from core.ai import player

from ..i18n import Translator, card_label, cards_text
from ..service import HandView
from .texts import HINT


def seat_view(hand: HandView) -> SeatView:
    """A ``core.SeatView`` made of what ``hand`` shows (history left empty)."""
    table = hand.table
    return SeatView(
        seat=hand.seat,
        players=table.players,
        rules=table.rules,
        hand=tuple(Card.parse(c) for c in hand.hand),
        floor=tuple(Card.parse(c) for c in table.floor),
        hand_sizes=tuple(s.cards for s in table.seats),
        stock_count=table.stock,
        scores=table.scores,
        carry=table.carry,
        round_no=table.round_no,
        dealer=table.dealer,
        to_move=table.to_move,
        winner=table.winner,
        captured=table.captured,
        round_basras=table.round_basras,
        last_capture_side=None,
        buried=(),
        history=(),
        rounds=(),
    )


def hint_text(hand: HandView, t: Translator) -> str:
    """ "Hint: 10♦ — takes 4♠ 6♥ …" in the reader's language."""
    suggestion = player("beginner", seed=hand.version).suggest(seat_view(hand))
    reason = suggestion.reason
    why = t.ngettext(*reason.template, reason.count, **reason.fields(cards_text))
    move = card_label(suggestion.card) + " — " + why
    return t.gettext(HINT, move=move)
