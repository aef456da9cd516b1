"""Every string the code can show is translated, completely, in Arabic and English.

``test_every_msgid_in_the_source_is_translated_in_both_languages`` runs the
same check as ``python -m bots.i18n check`` over the real source tree; when it
fails, run ``python -m bots.i18n update`` and translate what it lists.
"""

from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.pofile import read_po

from bots.i18n.__main__ import main
from bots.i18n.catalog import PLURAL_FORMS, po_path, pot_path, read_catalog
from bots.i18n.maintenance import (
    REPO_ROOT,
    Problem,
    check_catalogs,
    extract_template,
    update_catalogs,
)


def test_every_msgid_in_the_source_is_translated_in_both_languages() -> None:
    problems = check_catalogs()
    assert not problems, "untranslated or broken messages:\n" + "\n".join(map(str, problems))


def test_the_catalogs_carry_the_plural_rules_of_their_language() -> None:
    assert read_catalog("ar").num_plurals == 6
    assert read_catalog("en").num_plurals == 2
    assert "n%100>=11 ? 4 : 5" in PLURAL_FORMS["ar"]


def keys(catalog: Catalog) -> set[tuple[str, str | None]]:
    return {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in list(catalog)[1:]}


def test_the_template_lists_exactly_the_msgids_in_the_source() -> None:
    with pot_path().open("rb") as fileobj:
        shipped = read_po(fileobj)
    extracted = extract_template()
    assert keys(shipped) == keys(extracted), "run `python -m bots.i18n update`"


SOURCE = """\
from bots.i18n import N_, translator

LATER = N_("Shuffling")


def render(t):
    t.gettext("Your turn")
    # TRANSLATORS: shown when a match starts.
    t.gettext("Match begins, {name}", name="x")
    t.pgettext("game", "floor")
    return t.ngettext("{n} card", "{n} cards", 3)
"""


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A small source tree with its own catalogs, half translated."""
    shutil.copy(REPO_ROOT / "babel.cfg", tmp_path / "babel.cfg")
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "table.py").write_text(SOURCE, encoding="utf-8")
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_table.py").write_text('t.gettext("Not user-facing")\n')
    for lang, entries in {
        "en": """\
            msgid "Your turn"
            msgstr "Your turn"
            """,
        "ar": """\
            #, fuzzy
            msgid "Your turn"
            msgstr "دورك"

            msgctxt "game"
            msgid "floor"
            msgstr "الأرض"

            msgid "Match begins, {name}"
            msgstr "بدأت المباراة يا {nmae}"

            msgid "{n} card"
            msgid_plural "{n} cards"
            msgstr[0] "لا أوراق"
            msgstr[1] "ورقة واحدة"
            """,
    }.items():
        path = po_path(lang, tmp_path / "locales")
        path.parent.mkdir(parents=True)
        header = (
            'msgid ""\nmsgstr ""\n'
            f'"Language: {lang}\\n"\n"Plural-Forms: {PLURAL_FORMS[lang]}\\n"\n'
            '"Content-Type: text/plain; charset=utf-8\\n"\n\n'
        )
        path.write_text(header + textwrap.dedent(entries), encoding="utf-8")
    return tmp_path


def entry(catalog: Catalog, msgid: str) -> Message:
    message = catalog.get(msgid)
    assert message is not None, f"no entry for {msgid!r}"
    return message


def reasons(problems: list[Problem]) -> set[str]:
    return {str(problem).split(" at ")[0] for problem in problems}


def test_the_check_lists_every_gap_by_language_and_msgid(tree: Path) -> None:
    problems = check_catalogs(tree, tree / "locales")
    assert reasons(problems) == {
        "en: missing msgid: 'Shuffling'",
        "en: missing msgid: 'Match begins, {name}'",
        "en: missing msgid: 'floor' (context 'game')",
        "en: missing msgid: '{n} card'",
        "ar: missing msgid: 'Shuffling'",
        "ar: fuzzy translation (review it, then remove the fuzzy flag): 'Your turn'",
        "ar: unknown fields ['nmae'] in 'بدأت المباراة يا {nmae}': 'Match begins, {name}'",
        "ar: empty plural forms [2, 3, 4, 5] of 6: '{n} card'",
    }


def test_a_plural_entry_with_too_many_forms_is_reported(tree: Path) -> None:
    path = po_path("ar", tree / "locales")
    extra = "".join(f'msgstr[{i}] "{i}"\n' for i in range(2, 7))
    text = path.read_text(encoding="utf-8").replace(
        'msgstr[1] "ورقة واحدة"\n', 'msgstr[1] "ورقة واحدة"\n' + extra
    )
    path.write_text(text, encoding="utf-8")
    problems = check_catalogs(tree, tree / "locales", languages=("ar",))
    assert any("more translations than num_plurals" in str(p) for p in problems), problems


def test_a_problem_names_where_the_msgid_is_used(tree: Path) -> None:
    problems = check_catalogs(tree, tree / "locales", languages=("ar",))
    assert any(str(p).endswith("at bots/table.py:3") for p in problems)


def test_a_wrong_plural_rule_is_reported(tree: Path) -> None:
    path = po_path("ar", tree / "locales")
    text = path.read_text(encoding="utf-8").replace(PLURAL_FORMS["ar"], PLURAL_FORMS["en"])
    path.write_text(text, encoding="utf-8")
    problems = check_catalogs(tree, tree / "locales", languages=("ar",))
    assert any("Plural-Forms header" in str(p) for p in problems)


def test_update_merges_new_msgids_into_both_catalogs(tree: Path) -> None:
    locales = tree / "locales"
    written = update_catalogs(tree, locales)
    assert set(written) == {pot_path(locales), po_path("ar", locales), po_path("en", locales)}
    # English says its msgids; Arabic is left to translate, with the old work kept
    assert not [p for p in check_catalogs(tree, locales) if p.lang == "en"]
    ar = read_catalog("ar", locales)
    assert entry(ar, "Shuffling").string == ""
    assert entry(ar, "{n} card").string == ("لا أوراق", "ورقة واحدة", "", "", "", "")
    assert entry(ar, "Match begins, {name}").auto_comments == ["shown when a match starts."]
    assert ar.get("Not user-facing") is None
    # a second run has nothing to do
    assert update_catalogs(tree, locales) == []


def test_the_command_line_exits_non_zero_on_gaps(
    tree: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--root", str(tree), "--locales", str(tree / "locales")]) == 1
    assert "ar: missing msgid: 'Shuffling'" in capsys.readouterr().out
    assert main(["check"]) == 0
    assert "catalogs complete" in capsys.readouterr().out
