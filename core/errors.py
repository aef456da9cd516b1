"""The engine's errors: one base class, so callers can catch every refusal at once."""

from __future__ import annotations


class BasraError(ValueError):
    """Base of every error the engine raises for bad input or a refused action."""


class IllegalPlay(BasraError):
    """A play the rules refuse: wrong seat, card not in hand, no such plan, match over.

    A refused play changes nothing.
    """


class RecordError(BasraError):
    """A match record that cannot be read or replayed."""
