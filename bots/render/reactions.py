"""The canned reactions between strangers: their words, the buttons that send them, and the
one short line that shows a reaction to the others at the match.

People the pool paired share no chat: these fixed words (``bots.service.REACTIONS``, by key)
are all that passes from one to the other, each shown in its reader's language, with the
sender's display name (isolated) and nothing else of them. A reaction's button names its
table and its key, never a person.

>>> from bots.i18n import translator
>>> [b.label for b in reaction_row("t1", translator("en"))]
['👋 Good luck', '👏 Well played', '🤝 Good game', '🙏 Thanks']
>>> reaction_row("t1", translator("en"))[0].action.encode()
'b1|react|t1|0|||good_luck'
>>> list(WORDS) == list(REACTIONS)
True
"""

from __future__ import annotations

from typing import Final

from ..i18n import N_, Translator, translator, user_text
from ..service.notices import Reacted
from ..service.reactions import REACTIONS
from .actions import Action, Button
from .markup import Line, Text
from .rendered import Rendered

#: Each reaction's words, short enough for a button, with the emoji that leads them.
WORDS: Final[dict[str, str]] = {
    # TRANSLATORS: a canned reaction a player sends to a stranger they play (a button, and
    # what the others read after the sender's name).
    "good_luck": N_("👋 Good luck"),
    # TRANSLATORS: a canned reaction between strangers: praise for a good move or match.
    "well_played": N_("👏 Well played"),
    # TRANSLATORS: a canned reaction between strangers, mostly at a match's end.
    "good_game": N_("🤝 Good game"),
    # TRANSLATORS: a canned reaction between strangers.
    "thanks": N_("🙏 Thanks"),
}


def reaction_words(t: Translator, key: str) -> str:
    """A reaction's words in ``t``'s language (the key itself for one this module lacks)."""
    msgid = WORDS.get(key)
    return t.gettext(msgid) if msgid is not None else key


def reaction_row(table_id: str, t: Translator) -> tuple[Button, ...]:
    """One button per reaction, in ``REACTIONS``' order, each sending it at ``table_id``."""
    return tuple(Button(reaction_words(t, key), Action("react", table_id, arg=key)) for key in REACTIONS)


def with_reactions(rendered: Rendered, table_id: str, t: Translator) -> Rendered:
    """``rendered`` with a row of reactions under its buttons (a stranger match's table or
    result, as one of its people sees it)."""
    return Rendered(rendered.text, (*rendered.buttons, reaction_row(table_id, t)), rendered.mention)


def render_reacted(notice: Reacted) -> Rendered:
    """A reaction another person at the match sent, for ``notice.player_id``: one line, their
    display name and the reaction's words, in the reader's language.

    >>> render_reacted(Reacted("t1", "pool:t1", "dc:2", "Amal", "thanks", "en")).plain()
    '\\u2068Amal\\u2069: 🙏 Thanks'
    """
    t = translator(notice.lang)
    words = reaction_words(t, notice.reaction)
    # TRANSLATORS: a canned reaction from a stranger at the match: {name} sent it, e.g. "Amal: 🙏 Thanks".
    line = t.gettext("{name}: {reaction}", name=user_text(notice.sender), reaction=words)
    return Rendered(Text.of(Line.of(line)))


def reaction_sent_text(t: Translator, key: str) -> str:
    """What the one who sent a reaction is told (the others read it with their name)."""
    # TRANSLATORS: the answer, seen by the sender alone, to a canned reaction they sent.
    return t.gettext("Sent: {reaction}", reaction=reaction_words(t, key))
