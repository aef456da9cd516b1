"""Card labels for chat text, the same in both languages.

A label is the rank as printed on the card (``A 2 … 10 J Q K``: Latin
letters, as Egyptian players read them off real cards, also in Arabic text)
and the suit symbol. Spoken names (ولد, jack) are in ``bots.i18n.words``.
A label on its own, and a run of labels, is wrapped in a left-to-right
isolate so that Arabic text around it cannot reverse it: ``7♣`` would read
``♣7`` (see ``bots.i18n.bidi``). ``card_face`` is the bare label, for runs
built elsewhere and isolated as a whole.

>>> card_face("10D"), card_face("qs")
('10♦', 'Q♠')
>>> card_label("7C")
'\u20667♣\u2069'
>>> cards_text(["10D", "7C", "QS"])
'\\u206610♦ 7♣ Q♠\\u2069'
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .bidi import isolate

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUIT_SYMBOLS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_SUIT_BY_SYMBOL: Final = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}


def split_card(card: object) -> tuple[str, str]:
    """The ASCII rank and suit of a card code (``"10D"``) or anything whose str() is one.

    >>> split_card("10♦")
    ('10', 'D')
    """
    code = str(card).strip().upper()
    rank, suit = code[:-1], _SUIT_BY_SYMBOL.get(code[-1:], code[-1:])
    if rank not in RANKS or suit not in SUIT_SYMBOLS:
        raise ValueError(f"not a card: {str(card)!r}")
    return rank, suit


def card_face(card: object) -> str:
    """What a player sees of one card: ``"10D"`` → ``"10♦"``, ``"QS"`` → ``"Q♠"`` (bare:
    isolate it, or the run it is part of, before it goes into text)."""
    rank, suit = split_card(card)
    return rank + SUIT_SYMBOLS[suit]


def card_label(card: object) -> str:
    """One card's label for text and buttons, isolated: rank then suit in both languages."""
    return isolate(card_face(card))


def cards_text(cards: Iterable[object]) -> str:
    """Card labels joined by spaces, isolated so the order survives Arabic text."""
    return isolate(" ".join(card_face(card) for card in cards))
