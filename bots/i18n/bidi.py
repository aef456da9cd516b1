"""Keeping numbers, card runs and people's names in order inside Arabic text.

Arabic runs right to left, and the bidirectional algorithm pulls neutral
characters between numbers along with it: ``121–87`` in an Arabic sentence
shows as ``87–121``. Wrapping such a run in an isolate keeps it exactly as
written; in English text the isolate changes nothing. Digits are Western
(``0-9``) in both languages: every chat client shows them, and players type
them.

>>> score_text(121, 87)
'\\u2066121–87\\u2069'
>>> user_text("Omar 2")
'\\u2068Omar 2\\u2069'
"""

from __future__ import annotations

from typing import Final

LRI: Final = "\u2066"  # LEFT-TO-RIGHT ISOLATE
FSI: Final = "\u2068"  # FIRST STRONG ISOLATE
PDI: Final = "\u2069"  # POP DIRECTIONAL ISOLATE


def isolate(text: str) -> str:
    """Wrap ``text`` in a left-to-right isolate: the surrounding text cannot reorder it."""
    return f"{LRI}{text}{PDI}"


def user_text(text: str) -> str:
    """Wrap text typed by people (names) in a first-strong isolate.

    The name keeps its own direction (an Arabic name stays right to left) and
    cannot drag the message around it.
    """
    return f"{FSI}{text}{PDI}"


def score_text(*scores: int) -> str:
    """Scores joined by an en dash and isolated: ``121–87`` reads the same in both languages."""
    return isolate("–".join(str(score) for score in scores))


def facing_scores(*scores: int) -> str:
    """Scores for a line that names the sides around them (``Alice 36–37 Badr``): each
    score isolated on its own, so that in both directions it stays beside its own side's
    name. Isolated as one run, right-to-left text would put ``36`` beside Badr.

    >>> facing_scores(36, 37)
    '\u206636\u2069–\u206637\u2069'
    """
    return "–".join(isolate(str(score)) for score in scores)


def number_text(n: int) -> str:
    """A number for running text: Western digits; isolated only when it carries a sign.

    >>> number_text(121), number_text(-5)
    ('121', '\\u2066-5\\u2069')
    """
    return isolate(str(n)) if n < 0 else str(n)
