"""Every counted noun goes through the catalogs' plural forms, and each form says its count
the way the language does: Arabic's six (0, 1, 2, 3–10, 11–99, 100…), English's two."""

from __future__ import annotations

import re

import pytest

from bots.i18n import translator
from bots.i18n.words import basras_count, cards_count, points_count

AR_COUNTS = {0: 0, 1: 1, 2: 2, 3: 3, 7: 3, 10: 3, 11: 4, 57: 4, 99: 4, 100: 5, 102: 2, 103: 3}


def plural_entries(lang: str) -> list[tuple[str, str]]:
    from babel.messages.pofile import read_po

    from bots.i18n.catalog import po_path

    with po_path(lang).open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    return [(m.id[0], m.id[1]) for m in catalog if isinstance(m.id, tuple)]


def test_every_plural_entry_has_its_forms_and_the_few_and_the_many_differ() -> None:
    entries = plural_entries("ar")
    assert entries, "no counted nouns in the catalog"
    t = translator("ar")
    for singular, plural in entries:
        forms = [t.translations.ngettext(singular, plural, n) for n in (0, 1, 2, 3, 11, 100)]
        assert all(form.strip() for form in forms), (singular, forms)
        # 3–10 take the plural, 11–99 the singular: the two templates differ.
        assert forms[3] != forms[4], (singular, forms)


@pytest.mark.parametrize("count", [cards_count, points_count, basras_count])
def test_arabic_counts_agree_with_their_numbers(count: object) -> None:
    t = translator("ar")
    shown = {n: count(t, n) for n in AR_COUNTS}  # type: ignore[operator]
    # One and two are said in words, never "1 نقطة" or "2 نقطة".
    assert not re.search(r"(?<![0-9])[12] ", shown[1] + shown[2]), shown
    assert shown[3].replace("3", "7") == shown[7]  # the same form for 3–10
    assert shown[11].replace("11", "57") == shown[57]  # and for 11–99
    assert shown[3].replace("3", "") != shown[11].replace("11", ""), shown


@pytest.mark.parametrize("count", [cards_count, points_count, basras_count])
def test_english_counts_agree_with_their_numbers(count: object) -> None:
    t = translator("en")
    one, two = count(t, 1), count(t, 2)  # type: ignore[operator]
    assert one.startswith("1 ") and not one.endswith("s") and two.endswith("s")
