"""The translation layer: every user-facing string goes through here, in Arabic or English.

Use::

    from bots.i18n import resolve_language, translator, cards_text

    t = translator(resolve_language(person_lang, chat_lang, update_lang_code))
    t.gettext("Your turn")
    t.ngettext("{n} card", "{n} cards", len(hand))      # {n} is filled in
    t.pgettext("suit", "hearts")
    t.gettext("You played {cards}", cards=cards_text(played))

Messages are English str.format templates; fields are filled after
translation. Arabic uses its six plural forms; digits are Western everywhere,
and runs of cards or scores are wrapped in left-to-right isolates so Arabic
text cannot reorder them (see ``bots.i18n.bidi``). A msgid missing from the
Arabic catalog shows the English catalog's wording, then the msgid itself.
Card labels (``10♦``, ``Q♠``) are the same in both languages, each isolated.

Arabic never assumes a player's gender when it speaks of them: a play has the
card as its subject ("ورقة سارة: 7♣ وأكلت …"), results use nouns ("الفائز: …",
"انسحاب …"). Addressing the reader, it uses the imperative and second person
Arabic interfaces use for everyone (``اضغط``, ``أرسل``), as Telegram's and
Discord's own Arabic do; a vocalized feminine alternative for every sentence
would double the text for no reader's gain.

Catalogs live in ``bots/i18n/locales/{ar,en}/LC_MESSAGES/basra.po`` (plus
``basra.pot``) and are read directly, no compile step. English is the source
language and still has its own catalog, so English wording can change
without touching code.

Adding or changing strings::

    python -m bots.i18n update   # extract (babel.cfg) → basra.pot → merge into both .po
    # translate the new Arabic entries (msgstr[0..5] for plurals), review fuzzy ones
    python -m bots.i18n check    # lists every msgid missing, empty, fuzzy or with
                                 # the wrong number of plural forms; exit status 1 if any

``tests/i18n`` runs the check, so an untranslated string fails the suite.
Deferred msgids are marked with ``N_("...")`` / ``NP_("context", "...")``;
code outside ``bots`` (``core``) may define its own identity ``N_``.
"""

from __future__ import annotations

from .bidi import facing_scores, isolate, number_text, score_text, user_text
from .cards import card_face, card_label, cards_text
from .lang import DEFAULT_LANGUAGE, SOURCE_LANGUAGE, SUPPORTED, is_rtl, resolve_language
from .markers import N_, NP_
from .translation import Translator, translator

__all__ = [
    "DEFAULT_LANGUAGE",
    "NP_",
    "N_",
    "SOURCE_LANGUAGE",
    "SUPPORTED",
    "Translator",
    "card_face",
    "card_label",
    "cards_text",
    "facing_scores",
    "is_rtl",
    "isolate",
    "number_text",
    "resolve_language",
    "score_text",
    "translator",
    "user_text",
]
