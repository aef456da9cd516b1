"""Short lines: what a hand message becomes once it is no longer the live one, and
messages stacked into one (a round's result above the next round's table)."""

from __future__ import annotations

from ..i18n import Translator
from ..service.views import HandView
from .common import run_of
from .markup import Line, Span, Text
from .rendered import Rendered
from .texts import _end_line, describe_play


def render_played(hand: HandView, t: Translator) -> Rendered:
    """A hand message after its turn (or the first look at a hand before it): the play it
    made and the cards still held, no buttons. What it lists stays true until the player's
    next turn: cards leave a hand only by its own play, and a deal comes only to empty
    hands. The next hand comes as a new message with that turn, which notifies."""
    table = hand.table
    if not table.running:
        return Rendered(Text.of(Line.of(Span(_end_line(t, table), bold=True))))
    lines: list[Line] = []
    play = table.last_play
    if play is not None and play.seat == hand.seat:
        lines.append(Line.of(describe_play(t, table, play, hand.seat)))
    elif play is None and table.round_no > 1:
        # TRANSLATORS: a hand message once its round ended with this player's play.
        lines.append(Line.of(t.gettext("Round {round} has begun.", round=table.round_no)))
    if hand.hand:
        lines.append(Line.of(t.gettext("Your hand: {cards}", cards=run_of(hand.hand))))
    # TRANSLATORS: under a played hand; the hand comes back as a new message when it is their turn.
    lines.append(Line.of(t.gettext("Your cards come back here with your turn.")))
    return Rendered(Text.of(*lines))


def render_moved(t: Translator) -> Rendered:
    """An older hand message, once a newer one was sent (no buttons: nothing to press there)."""
    # TRANSLATORS: an old hand message, replaced by a newer one further down the chat.
    return Rendered(Text.of(Line.of(t.gettext("This hand moved to a newer message below."))))


def stacked(*parts: Rendered) -> Rendered:
    """Several renderings as one message, a blank line between them; the buttons and
    mentions are the last one's."""
    text = parts[0].text
    for part in parts[1:]:
        text = text + Text.of(Line.of("")) + part.text
    return Rendered(text, parts[-1].buttons, parts[-1].mention)
