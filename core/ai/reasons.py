"""Why a move is suggested: a structured reason, translated by the bots.

``core`` cannot import the translation layer, so a reason is a key and its
fields; ``REASONS`` is the one list of keys and English templates. The
templates are marked with ``NR_`` (deferred msgids: singular, plural) so an
extractor can collect them for the catalogs; the chat side translates with
``Translator.ngettext(*reason.template, reason.count, **fields)`` and renders
the card fields with its own card labels. ``str(reason)`` is the English line.

>>> from core.cards import Card
>>> str(Reason("take_clean", {"taken": (Card.parse("10D"),), "points": 3}))
'takes 10♦ (3 points) and leaves no single card'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ..cards import Card


class Template(NamedTuple):
    """A reason's English wording: singular and plural forms, chosen by the ``counter`` field."""

    singular: str
    plural: str
    counter: str | None


def NR_(singular: str, plural: str | None = None, count: str | None = None) -> Template:
    """Mark a reason template for extraction (identity apart from packing it)."""
    return Template(singular, plural if plural is not None else singular, count)


# Every reason a suggestion can give. Fields named in CARD_FIELDS hold cards
# (rendered as card labels); the others hold whole numbers.
REASONS: dict[str, Template] = {
    "basra": NR_(
        "makes a basra with {card}: takes {taken} ({points} point with the basra)",
        "makes a basra with {card}: takes {taken} ({points} points with the basra)",
        "points",
    ),
    "sweep": NR_(
        "clears the floor with {card}: takes {taken} ({points} point)",
        "clears the floor with {card}: takes {taken} ({points} points)",
        "points",
    ),
    "take_clean": NR_(
        "takes {taken} ({points} point) and leaves no single card",
        "takes {taken} ({points} points) and leaves no single card",
        "points",
    ),
    "take_lone": NR_(
        "takes {taken} ({points} point) though it leaves {left} alone",
        "takes {taken} ({points} points) though it leaves {left} alone",
        "points",
    ),
    "take_lone_plain": NR_(
        "takes {taken} though it leaves {left} alone",
    ),
    "take_majority": NR_(
        "takes {taken}: {cards} card towards the majority",
        "takes {taken}: {cards} cards towards the majority",
        "cards",
    ),
    "take_deny": NR_(
        "takes {taken} so that no single card is left to sweep",
    ),
    "lay_safe": NR_(
        "lays {card}: nothing worth taking, and no single card can sweep the floor",
    ),
    "lay_low": NR_(
        "lays {card}, a low card that gives little away",
    ),
    "lay_keep_sweeper": NR_(
        "lays {card} and keeps {sweeper} for a fuller floor",
    ),
    "lay_empty": NR_(
        "lays {card} on the empty floor",
    ),
    "only_card": NR_(
        "plays {card}, the last card in hand",
    ),
}

CARD_FIELDS = frozenset({"card", "taken", "left", "sweeper"})


def english_cards(cards: Sequence[Card]) -> str:
    """Cards for the English line: labels with suit symbols, ``10♦ 4♠``."""
    return " ".join(card.symbol for card in cards)


@dataclass(frozen=True, slots=True)
class Reason:
    """A reason key from ``REASONS`` and its fields (cards as tuples of Card, numbers as int)."""

    key: str
    args: Mapping[str, object] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.key not in REASONS:
            raise ValueError(f"unknown reason {self.key!r}")

    @property
    def template(self) -> tuple[str, str]:
        """The English singular and plural templates (the msgids)."""
        t = REASONS[self.key]
        return (t.singular, t.plural)

    @property
    def count(self) -> int:
        """The number that picks the plural form (1 when the template has none)."""
        name = REASONS[self.key].counter
        value = self.args.get(name, 1) if name else 1
        return value if isinstance(value, int) else 1

    def fields(self, cards_text: Callable[[Sequence[Card]], str] = english_cards) -> dict[str, object]:
        """The fields ready for a template, cards rendered with ``cards_text``."""
        out: dict[str, object] = {}
        for name, value in self.args.items():
            if name in CARD_FIELDS:
                cards = (value,) if isinstance(value, Card) else tuple(value)  # type: ignore[arg-type]
                out[name] = cards_text(cards)
            else:
                out[name] = value
        return out

    def __str__(self) -> str:
        singular, plural = self.template
        return (singular if self.count == 1 else plural).format_map(self.fields())
