"""Counts read correctly in every plural form: six in Arabic, two in English."""

from __future__ import annotations

import pytest

from bots.i18n import translator
from bots.i18n.words import cards_count, deals_left, points_count
from bots.render import render_round_result
from bots.service.views import RoundResultView, SeatInfo, SidePoints

ARABIC_CARDS = {
    0: "لا أوراق",
    1: "ورقة واحدة",
    2: "ورقتان",
    3: "3 أوراق",
    10: "10 أوراق",
    11: "11 ورقة",
    99: "99 ورقة",
    100: "100 ورقة",
    101: "101 ورقة",
    102: "102 ورقة",
    103: "103 أوراق",
    111: "111 ورقة",
}


@pytest.mark.parametrize(("n", "text"), sorted(ARABIC_CARDS.items()))
def test_arabic_cards_take_the_form_arabic_grammar_asks_for(n: int, text: str) -> None:
    assert translator("ar").ngettext("{n} card", "{n} cards", n) == text


@pytest.mark.parametrize(
    ("n", "form"),
    [(0, 0), (1, 1), (2, 2), (3, 3), (10, 3), (11, 4), (99, 4), (100, 5), (101, 5), (102, 5)],
)
def test_arabic_uses_six_plural_forms(n: int, form: int) -> None:
    points = ["{n} نقطة", "نقطة واحدة", "نقطتان", "{n} نقاط", "{n} نقطة", "{n} نقطة"]
    deals = [
        "لم يبقَ أي توزيع",
        "بقي توزيع واحد",
        "بقي توزيعان",
        "بقيت {n} توزيعات",
        "بقي {n} توزيعًا",
        "بقي {n} توزيع",
    ]
    ar = translator("ar")
    assert points_count(ar, n) == points[form].format(n=n)
    assert deals_left(ar, n) == deals[form].format(n=n)


@pytest.mark.parametrize(("n", "text"), [(0, "0 cards"), (1, "1 card"), (2, "2 cards")])
def test_english_uses_two_plural_forms(n: int, text: str) -> None:
    assert cards_count(translator("en"), n) == text


def test_a_plural_template_may_name_other_fields() -> None:
    en = translator("en")
    assert en.ngettext("{n} point", "{n} points", 5, n=7) == "7 points"


@pytest.mark.parametrize(("carried", "said"), [(30, "30 نقطة"), (10, "10 نقاط"), (2, "نقطتان")])
def test_a_carried_majority_is_counted_in_its_plural_form(carried: int, said: str) -> None:
    seats = (SeatInfo(0, "Amal", "tg:1", None, 0, 0), SeatInfo(1, None, None, "strong", 1, 0))
    sides = tuple(SidePoints(team, (team,), 26, 0, 0, 2, 2, 0, 0, 0, 4, 4) for team in (0, 1))
    result = RoundResultView("t", "tg:1", 1, seats, sides, 0, carried, (4, 4), 121, False)  # type: ignore[arg-type]
    assert f"وتُرحَّل {said} إلى الجولة التالية" in render_round_result(result, translator("ar")).plain()
