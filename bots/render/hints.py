"""Rendering the practice hint: the suggested card, why, and the hand ready to play it.

A hint's reason is a ``core.ai`` key and its fields (``core.ai.REASONS`` holds
the English templates). Each wording below repeats its template literally, so
the catalogs can extract it; ``tests/service`` checks that the two lists agree.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Final

from core.ai import REASONS

from ..i18n import Translator, card_label, cards_text
from ..service.views import HintView
from .markup import Line, Span, Text
from .rendered import Rendered
from .texts import render_hand

Wording = Callable[[Translator, int, dict[str, object]], str]

REASON_WORDING: Final[dict[str, Wording]] = {
    "basra": lambda t, n, f: t.ngettext(
        "makes a basra with {card}: takes {taken} ({points} point with the basra)",
        "makes a basra with {card}: takes {taken} ({points} points with the basra)",
        n,
        **f,
    ),
    "sweep": lambda t, n, f: t.ngettext(
        "clears the floor with {card}: takes {taken} ({points} point)",
        "clears the floor with {card}: takes {taken} ({points} points)",
        n,
        **f,
    ),
    "take_clean": lambda t, n, f: t.ngettext(
        "takes {taken} ({points} point) and leaves no single card",
        "takes {taken} ({points} points) and leaves no single card",
        n,
        **f,
    ),
    "take_lone": lambda t, n, f: t.ngettext(
        "takes {taken} ({points} point) though it leaves {left} alone",
        "takes {taken} ({points} points) though it leaves {left} alone",
        n,
        **f,
    ),
    "take_lone_plain": lambda t, n, f: t.gettext("takes {taken} though it leaves {left} alone", **f),
    "take_majority": lambda t, n, f: t.ngettext(
        "takes {taken}: {cards} card towards the majority",
        "takes {taken}: {cards} cards towards the majority",
        n,
        **f,
    ),
    "take_deny": lambda t, n, f: t.gettext("takes {taken} so that no single card is left to sweep", **f),
    "lay_safe": lambda t, n, f: t.gettext(
        "lays {card}: nothing worth taking, and no single card can sweep the floor", **f
    ),
    "lay_low": lambda t, n, f: t.gettext("lays {card}, a low card that gives little away", **f),
    "lay_keep_sweeper": lambda t, n, f: t.gettext("lays {card} and keeps {sweeper} for a fuller floor", **f),
    "lay_empty": lambda t, n, f: t.gettext("lays {card} on the empty floor", **f),
    "only_card": lambda t, n, f: t.gettext("plays {card}, the last card in hand", **f),
}


#: A capture that leaves one card on the floor that nothing still out could take for a basra
#: (the service leaves its ``left`` out): the hint says what it takes, with no warning.
SAFE_LONE_WORDING: Final[dict[str, Wording]] = {
    "take_lone": lambda t, n, f: t.ngettext(
        "takes {taken} ({points} point)", "takes {taken} ({points} points)", n, **f
    ),
    "take_lone_plain": lambda t, n, f: t.gettext("takes {taken}", **f),
}


def reason_text(reason: str, args: Mapping[str, int | tuple[str, ...]], t: Translator) -> str:
    """A hint's reason in the reader's language, cards as labels in left-to-right isolates."""
    fields: dict[str, object] = {
        name: cards_text(value) if isinstance(value, tuple) else value for name, value in args.items()
    }
    template = REASONS[reason]
    count = args.get(template.counter, 1) if template.counter else 1
    n = count if isinstance(count, int) else 1
    if reason in SAFE_LONE_WORDING and "left" not in args:
        return SAFE_LONE_WORDING[reason](t, n, fields)
    wording = REASON_WORDING.get(reason)
    if wording is None:  # a reason newer than this renderer: its English template
        return (template.singular if n == 1 else template.plural).format_map(fields)
    return wording(t, n, fields)


def hint_text(hint: HintView, t: Translator) -> str:
    """The hint in one line: "Hint: 10♦ — takes 4♠ 6♥ (3 points) …" (short enough for an alert)."""
    # TRANSLATORS: the practice hint; {card} is the card to play, {reason} why, e.g.
    # "takes 4♠ 6♥ (3 points) and leaves no single card".
    return t.gettext(
        "Hint: {card} — {reason}", card=card_label(hint.card), reason=reason_text(hint.reason, hint.args, t)
    )


def render_hint(hint: HintView, t: Translator, *, now: float | None = None, live: bool = False) -> Rendered:
    """The hint above the player's hand, which previews the suggested card and plan:
    its confirm button plays the hint, "Back" ignores it."""
    hand = render_hand(hint.hand, t, now=now, live=live)
    text = Text.of(Line.of(Span(hint_text(hint, t), bold=True)), Line.of("")) + hand.text
    return Rendered(text, hand.buttons, hand.mention)
