"""A finished match's record on Telegram: a Record button on the result sends the file under
it, once; /record sends the chat's last finished match; nothing before a match has ended."""

from __future__ import annotations

import json
import re
from pathlib import Path

from bots.render import Action
from core import Match
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.telegram.world import World, ids, start_match

FILE_NAME = re.compile(r"^basra-\d{4}-\d\d-\d\d-[0-9a-f]{6}\.json$")


def documents(server: FakeTelegram, chat: FakeChat) -> list[FakeMessage]:
    return [m for m in server.messages(chat, bot_only=True) if m.document is not None]


def replayed_scores(message: FakeMessage) -> tuple[int, int]:
    assert message.document is not None
    record = json.loads(message.document.data)
    assert record["format"] == "basra-record/1"
    scores: tuple[int, int] = Match.from_record(record).scores
    return scores


async def finished_match(world: World, group: FakeChat, alice: FakeUser, badr: FakeUser) -> FakeMessage:
    """A short 1-v-1 played to its end in the group; its result message."""
    await world.basra.service.set_rules(f"tg:{group.id}", target=20)
    await start_match(world, group, alice, badr)
    result = world.server.last_message(group)
    # While the match is played, its table offers no record.
    assert "📄 Record" not in result.button_texts()
    await world.play_out(group, ids(alice, badr))
    result = world.server.last_message(group)
    assert "The match is over" in result.text
    return result


async def test_the_record_button_sends_the_file_under_the_result_once(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database) as world:
        result = await finished_match(world, group, alice, badr)
        assert result.button_texts() == ["🔁 Rematch", "📄 Record"]
        final = await world.finished(group)
        await world.press(badr, result, "📄 Record")
        sent = documents(server, group)
        assert len(sent) == 1 and sent[0].reply_to is result
        assert sent[0].document is not None and FILE_NAME.match(sent[0].document.file_name)
        assert sent[0].document.file_name.endswith(f"-{final.table_id[:6]}.json")
        assert sent[0].text.startswith("The record of the match of ")
        assert replayed_scores(sent[0]) == final.scores
        # The file is in the chat, under its result: the button has done its work (Rematch stays).
        assert result.button_texts() == ["🔁 Rematch"] and "The match is over" in result.text
        assert not server.unanswered_callback_queries()
        # /record sends the same match again, under the command.
        command = await world.send(alice, group, "/record")
        again = documents(server, group)
        assert len(again) == 2 and again[1].reply_to is not None
        assert command.message is not None and again[1].reply_to.message_id == command.message.message_id
        assert again[1].document is not None and again[1].document.data == sent[0].document.data


async def test_record_with_no_finished_match_says_how_to_start_one(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database) as world:
        await world.send(alice, group, "/record")
        assert server.last_message(group).text == (
            "No match has finished in this chat yet, so there is no record to send. "
            "Start one with /newgame."
        )
        await world.send(alice, None, "/record")
        assert server.last_message(server.private_chat(alice)).text.endswith("Start one with /practice.")
        # A match being played is no finished match: its record is not sent either.
        table = await start_match(world, group, alice, badr)
        await world.send(badr, group, "/record")
        assert server.last_message(group).text.startswith("No match has finished in this chat yet")
        # Nor for a forged Record press on its table.
        press = Action("record", table.table_id).encode()
        forged = await world.forge(badr, server.last_message(group), press)
        answer = server.callback_answer(forged)
        assert answer is not None and answer.show_alert
        assert answer.text == "This match is still being played: its record comes when it ends."
        assert documents(server, group) == [] and server.calls("sendDocument") == []


async def test_a_practice_match_s_record_comes_in_private_in_the_player_s_language(
    server: FakeTelegram, database: Path
) -> None:
    amal = server.add_user("Amal", language_code="ar")
    private = server.private_chat(amal)
    async with World(server, database) as world:
        await world.basra.service.set_rules(f"tg:{amal.id}", target=10)
        await world.send(amal, None, "/practice")
        while (table := await world.table(private)) is not None and table.running:
            await world.play_any(amal)
        shown = reversed(server.messages(private, bot_only=True))
        result = next(m for m in shown if world.buttons(m, "record"))
        await world.press(amal, result, world.buttons(result, "record")[0])
        sent = documents(server, private)
        assert len(sent) == 1 and sent[0].document is not None
        final = await world.finished(private)
        assert replayed_scores(sent[0]) == final.scores
        assert re.search(r"[\u0600-\u06FF]", sent[0].text), sent[0].text
