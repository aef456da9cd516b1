"""Arabic as a right-to-left client shows it: every text and button the renderer produces for
whole matches (tables, hands, previews, hints, round and match results), lobbies, help, rules,
settings, records and refusals goes through the Unicode bidirectional algorithm (python-bidi,
right-to-left base). Card labels must read rank then suit, each score must sit beside its own
side's name, and every counted noun must agree with its number, in Arabic and in English."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from bidi import get_display

from bots.i18n import translator
from bots.i18n.bidi import FSI, LRI, PDI
from bots.render import (
    render_error,
    render_hand,
    render_help,
    render_hint,
    render_leaderboard,
    render_lobby,
    render_notice,
    render_rules,
    render_settings,
    render_stats,
)
from bots.render.common import scores_line
from bots.render.rendered import Rendered
from bots.service import (
    HandUpdated,
    ManualClock,
    Person,
    ServiceConfig,
    ServiceError,
    TableService,
)
from bots.service.views import SeatInfo
from storage import SqliteStore
from tests.service.helpers import FakePlatform

CONTROLS = re.compile(f"[{LRI}{FSI}{PDI}\u2067\u200e\u200f]")
SUIT_FIRST = re.compile(r"[♣♦♥♠](?:10|[2-9AJQK])(?![0-9])")
#: Arabic counted nouns: after 3–10 the plural, never the singular; 1 and 2 are words.
NOUNS = "نقطة|نقاط|ورقة|أوراق|ورقات|باصرة|باصرات|جولة|جولات|دقيقة|دقائق|ثانية|ثوانٍ"
AR_SINGULAR_AFTER_FEW = re.compile(r"(?<![0-9])(?:[3-9]|10) (?:نقطة|ورقة|باصرة|جولة|دقيقة|ثانية)(?!\w)")
AR_DIGIT_ONE_OR_TWO = re.compile(rf"(?<![0-9+])[12] (?:{NOUNS})(?!\w)")
EN_BAD_PLURAL = re.compile(
    r"(?<![0-9.])(?:1 (?:points|cards|basras|rounds|wins|minutes|seconds|deals)"
    r"|(?:[02-9]|[1-9][0-9]+) (?:point|card|basra|round|win|minute|second|deal)(?![a-z]))\b"
)


def _all_subclasses(cls: type[ServiceError]) -> list[type[ServiceError]]:
    return [cls, *(s for sub in cls.__subclasses__() for s in _all_subclasses(sub))]


ERROR_CLASSES = sorted(set(_all_subclasses(ServiceError)), key=lambda c: c.__name__)


def texts_of(rendered: Rendered) -> Iterator[str]:
    yield from rendered.text.plain().splitlines()
    yield from (button.label for row in rendered.buttons for button in row)


def shown_rtl(line: str) -> str:
    """The line as a right-to-left client lays it out, left to right, controls dropped."""
    return CONTROLS.sub("", get_display(line, base_dir="R"))


async def everything_rendered(db_path: Path) -> list[tuple[str, Rendered]]:
    """(language, rendering) for whole matches and every other message, in both languages."""
    clock = ManualClock()
    platform = FakePlatform()
    config = ServiceConfig(computer_delay=0, heartbeat_seconds=3600, warning_seconds=0)
    found: list[tuple[str, Rendered]] = []
    async with (
        SqliteStore(db_path) as store,
        TableService(store, [platform], clock=clock, config=config, rng=random.Random(3)) as service,
    ):
        sara, omar = Person("tg:1", "سارة", "ar"), Person("tg:2", "Omar", "en")
        lobby = await service.new_lobby("tg:-1", sara, "2v2")
        await service.add_computer(lobby.table_id, sara, "expert", team=1)
        await service.set_rules("tg:-1", target=31)
        practice = await service.practice("tg:-2", omar, players=4, level="beginner")
        people = await service.new_lobby("tg:-3", sara)
        await service.join(people.table_id, omar)
        match = await service.start_match(people.table_id, sara)
        for table_id in (practice.table_id, match.table_id):
            for _ in range(3000):
                await clock.run_due()
                table = await service.table(table_id)
                if not table.running:
                    break
                seat = table.seats[table.to_move or 0]
                if seat.player_id is None:
                    continue
                hand = await service.hand(table_id, seat.player_id)
                for card in hand.hand:  # every preview of the hand, in both languages
                    seen = await service.preview(table_id, seat.player_id, card)
                    found += [(lang, render_hand(seen, translator(lang))) for lang in ("ar", "en")]
                if table.practice:
                    hint = await service.hint(table_id, seat.player_id)
                    found += [(lang, render_hint(hint, translator(lang))) for lang in ("ar", "en")]
                await service.play(table_id, seat.player_id, hand.version, hand.hand[-1])
        for notice in platform.notices:
            for lang in ("ar", "en"):
                found.append((lang, render_notice(dataclasses.replace(notice, lang=lang), now=clock.now())))
        for lang in ("ar", "en"):
            t = translator(lang)
            found.append((lang, render_lobby(await service.lobby(lobby.table_id), t)))
            found.append((lang, render_help(t, {"new": "/newgame", "hand": "/hand"})))
            found.append((lang, render_rules(t, (await service.settings("tg:-1")).rules)))
            found.append((lang, render_settings(await service.settings("tg:-1"), t)))
            for who in (sara, omar):
                found.append((lang, render_stats(await service.stats(who.player_id), t)))
            found.append((lang, render_leaderboard(await service.leaderboard(), t)))
            fields = {"card": "7C", "name": "Omar", "plan": 3, "seconds": 12}
            found += [(lang, render_error(cls(**fields), t, command="/newgame")) for cls in ERROR_CLASSES]
    assert any(isinstance(n, HandUpdated) for n in platform.notices)
    return found


@pytest.fixture(scope="module")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[str, Rendered]]:
    import asyncio

    return asyncio.run(everything_rendered(tmp_path_factory.mktemp("bidi") / "basra.sqlite3"))


def test_the_sweep_covers_every_kind_of_message(rendered: list[tuple[str, Rendered]]) -> None:
    arabic = "\n".join(line for lang, r in rendered if lang == "ar" for line in texts_of(r))
    for needle in ("باصرة", "الأرض", "انتهت المباراة", "اختر", "النتيجة"):
        assert needle in arabic, needle
    assert len(rendered) > 500


def test_card_labels_read_rank_then_suit_in_right_to_left_text(rendered: list[tuple[str, Rendered]]) -> None:
    bad = [
        (line, shown_rtl(line))
        for lang, r in rendered
        if lang == "ar"
        for line in texts_of(r)
        if SUIT_FIRST.search(shown_rtl(line))
    ]
    assert not bad, bad[:5]


def test_counted_nouns_agree_with_their_numbers(rendered: list[tuple[str, Rendered]]) -> None:
    lines = {(lang, line) for lang, r in rendered for line in texts_of(r)}
    arabic = [CONTROLS.sub("", line) for lang, line in lines if lang == "ar"]
    english = [CONTROLS.sub("", line) for lang, line in lines if lang == "en"]
    assert not [x for x in arabic if AR_SINGULAR_AFTER_FEW.search(x) or AR_DIGIT_ONE_OR_TWO.search(x)]
    assert not [x for x in english if EN_BAD_PLURAL.search(x)]


NAMES = [("سارة", "Omar"), ("Omar", "سارة"), ("Amr", "Badr"), ("منى", "علي")]


@pytest.mark.parametrize("first,second", NAMES)
def test_each_score_sits_beside_its_own_name(first: str, second: str) -> None:
    seats = (SeatInfo(0, first, "tg:1", None, 0, 4), SeatInfo(1, second, "tg:2", None, 1, 4))
    for lang, base in (("ar", "R"), ("en", "L")):
        text = scores_line(translator(lang), seats, (36, 71), 121)
        line = CONTROLS.sub("", get_display(text, base_dir=base))
        # A name is laid out as its own script reads (an Arabic one, right to left).
        first, second = (CONTROLS.sub("", get_display(s.name or "", base_dir="R")) for s in seats)
        left, right = (second, first) if base == "R" else (first, second)
        # Laid out left to right: the left name, its score, the other score, the right name.
        between = line[line.index(left) + len(left) : line.index(right)]
        scores = re.findall(r"[0-9]+", between)
        expected = ["71", "36"] if left == second else ["36", "71"]
        assert scores == expected, (lang, line)
