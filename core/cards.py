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
from itertools import product
from types import MemberDescriptorType
from typing import Final, final

from .errors import BadArgument, shown

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS: Final = ("C", "D", "H", "S")
SUIT_SYMBOLS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
_SYMBOL_TO_SUIT: Final = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}


@final
class Card:
    """One playing card; there are exactly 52 instances, shared by everyone.

    Equality is identity, which keeps comparisons and hashing cheap for the
    computer players' searches. Cards have no ordering of their own (sort
    them by ``index``): any comparison method written in Python would send
    every ``==``, ``in`` and ``list.remove`` on cards through Python code.
    Cards come from ``parse`` and ``deck``; their fields cannot be changed.
    Anything ``parse`` cannot read is a BadArgument (a BasraError, and so a
    ValueError).
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

    rank: Final[str]
    suit: Final[str]
    index: Final[int]
    value: Final[int]
    """A..10 count their face value in sums; face cards 0."""
    code: Final[str]
    points: Final[int]
    is_number: Final[bool]
    """A..10: the cards that have a value and can join a sum."""
    is_jack: Final[bool]
    is_seven_of_diamonds: Final[bool]
    is_sweeper: Final[bool]
    """A jack or the 7D: takes the whole floor."""

    def __init__(self, rank: str, suit: str, index: int, token: object = None) -> None:
        if token is not _MAKE:
            raise TypeError("cards come from Card.parse or Card.deck")
        value = RANKS.index(rank) + 1
        points = 0
        if rank in ("A", "J"):
            points = 1
        elif rank + suit == "2C":
            points = 2
        elif rank + suit == "10D":
            points = 3
        self.rank = rank
        self.suit = suit
        self.index = index
        self.value = value if value <= 10 else 0
        self.code = rank + suit
        self.points = points
        self.is_number = 1 <= value <= 10
        self.is_jack = rank == "J"
        self.is_seven_of_diamonds = rank + suit == "7D"
        self.is_sweeper = rank == "J" or rank + suit == "7D"

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
    def parse(cls, text: object) -> Card:
        """Read a card: rank then suit, suit as letter or symbol, any case."""
        if not isinstance(text, str):
            raise BadArgument(f"not a card: {shown(text)}")
        key = text.strip().upper()
        if key and key[-1] in _SYMBOL_TO_SUIT:
            key = key[:-1] + _SYMBOL_TO_SUIT[key[-1]]
        card = _BY_TEXT.get(key)
        if card is None or not text.strip():
            raise BadArgument(f"not a card: {shown(text)}")
        return card

    @classmethod
    def of(cls, card: object) -> Card:
        """A card given as a Card or as text."""
        return card if isinstance(card, Card) else cls.parse(card)

    @classmethod
    def deck(cls) -> tuple[Card, ...]:
        """The 52 cards in a fixed order: clubs, diamonds, hearts, spades, each A..K."""
        return _ALL

    @property
    def symbol(self) -> str:
        """Rank with the suit symbol, for people: ``10♦``."""
        return self.rank + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code!r})"


_MAKE: Final = object()  # the 52 cards' pass to the constructor
_ALL: Final[tuple[Card, ...]] = tuple(
    Card(rank, suit, i, _MAKE) for i, (suit, rank) in enumerate(product(SUITS, RANKS))
)
_BY_TEXT: Final[dict[str, Card]] = {card.code: card for card in _ALL}


def _refuse_change(card: Card, name: str, value: object) -> None:
    raise AttributeError(f"cards are immutable: {name!r} of {card!r}")


# Compiled (see core/compiled.py) the fields are read-only attributes of a
# native class. Run from source they are plain slots: once the 52 cards are
# made, setting one is refused here instead.
if isinstance(vars(Card)["code"], MemberDescriptorType):
    type.__setattr__(Card, "__setattr__", _refuse_change)


def parse_cards(items: object) -> list[Card]:
    """A list of cards from Cards or card texts; BadArgument names the first bad one."""
    if not isinstance(items, (list, tuple)):
        raise BadArgument(f"expected a list of cards, got {shown(items)}")
    return [Card.of(item) for item in items]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as space-separated text: ``4S 6H 10C``."""
    try:
        return " ".join([card.code for card in cards])
    except (TypeError, AttributeError):
        raise BadArgument(f"expected cards, got {shown(cards)}") from None
