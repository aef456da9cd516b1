"""The words of the game, as msgids, and small helpers that say them.

The names follow section 9 of the rule book (floor الأرض, basra باصرة, jack
ولد, ...). Keeping them here, marked, keeps them in the catalogs even before
other code uses them; ``python -m bots.i18n check`` then holds every one of
them translated in both languages.

>>> from bots.i18n import translator
>>> ar = translator("ar")
>>> suit_name(ar, "D"), rank_name(ar, "J"), term(ar, "basra")
('ديناري', 'ولد', 'باصرة')
>>> card_name(ar, "KH"), card_name(translator("en"), "7D")
('شايب كبّة', '7 of diamonds')
>>> cards_count(ar, 11), points_count(ar, 3), deals_left(ar, 2)
('11 ورقة', '3 نقاط', 'بقي توزيعان')
"""

from __future__ import annotations

from typing import Final

from .bidi import user_text
from .cards import split_card
from .markers import NP_
from .translation import Translator

RANK_NAMES: Final = {
    "A": NP_("rank", "ace"),
    "J": NP_("rank", "jack"),
    "Q": NP_("rank", "queen"),
    "K": NP_("rank", "king"),
}

SUIT_NAMES: Final = {
    "C": NP_("suit", "clubs"),
    "D": NP_("suit", "diamonds"),
    "H": NP_("suit", "hearts"),
    "S": NP_("suit", "spades"),
}

TERMS: Final = {
    "floor": NP_("game", "floor"),
    "basra": NP_("game", "basra"),
    "majority": NP_("game", "majority"),
    "deal": NP_("game", "deal"),
    "round": NP_("game", "round"),
    "match": NP_("game", "match"),
    "partner": NP_("game", "partner"),
    "computer": NP_("game", "computer"),
}

#: Seats 0+2 are team A, seats 1+3 team B.
TEAM_NAMES: Final = (NP_("team", "Team A"), NP_("team", "Team B"))

LEVEL_NAMES: Final = {
    "beginner": NP_("level", "beginner"),
    "strong": NP_("level", "strong"),
    "expert": NP_("level", "expert"),
}


def rank_name(t: Translator, rank: str) -> str:
    """The spoken name of a rank: ``J`` → jack / ولد; number ranks stay digits."""
    pair = RANK_NAMES.get(rank.upper())
    return t.pgettext(*pair) if pair else rank


def suit_name(t: Translator, suit: str) -> str:
    """The name of a suit letter: ``D`` → diamonds / ديناري."""
    return t.pgettext(*SUIT_NAMES[suit.upper()])


def card_name(t: Translator, card: object) -> str:
    """A card in words, for screen readers and explanations: jack of spades / ولد بستوني."""
    rank, suit = split_card(card)
    # TRANSLATORS: a card in words, e.g. "jack of spades"; {rank} is a rank name
    # or the digits of a number card, {suit} a suit name.
    return t.pgettext("card", "{rank} of {suit}", rank=rank_name(t, rank), suit=suit_name(t, suit))


def term(t: Translator, key: str) -> str:
    """A game term by its English key, e.g. ``term(t, "majority")``."""
    return t.pgettext(*TERMS[key])


def team_name(t: Translator, team: int) -> str:
    """Team A (index 0, seats 0 and 2) or team B (index 1, seats 1 and 3)."""
    return t.pgettext(*TEAM_NAMES[team])


def level_name(t: Translator, level: str) -> str:
    """The name of a computer player's level: beginner, strong or expert."""
    return t.pgettext(*LEVEL_NAMES[level])


def computer_player_name(t: Translator, level: str, number: str | None = None) -> str:
    """How a computer player sits at the table: Computer (expert) / الكمبيوتر (خبير); with
    several at one table, numbered: Computer 2 (expert) / الكمبيوتر 2 (خبير)."""
    if number:
        # TRANSLATORS: one of several computer players at a table; {number} tells them apart.
        return t.gettext("Computer {number} ({level})", number=number, level=level_name(t, level))
    # TRANSLATORS: a computer player's seat name; {level} is beginner, strong or expert.
    return t.gettext("Computer ({level})", level=level_name(t, level))


def your_turn(t: Translator) -> str:
    """Told to the player whose turn it is."""
    return t.gettext("Your turn")


def turn_of(t: Translator, name: str) -> str:
    """Whose turn it is, told to everyone else."""
    return t.gettext("{name}'s turn", name=user_text(name))


def cards_count(t: Translator, n: int) -> str:
    """``{n} cards`` in the right plural form."""
    # TRANSLATORS: a count of playing cards. Forms that spell the number out
    # (one card, two cards) may leave {n} out.
    return t.ngettext("{n} card", "{n} cards", n)


def points_count(t: Translator, n: int) -> str:
    """``{n} points`` in the right plural form."""
    return t.ngettext("{n} point", "{n} points", n)


def basras_count(t: Translator, n: int) -> str:
    """``{n} basras`` in the right plural form."""
    return t.ngettext("{n} basra", "{n} basras", n)


def rounds_count(t: Translator, n: int) -> str:
    """``{n} rounds`` in the right plural form."""
    return t.ngettext("{n} round", "{n} rounds", n)


def deals_left(t: Translator, n: int) -> str:
    """How many deals the stock still holds."""
    # TRANSLATORS: deals still to come in this round (each deal gives 4 cards to everyone).
    return t.ngettext("{n} deal left", "{n} deals left", n)


def minutes_count(t: Translator, n: int) -> str:
    """A duration in whole minutes (turn clocks)."""
    return t.ngettext("{n} minute", "{n} minutes", n)


def seconds_count(t: Translator, n: int) -> str:
    """A duration in whole seconds (turn clocks)."""
    return t.ngettext("{n} second", "{n} seconds", n)
