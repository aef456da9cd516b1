"""The translator: contexts, fields, and no crash when a translation is missing or broken."""

from __future__ import annotations

import doctest
import importlib
import textwrap
from pathlib import Path

import pytest

from bots.i18n import Translator, translator
from bots.i18n.catalog import PLURAL_FORMS, build_translations
from bots.i18n.words import (
    card_name,
    computer_player_name,
    level_name,
    rank_name,
    suit_name,
    team_name,
    term,
    turn_of,
    your_turn,
)


def test_the_words_of_the_game_follow_the_rule_book() -> None:
    ar = translator("ar")
    words = {
        "floor": "الأرض",
        "basra": "باصرة",
        "majority": "الأكثرية",
        "deal": "توزيع",
        "round": "جولة",
        "match": "مباراة",
        "partner": "شريك",
    }
    assert {key: term(ar, key) for key in words} == words
    assert [rank_name(ar, rank) for rank in "JQKA"] == ["ولد", "بنت", "شايب", "آص"]
    assert [suit_name(ar, suit) for suit in "DCSH"] == ["ديناري", "سباتي", "بستوني", "كبّة"]


def test_pgettext_picks_the_entry_of_its_context() -> None:
    ar = translator("ar")
    assert ar.pgettext("suit", "diamonds") == "ديناري"
    assert ar.pgettext("level", "expert") == "خبير"
    # the same msgid in an unknown context is not translated
    assert ar.pgettext("elsewhere", "diamonds") == "diamonds"


def test_english_reads_its_own_catalog() -> None:
    en = translator("en")
    assert en.pgettext("game", "basra") == "basra"
    assert team_name(en, 0) == "Team A"
    assert card_name(en, "JS") == "jack of spades"


def test_fields_are_filled_after_translation() -> None:
    ar = translator("ar")
    assert your_turn(ar) == "دورك"
    assert turn_of(ar, "Omar") == "دور \u2068Omar\u2069"
    assert computer_player_name(ar, "beginner") == "الكمبيوتر (مبتدئ)"
    assert card_name(ar, "7D") == "7 ديناري"
    assert level_name(ar, "strong") == "قوي"
    assert team_name(ar, 1) == "الفريق ب"


def test_underscore_is_gettext() -> None:
    ar = translator("ar")
    assert ar._("Your turn") == ar.gettext("Your turn")


@pytest.mark.parametrize("lang", ["ar", "en"])
def test_a_missing_msgid_falls_back_to_the_english_text(lang: str) -> None:
    t = translator(lang)
    assert t.gettext("No such message, {name}", name="Mona") == "No such message, Mona"
    assert t.ngettext("{n} ghost", "{n} ghosts", 1) == "1 ghost"
    assert t.ngettext("{n} ghost", "{n} ghosts", 11) == "11 ghosts"
    assert t.npgettext("x", "{n} ghost", "{n} ghosts", 0) == "0 ghosts"


def write_catalog(locales: Path, lang: str, entries: str) -> None:
    path = locales / lang / "LC_MESSAGES" / "basra.po"
    path.parent.mkdir(parents=True, exist_ok=True)
    header = textwrap.dedent(
        f"""\
        msgid ""
        msgstr ""
        "Language: {lang}\\n"
        "Plural-Forms: {PLURAL_FORMS[lang]}\\n"
        "Content-Type: text/plain; charset=utf-8\\n"

        """
    )
    path.write_text(header + textwrap.dedent(entries), encoding="utf-8")


@pytest.fixture
def locales(tmp_path: Path) -> Path:
    write_catalog(
        tmp_path,
        "en",
        """\
        msgid "Deal again"
        msgstr "Deal once more"

        msgid "Hello {name}"
        msgstr "Hello {name}"
        """,
    )
    write_catalog(
        tmp_path,
        "ar",
        """\
        msgid "Hello {name}"
        msgstr "أهلًا {nmae}"

        #, fuzzy
        msgid "Deal again"
        msgstr "خطأ"

        msgid "{n} card"
        msgid_plural "{n} cards"
        msgstr[0] ""
        msgstr[1] "ورقة واحدة"
        msgstr[2] ""
        msgstr[3] ""
        msgstr[4] ""
        msgstr[5] ""
        """,
    )
    return tmp_path


def test_arabic_missing_an_entry_uses_the_english_catalogs_wording(locales: Path) -> None:
    ar = Translator("ar", build_translations("ar", locales))
    # fuzzy entries are not shown; English wording comes from the English catalog
    assert ar.gettext("Deal again") == "Deal once more"


def test_a_half_translated_plural_falls_back_as_a_whole(locales: Path) -> None:
    ar = Translator("ar", build_translations("ar", locales))
    assert ar.ngettext("{n} card", "{n} cards", 1) == "1 card"
    assert ar.ngettext("{n} card", "{n} cards", 5) == "5 cards"


def test_a_translation_with_a_broken_field_shows_the_source_text(
    locales: Path, caplog: pytest.LogCaptureFixture
) -> None:
    ar = Translator("ar", build_translations("ar", locales))
    assert ar.gettext("Hello {name}", name="Mona") == "Hello Mona"
    assert "bad ar translation" in caplog.text


def test_a_broken_source_text_is_a_bug_and_raises() -> None:
    with pytest.raises(KeyError):
        translator("en").gettext("Hello {name}")


def test_an_unsupported_language_is_refused() -> None:
    with pytest.raises(ValueError, match="unsupported language"):
        Translator("fr", translator("en").translations)


@pytest.mark.parametrize(
    "module", ["lang", "markers", "bidi", "cards", "translation", "words", "catalog"]
)
def test_the_notation_examples_hold(module: str) -> None:
    result = doctest.testmod(importlib.import_module(f"bots.i18n.{module}"))
    assert result.failed == 0
