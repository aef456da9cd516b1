"""Cards: 52 small immutable values with one text form.

>>> Card.parse("10D")
Card('10D')
>>> str(Card.parse("q♠"))
'QS'
>>> Card.parse("10♦") is Card.parse("10d")
True
>>> len(Card.deck())
52
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: Final = ("C", "D", "H", "S")
SUIT_SYMBOLS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_SYMBOL_TO_SUIT: Final = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}


class Card:
    """One playing card; there are exactly 52 instances, shared by everyone.

    Equality is identity, which keeps comparisons and hashing cheap for the
    computer players' searches. Cards have no ordering of their own (sort
    them by ``index``): any comparison method written in Python would send
    every ``==``, ``in`` and ``list.remove`` on cards through Python code.
    """

    __slots__ = (
        "code",
        "index",
        "is_jack",
        "is_number",
        "is_seven_of_diamonds",
        "is_sweeper",
        "points",
        "rank",
        "suit",
        "value",
    )

    rank: str
    suit: str
    index: int
    value: int
    points: int
    code: str
    is_number: bool
    """A..10: the cards that have a value and can join a sum."""
    is_jack: bool
    is_seven_of_diamonds: bool
    is_sweeper: bool
    """A jack or the 7D: takes the whole floor."""

    _ALL: tuple[Card, ...]
    _BY_TEXT: dict[str, Card]

    def __new__(cls, rank: str, suit: str) -> Card:  # pragma: no cover - via parse
        try:
            return cls._BY_TEXT[rank + suit]
        except (AttributeError, KeyError):
            raise ValueError(f"not a card: {rank}{suit!s}") from None

    @classmethod
    def _make(cls, rank: str, suit: str, index: int) -> Card:
        card = object.__new__(cls)
        object.__setattr__(card, "rank", rank)
        object.__setattr__(card, "suit", suit)
        object.__setattr__(card, "index", index)
        value = RANKS.index(rank) + 1
        object.__setattr__(card, "value", value if value <= 10 else 0)
        object.__setattr__(card, "code", rank + suit)
        points = 0
        if rank in ("A", "J"):
            points = 1
        elif rank + suit == "2C":
            points = 2
        elif rank + suit == "10D":
            points = 3
        object.__setattr__(card, "points", points)
        object.__setattr__(card, "is_number", 1 <= value <= 10)
        object.__setattr__(card, "is_jack", rank == "J")
        object.__setattr__(card, "is_seven_of_diamonds", rank + suit == "7D")
        object.__setattr__(card, "is_sweeper", rank == "J" or rank + suit == "7D")
        return card

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("cards are immutable")

    def __hash__(self) -> int:
        # By deck position, so sets of cards iterate in the same order in
        # every process (identity hashes would differ from run to run).
        return self.index

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (Card.parse, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card: rank then suit, suit as letter or symbol, any case."""
        if not isinstance(text, str):
            raise ValueError(f"not a card: {text!r}")
        key = text.strip().upper()
        if key and key[-1] in _SYMBOL_TO_SUIT:
            key = key[:-1] + _SYMBOL_TO_SUIT[key[-1]]
        card = cls._BY_TEXT.get(key)
        if card is None or not text.strip():
            raise ValueError(f"not a card: {text!r}")
        return card

    @classmethod
    def of(cls, card: Card | str) -> Card:
        """A card given as a Card or as text."""
        return card if isinstance(card, Card) else cls.parse(card)

    @classmethod
    def deck(cls) -> tuple[Card, ...]:
        """The 52 cards in a fixed order: clubs, diamonds, hearts, spades, each A..K."""
        return cls._ALL

    @property
    def symbol(self) -> str:
        """Rank with the suit symbol, for people: ``10♦``."""
        return self.rank + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


def _build() -> None:
    cards: list[Card] = []
    for suit in SUITS:
        for rank in RANKS:
            cards.append(Card._make(rank, suit, len(cards)))
    type.__setattr__(Card, "_ALL", tuple(cards))
    type.__setattr__(Card, "_BY_TEXT", {card.code: card for card in cards})


_build()


def parse_cards(items: object) -> list[Card]:
    """A list of cards from Cards or card texts; ValueError names the first bad one."""
    if isinstance(items, str) or not isinstance(items, (list, tuple)):
        raise ValueError(f"expected a list of cards, got {items!r}")
    return [Card.of(item) for item in items]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as space-separated text: ``4S 6H 10C``."""
    return " ".join(card.code for card in cards)
