"""Reading the ``.po`` catalogs straight into gettext, with no compile step.

The ``.po`` files in ``locales/`` are the only source of truth: each is read
with Babel, written to an in-memory ``.mo`` and opened with
``gettext.GNUTranslations``, once per language per process. Fuzzy entries and
plural entries with an empty form are left out, so they fall back as a whole.
Arabic falls back to the English catalog, English to the msgid itself.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path
from typing import Final

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from .lang import SOURCE_LANGUAGE, SUPPORTED

DOMAIN: Final = "basra"
LOCALES_DIR: Final = Path(__file__).resolve().parent / "locales"

#: The Plural-Forms header each catalog must carry.
PLURAL_FORMS: Final = {
    "ar": (
        "nplurals=6; plural=(n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : "
        "n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5);"
    ),
    "en": "nplurals=2; plural=(n != 1);",
}


def po_path(lang: str, locales_dir: Path = LOCALES_DIR) -> Path:
    """Where the catalog for ``lang`` lives."""
    return locales_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def pot_path(locales_dir: Path = LOCALES_DIR) -> Path:
    """Where the extracted template lives."""
    return locales_dir / f"{DOMAIN}.pot"


def read_catalog(lang: str, locales_dir: Path = LOCALES_DIR) -> Catalog:
    """The catalog for ``lang`` as Babel reads it."""
    with po_path(lang, locales_dir).open("rb") as fileobj:
        return read_po(fileobj, locale=lang, domain=DOMAIN)


def is_usable(message_string: str | tuple[str, ...] | list[str] | None) -> bool:
    """Whether a translation is complete: non-empty, and every plural form filled."""
    if not message_string:
        return False
    return isinstance(message_string, str) or all(message_string)


def catalog_translations(catalog: Catalog) -> gettext.GNUTranslations:
    """Compile ``catalog`` in memory; incomplete or fuzzy entries are dropped."""
    for message in list(catalog)[1:]:
        if message.fuzzy or not is_usable(message.string):
            catalog.delete(message.id, context=message.context)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def build_translations(lang: str, locales_dir: Path = LOCALES_DIR) -> gettext.NullTranslations:
    """Translations for ``lang`` with the source-language catalog as fallback."""
    translations = catalog_translations(read_catalog(lang, locales_dir))
    if lang != SOURCE_LANGUAGE:
        translations.add_fallback(build_translations(SOURCE_LANGUAGE, locales_dir))
    return translations


@cache
def load_translations(lang: str) -> gettext.NullTranslations:
    """The shipped translations for a supported language, built once per process."""
    if lang not in SUPPORTED:
        raise ValueError(f"unsupported language {lang!r}: expected one of {SUPPORTED}")
    return build_translations(lang)
