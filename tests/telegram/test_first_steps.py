"""What a person reads first: joining before ever starting the bot, a lobby press's answer,
``/score`` during a match."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes import FakeTelegram
from tests.telegram.world import World, labels_in, start_match

SEATED = {"en": "You are at the table", "ar": "أنت الآن على الطاولة"}
NO_GAME = {"en": "You have no game", "ar": "ليس لك لعب"}


@pytest.mark.parametrize(("lang", "by_link"), [("en", True), ("ar", True), ("en", False)])
async def test_a_newcomer_who_joins_reads_that_he_is_seated_when_he_starts_the_bot(
    server: FakeTelegram, database: Path, lang: str, by_link: bool
) -> None:
    alice = server.add_user("Alice")
    badr = server.add_user("Badr", language_code=lang)
    server.private_chat(alice)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database) as world:
        await world.send(alice, group, "/newgame")
        lobby = server.last_message(group)
        update = await world.press_verb(badr, lobby, "join")
        answer = server.callback_answer(update)
        assert answer is not None and answer.url
        note = server.last_message(group)
        assert any(b.url for row in note.buttons for b in row)
        # Badr follows the link (or finds the bot by its name) and presses Start: the first
        # thing he reads is his seat.
        payload = answer.url.partition("?start=")[2]
        await world.send(badr, None, f"/start {payload}" if by_link else "/start")
        said = [m.text for m in server.messages(server.private_chat(badr), bot_only=True)]
        assert said and said[0].startswith(SEATED[lang]), said
        assert not any(NO_GAME[lang] in text for text in said)
        assert note.deleted  # the group's nudge has done its job
        # When the match starts, his hand comes to the chat he opened.
        await world.press_verb(alice, lobby, "start")
        table = await world.table(group)
        assert table is not None and table.running
        assert labels_in(world.latest_private(badr).text), "his cards came to his chat"


TOASTS = {
    "en": ["You are in Team B.", "You are in Team A.", "Computer (strong) joined Team B.",
           "You left the table.", "You cancelled this table."],
    "ar": ["أنت في الفريق ب.", "أنت في الفريق أ.", "الكمبيوتر (قوي) انضم إلى الفريق ب.",
           "غادرت الطاولة.", "ألغيت هذه الطاولة."],
}


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_every_lobby_press_is_answered_with_what_it_did(
    server: FakeTelegram, database: Path, lang: str
) -> None:
    alice = server.add_user("Alice", language_code=lang)
    badr = server.add_user("Badr", language_code=lang)
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database) as world:
        await world.send(alice, group, "/newgame 2v2")
        lobby = server.last_message(group)
        presses = [
            (badr, world.buttons(lobby, "join")[0]),
            (badr, world.buttons(lobby, "team")[0]),
            (alice, next(d for d in world.buttons(lobby, "computer") if d.endswith("strong"))),
            (badr, world.buttons(lobby, "leave")[0]),
            (alice, world.buttons(lobby, "cancel")[0]),
        ]
        said = []
        for user, data in presses:
            answer = server.callback_answer(await world.forge(user, lobby, data))
            assert answer is not None and not answer.show_alert
            said.append(answer.text)
        assert said == TOASTS[lang]


async def test_joining_and_starting_a_1v1_are_answered_with_the_seat_and_the_start(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database) as world:
        await world.send(alice, group, "/newgame")
        lobby = server.last_message(group)
        joined = server.callback_answer(await world.press_verb(badr, lobby, "join"))
        assert joined is not None and joined.text == "You are in: seat 2 of 2."
        started = server.callback_answer(await world.press_verb(alice, lobby, "start"))
        assert started is not None and started.text == "The match is starting: the table comes in a moment."


@pytest.mark.parametrize(("lang", "to", "deals"), [("en", "(to 121)", "deals left"), ("ar", "121", "توزيع")])
async def test_score_during_a_match_answers_with_the_score_under_the_live_table(
    server: FakeTelegram, database: Path, lang: str, to: str, deals: str
) -> None:
    alice, badr = server.add_user("Alice", language_code=lang), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database) as world:
        await world.basra.service.set_chat_language(f"tg:{group.id}", lang)
        await start_match(world, group, alice, badr)
        table_message = next(m for m in reversed(server.messages(group, bot_only=True))
                             if world.buttons(m, "hand"))
        await world.send(badr, group, "/score")
        answer = server.last_message(group)
        # A few lines, no buttons to freeze, and a reply to the table that stays live.
        assert not answer.button_data() and answer.reply_to is table_message
        assert to in answer.text and deals in answer.text and len(answer.text.splitlines()) <= 3
        assert not labels_in(answer.text)
