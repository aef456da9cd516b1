"""What a practice player reads: the hint once and true, counts in Arabic's plural forms,
one register of Arabic, and 2-v-2 score lines short enough for a phone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bots.service import ServiceConfig
from core import Card, Match
from core.ai.explain import sweepers_of
from storage import SqliteStore
from tests.fakes import FakeTelegram
from tests.telegram.world import World

LONE = ("take_lone", "take_lone_plain")
ARABIC = ServiceConfig(computer_delay=0.0, warning_seconds=0, heartbeat_seconds=3600.0, language="ar")
#: Egyptian colloquial words that have no place in the interface's Modern Standard Arabic.
COLLOQUIAL = re.compile(r"(?<![\u0600-\u06FF])(لما|ييجي|عشان|علشان|لازم|دلوقتي|مش|بتاع|كده|تحت|بس|اللي)"
                        r"(?![\u0600-\u06FF])")


async def truth(database: Path, table_id: str) -> Match:
    async with SqliteStore(database) as store:
        events = [e.data for e in await store.load_events(table_id)]
    return Match.from_events([e for e in events if e["kind"] not in {"resigned", "expired", "auto_played"}])


@pytest.mark.parametrize("seed", [3, 7, 11])
async def test_a_hint_warns_of_a_lone_card_only_when_a_card_still_out_could_take_it(
    server: FakeTelegram, database: Path, seed: int
) -> None:
    amal = server.add_user("Amal")
    chat = server.private_chat(amal)
    me = f"tg:{amal.id}"
    async with World(server, database, seed=seed) as world:
        await world.basra.service.set_rules(me, target=1)  # one round
        await world.send(amal, None, "/practice")
        while (table := await world.table(chat)) is not None and table.running:
            update = await world.press_verb(amal, world.hand_message(amal), "hint")
            answer = server.callback_answer(update)
            assert answer is not None and not answer.show_alert and not answer.text  # read once
            shown = world.hand_message(amal).text.splitlines()[0]
            hint = await world.basra.service.hint(table.table_id, me)
            if hint.reason in LONE:
                view = (await truth(database, table.table_id)).view(hint.hand.seat)
                floor = [c for c in view.floor if c.code not in {*(hint.hand.preview.choice.taken
                                                                   if hint.hand.preview and
                                                                   hint.hand.preview.choice else ())}]
                left = Card.parse(floor[0].code) if len(floor) == 1 else None
                assert left is not None
                takers = sweepers_of((left,), view.unknown(), view)
                assert ("alone" in shown) == bool(takers), (shown, [c.code for c in takers])
            else:
                assert "alone" not in shown
            await world.press_verb(amal, world.hand_message(amal), "play")


async def test_arabic_practice_reads_in_one_register_and_counts_in_plural_forms(
    server: FakeTelegram, database: Path
) -> None:
    amal = server.add_user("Amal", language_code="ar")
    chat = server.private_chat(amal)
    async with World(server, database, config=ARABIC) as world:
        await world.send(amal, None, "/practice")
        for _ in range(3):
            await world.play_any(amal)
        texts = [v.text for m in server.messages(chat, bot_only=True) for v in m.versions]
        assert not [t for t in texts if COLLOQUIAL.search(t)]
        assert any("رسالة ورقك في الأسفل تعرض الأرض وتتابع اللعب." in t for t in texts)  # the round's message
        counts = re.findall(r"(\d+) (ورقات|أوراق|ورقة)", "\n".join(texts))
        assert counts, "no card counts shown"
        for n, noun in counts:
            assert noun == ("أوراق" if 3 <= int(n) % 100 <= 10 else "ورقة"), (n, noun)


def nested(text: str) -> list[str]:
    """Lines with brackets inside brackets."""
    out = []
    for line in text.splitlines():
        depth = 0
        for ch in line:
            depth += ch == "("
            if depth > 1:
                out.append(line)
                break
            depth -= ch == ")"
    return out


@pytest.mark.parametrize(("lang", "header"), [("en", r"^Team A ⁦\d+⁩–⁦\d+⁩ Team B \(to 1\)$"),
                                              ("ar", r"^الفريق أ ⁦\d+⁩–⁦\d+⁩ الفريق ب \(حتى 1\)$")])
async def test_a_2v2_practice_s_score_line_is_short_and_brackets_never_nest(
    server: FakeTelegram, database: Path, lang: str, header: str
) -> None:
    amal = server.add_user("Amal", language_code=lang)
    chat = server.private_chat(amal)
    async with World(server, database) as world:
        await world.basra.service.set_rules(f"tg:{amal.id}", target=1)
        await world.send(amal, None, "/practice 4")
        while (table := await world.table(chat)) is not None and table.running:
            await world.play_any(amal)
        texts = [v.text for m in server.messages(chat, bot_only=True) for v in m.versions]
        assert any(re.search(header, text, re.MULTILINE) for text in texts), texts[-1]
        assert not [line for text in texts for line in nested(text)]
