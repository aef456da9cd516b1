"""One object per language that every user-facing string goes through.

Messages are str.format templates with named fields, filled in after
translation, so a translation may move the fields around (or, in a plural
form such as Arabic "ورقتان", leave ``{n}`` out). Literal braces are doubled.

>>> t = translator("ar")
>>> t.ngettext("{n} card", "{n} cards", 2)
'ورقتان'
>>> translator("en-US").pgettext("suit", "hearts")
'hearts'
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from functools import cache
from gettext import NullTranslations

from .catalog import load_translations
from .lang import SUPPORTED, is_rtl, resolve_language

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Translator:
    """Translates and formats messages for one language."""

    lang: str
    translations: NullTranslations = field(repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.lang not in SUPPORTED:
            raise ValueError(f"unsupported language {self.lang!r}: expected one of {SUPPORTED}")

    @property
    def rtl(self) -> bool:
        """Whether this language is written right to left (chat layouts may care)."""
        return is_rtl(self.lang)

    def gettext(self, msgid: str, /, **fields: object) -> str:
        """``msgid`` translated, then formatted with ``fields``."""
        return self._format(self.translations.gettext(msgid), msgid, fields)

    _ = gettext

    def ngettext(self, singular: str, plural: str, n: int, /, **fields: object) -> str:
        """The plural form for ``n``; ``{n}`` is available to the template unless given."""
        fields.setdefault("n", n)
        source = singular if n == 1 else plural
        return self._format(self.translations.ngettext(singular, plural, n), source, fields)

    def pgettext(self, context: str, msgid: str, /, **fields: object) -> str:
        """``msgid`` in ``context`` (the same English word can need two Arabic ones)."""
        return self._format(self.translations.pgettext(context, msgid), msgid, fields)

    def npgettext(
        self, context: str, singular: str, plural: str, n: int, /, **fields: object
    ) -> str:
        """``ngettext`` with a context."""
        fields.setdefault("n", n)
        source = singular if n == 1 else plural
        translated = self.translations.npgettext(context, singular, plural, n)
        return self._format(translated, source, fields)

    def _format(self, translated: str, source: str, fields: dict[str, object]) -> str:
        # A broken translation (unknown or mistyped field) must not cost a reply:
        # log it and use the source text, which the code was written against.
        try:
            return translated.format_map(fields)
        except (KeyError, IndexError, ValueError, AttributeError):
            if translated == source:
                raise
            log.warning("bad %s translation %r for %r", self.lang, translated, source)
            return source.format_map(fields)


@cache
def _translator(lang: str) -> Translator:
    return Translator(lang, load_translations(lang))


def translator(lang: str | None) -> Translator:
    """The shared translator for a language tag (``"ar"``, ``"en-US"``, ...).

    Tags that name no supported language get the default language.
    """
    return _translator(resolve_language(lang))
