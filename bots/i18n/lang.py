"""Which language a person reads, from the settings and hints we have.

Chat platforms send tags such as ``ar``, ``ar-EG`` (Telegram) or ``en-US``
(Discord); stored settings hold the short code. Everything maps onto the two
catalogs the bot ships.

>>> resolve_language(None, "", "ar-EG")
'ar'
>>> resolve_language("en_GB", "ar")
'en'
>>> resolve_language("fr", None)
'ar'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

SUPPORTED: Final = ("ar", "en")
DEFAULT_LANGUAGE: Final = "ar"
#: The language the msgids are written in; missing translations fall back to it.
SOURCE_LANGUAGE: Final = "en"
RTL_LANGUAGES: Final = frozenset({"ar"})


def supported_language(candidate: str | None) -> str | None:
    """The supported language a tag names, or ``None``.

    Accepts ``ar``, ``ar-EG``, ``ar_SA``, ``en-US``, ``EN``, ``ar_EG.UTF-8``.

    >>> supported_language("ar_SA"), supported_language("de-DE"), supported_language(None)
    ('ar', None, None)
    """
    if not candidate:
        return None
    tag = candidate.strip().lower().replace("_", "-")
    primary = tag.split(".", 1)[0].split("@", 1)[0].split("-", 1)[0]
    return primary if primary in SUPPORTED else None


def resolve_language(*candidates: str | None) -> str:
    """The first candidate that names a supported language, else the default.

    Call it most specific first:
    ``resolve_language(person_setting, chat_setting, platform_language_code)``.
    """
    for candidate in candidates:
        lang = supported_language(candidate)
        if lang is not None:
            return lang
    return DEFAULT_LANGUAGE


def operator_language(asked: str | None, environ: Mapping[str, str]) -> str:
    """The language of an operator's command (``basra backup``): ``asked`` (``--lang``), else
    the locale's, from the first of ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` that is set (as
    POSIX reads them), else English. Not the games' language: what cron mails and a server
    logs is read by whoever runs the machine, in the language they chose for it.

    >>> operator_language(None, {}), operator_language(None, {"LANG": "ar_EG.UTF-8"})
    ('en', 'ar')
    >>> operator_language(None, {"LC_ALL": "C.UTF-8", "LANG": "ar_EG.UTF-8"})
    'en'
    >>> operator_language("ar", {"LANG": "en_US.UTF-8"})
    'ar'
    """
    if (lang := supported_language(asked)) is not None:
        return lang
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if value := environ.get(name):
            return supported_language(value) or SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


def is_rtl(lang: str) -> bool:
    """Whether text in this language runs right to left."""
    return lang in RTL_LANGUAGES
