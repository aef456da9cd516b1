"""Practice in a private chat reads like the groups: each round's end is told where the
player is looking, and the commands answer under themselves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.fakes import FakeTelegram
from tests.telegram.world import World

ARABIC = re.compile(r"[\u0600-\u06FF]")


@pytest.mark.parametrize(("lang", "over", "score", "played"), [
    ("en", "Round 1 is over", "Score: ", " played "),
    ("ar", "انتهت الجولة 1", "النتيجة: ", "ورقة "),
])
async def test_a_practice_round_s_end_comes_above_the_next_round_s_hand(
    server: FakeTelegram, database: Path, lang: str, over: str, score: str, played: str
) -> None:
    amal = server.add_user("Amal", language_code=lang)
    chat = server.private_chat(amal)
    async with World(server, database) as world:
        await world.send(amal, None, "/practice")
        while (table := await world.table(chat)) is not None and table.round_no == 1:
            await world.play_any(amal)
        assert table is not None and table.round_no == 2
        # The message the new round's turn follows tells how round 1 ended: its last play,
        # who took what was left, and each side's points.
        shown = server.messages(chat, bot_only=True)
        closing = next(m for m in reversed(shown) if over in m.text)
        assert shown.index(closing) >= len(shown) - 2, "the round's end is out of sight"
        before = closing.text.partition(over)[0]
        assert played in before and score in closing.text
        assert world.hand_message(amal).message_id > closing.message_id
        assert bool(ARABIC.search(closing.text)) == (lang == "ar")


@pytest.mark.parametrize(("lang", "resigned", "won"), [
    ("en", "You resigned.", "won"),
    ("ar", "انسحبت.", "الفائز"),
])
async def test_resign_in_practice_is_answered_under_the_command(
    server: FakeTelegram, database: Path, lang: str, resigned: str, won: str
) -> None:
    amal = server.add_user("Amal", language_code=lang)
    chat = server.private_chat(amal)
    async with World(server, database) as world:
        await world.send(amal, None, "/practice")
        command = (await world.send(amal, None, "/resign")).effective_message
        assert command is not None
        answer = server.last_message(chat)
        assert answer.from_bot and answer.reply_to is not None
        assert answer.reply_to.message_id == command.message_id
        assert answer.text.startswith(resigned) and won in answer.text
        assert (await world.finished(chat)).status == "finished"


@pytest.mark.parametrize(("lang", "over"), [("en", "The match is over"), ("ar", "انتهت المباراة")])
async def test_a_practice_match_s_end_comes_below_the_last_hand_with_its_rematch(
    server: FakeTelegram, database: Path, lang: str, over: str
) -> None:
    amal = server.add_user("Amal", language_code=lang)
    chat = server.private_chat(amal)
    async with World(server, database) as world:
        await world.basra.service.set_rules(f"tg:{amal.id}", target=10)
        await world.send(amal, None, "/practice")
        while await world.table(chat) is not None:
            await world.play_any(amal)
        assert (await world.finished(chat)).status == "finished"
        shown = server.messages(chat, bot_only=True)
        last = shown[-1]
        assert over in last.text and world.buttons(last, "rematch")
        assert all(m.message_id < last.message_id for m in world.hand_messages(amal))
        assert not any(world.buttons(m, "rematch") for m in shown[:-1])  # the one result with buttons
