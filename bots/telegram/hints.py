"""The practice hint: what the computer would play in your place, and why, in your language.

Hints are offered in practice matches only (a hint in a rated match would be
help from outside). The suggestion comes from ``core.ai``; its reason is a
key and fields, worded here through the catalogs. The English templates are
``core.ai.REASONS``; ``tests/telegram`` checks the two lists stay the same.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

from core import Card, SeatView
from core.ai import Reason, Suggestion, player

from ..i18n import Translator, cards_text
from ..service import HandView

Wording = Callable[[Translator, int, dict[str, object]], str]

# Each entry repeats its core.ai template literally so the catalogs can extract it.
REASON_WORDING: Final[dict[str, Wording]] = {
    "basra": lambda t, n, f: t.ngettext(
        "makes a basra with {card}: takes {taken} ({points} point with the basra)",
        "makes a basra with {card}: takes {taken} ({points} points with the basra)", n, **f),
    "sweep": lambda t, n, f: t.ngettext(
        "clears the floor with {card}: takes {taken} ({points} point)",
        "clears the floor with {card}: takes {taken} ({points} points)", n, **f),
    "take_clean": lambda t, n, f: t.ngettext(
        "takes {taken} ({points} point) and leaves no single card",
        "takes {taken} ({points} points) and leaves no single card", n, **f),
    "take_lone": lambda t, n, f: t.ngettext(
        "takes {taken} ({points} point) though it leaves {left} alone",
        "takes {taken} ({points} points) though it leaves {left} alone", n, **f),
    "take_lone_plain": lambda t, n, f: t.gettext("takes {taken} though it leaves {left} alone", **f),
    "take_majority": lambda t, n, f: t.ngettext(
        "takes {taken}: {cards} card towards the majority",
        "takes {taken}: {cards} cards towards the majority", n, **f),
    "take_deny": lambda t, n, f: t.gettext(
        "takes {taken} so that no single card is left to sweep", **f),
    "lay_safe": lambda t, n, f: t.gettext(
        "lays {card}: nothing worth taking, and no single card can sweep the floor", **f),
    "lay_low": lambda t, n, f: t.gettext("lays {card}, a low card that gives little away", **f),
    "lay_keep_sweeper": lambda t, n, f: t.gettext("lays {card} and keeps {sweeper} for a fuller floor", **f),
    "lay_empty": lambda t, n, f: t.gettext("lays {card} on the empty floor", **f),
    "only_card": lambda t, n, f: t.gettext("plays {card}, the last card in hand", **f),
}


def _labels(cards: Sequence[Card]) -> str:
    return cards_text([card.code for card in cards])


def reason_text(reason: Reason, t: Translator) -> str:
    """The reason in the reader's language, cards as labels (10♦) in LTR isolates."""
    fields = reason.fields(_labels)
    wording = REASON_WORDING.get(reason.key)
    if wording is None:
        return str(reason)
    return wording(t, reason.count, fields)


def seat_view(hand: HandView) -> SeatView:
    """The engine's view of this seat, rebuilt from the service's hand view.

    The hand view carries no play history, so the few reasons that count unseen
    cards see fewer of them; the suggested card itself does not depend on it.
    """
    table = hand.table
    return SeatView(
        seat=hand.seat,
        players=table.players,
        rules=table.rules,
        hand=tuple(Card.parse(c) for c in hand.hand),
        floor=tuple(Card.parse(c) for c in table.floor),
        hand_sizes=tuple(s.cards for s in sorted(table.seats, key=lambda s: s.seat)),
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


def suggest(hand: HandView) -> Suggestion:
    """What the beginner computer would play from this hand (deterministic per position)."""
    return player("beginner", seed=f"{hand.table_id}:{hand.version}").suggest(seat_view(hand))
