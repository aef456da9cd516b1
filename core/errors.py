"""The engine's errors: one base class, so callers can catch every refusal at once.

Messages that repeat what they were given show it through ``shown``: short,
on one line, and never an error of its own, whatever the value.
"""

from __future__ import annotations

import reprlib


class BasraError(ValueError):
    """Base of every error the engine raises for bad input or a refused action."""


class BadArgument(BasraError):
    """An argument of the wrong type or out of range: a card that is not one,
    rules or decks that are not, a seed the shuffle cannot use."""


class IllegalPlay(BasraError):
    """A play the rules refuse: wrong seat, card not in hand, no such plan, match over.

    A refused play changes nothing. The refusals a player can make by pressing
    are raised as the subclasses below, so that a caller answers each in its own
    words without checking the rules again.
    """


class MatchIsOver(IllegalPlay):
    """The match has ended: nobody is to move."""


class NotTheirTurn(IllegalPlay):
    """The seat is not the one to move; ``to_move`` is."""

    def __init__(self, message: str, to_move: int) -> None:
        super().__init__(message)
        self.to_move = to_move


class NotInHand(IllegalPlay):
    """The card is not in the seat's hand; ``card`` is its code."""

    def __init__(self, message: str, card: str) -> None:
        super().__init__(message)
        self.card = card


class MustTake(IllegalPlay):
    """Plan 0 (lay it down) for a card that can take, without optional capture."""

    def __init__(self, message: str, card: str) -> None:
        super().__init__(message)
        self.card = card


class NoSuchPlan(IllegalPlay):
    """A plan number the card does not have; ``card`` is its code, ``plan`` the number."""

    def __init__(self, message: str, card: str, plan: int) -> None:
        super().__init__(message)
        self.card = card
        self.plan = plan


class RecordError(BasraError):
    """A match record that cannot be read or replayed."""


SHOWN_LIMIT = 60  # characters of a value an error message repeats


class _Repr(reprlib.Repr):
    """reprlib's short reprs, with bytes cut before they are written out."""

    def repr_bytes(self, value: bytes, level: int) -> str:
        cut = value[: self.maxstring]
        return repr(cut) + (self.fillvalue if len(cut) < len(value) else "")

    def repr_bytearray(self, value: bytearray, level: int) -> str:
        return self.repr_bytes(bytes(value[: self.maxstring + 1]), level)


_REPR = _Repr()
_REPR.maxlevel = 2
_REPR.maxstring = 40
_REPR.maxother = 40
_REPR.maxlong = 40
_REPR.fillvalue = "…"


def shown(value: object, limit: int = SHOWN_LIMIT) -> str:
    """``value`` for an error message: its repr, cut to ``limit`` characters.

    Nested containers are shown two levels deep, so a deeply nested list costs
    no recursion; an integer too long to write out (Python refuses more than
    4,300 digits) is named by its size; an object whose repr fails is named by
    its type.
    """
    if type(value) is int and not -(10**40) < value < 10**40:
        text = f"<a {value.bit_length()}-bit number>"
    else:
        try:
            text = _REPR.repr(value)
        except Exception:
            text = f"<{type(value).__name__}>"
    if not text.isprintable():  # a repr of its own making may hold line breaks
        text = "".join(c if c.isprintable() else " " for c in text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return text
