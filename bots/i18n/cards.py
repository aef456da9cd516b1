"""Card labels for chat text, the same in both languages.

A label is the rank as printed on the card (``A 2 … 10 J Q K``: Latin
letters, as Egyptian players read them off real cards, also in Arabic text)
and the suit symbol. Spoken names (ولد, jack) are in ``bots.i18n.words``.
A run of labels is wrapped in a left-to-right isolate so that Arabic text
around it cannot reverse it (see ``bots.i18n.bidi``).

>>> card_label("10D"), card_label("qs")
('10♦', 'Q♠')
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


def card_label(card: object) -> str:
    """The label a player sees for one card: ``"10D"`` → ``"10♦"``, ``"QS"`` → ``"Q♠"``."""
    rank, suit = split_card(card)
    return rank + SUIT_SYMBOLS[suit]


def cards_text(cards: Iterable[object]) -> str:
    """Card labels joined by spaces, isolated so the order survives Arabic text."""
    return isolate(" ".join(card_label(card) for card in cards))
