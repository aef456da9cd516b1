"""Practice in a private chat reads like the groups: each round's end is told where the
player is looking, and the commands answer under themselves. A play there costs about one
write: the hand shows the floor and takes the computer's answer in the same edit, and the
round's message above it shows no floor and is not edited while the round is played."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from bots.i18n import card_face, card_label, translator
from bots.render.common import floor_text
from bots.service import ManualClock, TableView
from tests.fakes import ApiCall, FakeChat, FakeTelegram, FakeUser
from tests.telegram.live import WRITES, never_older
from tests.telegram.world import QUIET, World, told_preview

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


async def confirm_first_card(world: World, user: FakeUser) -> str:
    """Press the first card of the user's hand, then confirm it (the same card again, or Play
    when the card offers a choice); returns the card played. Writes made by the preview are
    made before this returns the confirm's turn: the caller counts from the confirm on."""
    hand = world.hand_message(user)
    card = world.buttons(hand, "card")[0]
    pressed = await world.press(user, hand, card)
    if not told_preview(world.server, pressed):
        card = world.buttons(hand, "play")[0]
    return card


def writes_to(server: FakeTelegram, chat: FakeChat) -> list[ApiCall]:
    return [c for c in server.api_calls if c.method in WRITES and c.params.get("chat_id") == chat.id]


@pytest.mark.parametrize(("lang", "round_one"), [("en", "Basra · round 1"), ("ar", "باصرة · الجولة 1")])
async def test_a_practice_play_and_the_computers_answer_cost_one_edit_of_the_hand(
    server: FakeTelegram, database: Path, lang: str, round_one: str
) -> None:
    amal = server.add_user("Amal", language_code=lang)
    chat = server.private_chat(amal)
    t = translator(lang)
    floor_line = t.gettext("Floor: {cards}", cards="")
    async with World(server, database) as world:
        await world.send(amal, None, "/practice")
        [opening] = [m for m in server.messages(chat, bot_only=True) if m.text.startswith(round_one)]
        # The computers' worker processes start with their first decision, which may take
        # longer than a play waits for it: one play before counting.
        await world.play_any(amal)
        for _ in range(8):  # mid-round: a round holds 24 plays of each
            hand = world.hand_message(amal)
            played = (await world.table(chat), hand.message_id)
            data = await confirm_first_card(world, amal)
            before = len(writes_to(server, chat))
            confirmed = await world.press(amal, hand, data)  # the computer answers meanwhile
            # The confirm's answer says what was played at once, as the hand waits for the
            # computer's answer to be drawn with it.
            answer = server.callback_answer(confirmed)
            assert answer is not None and not answer.show_alert
            assert answer.text == t.gettext("You played {card}.", card=card_label(data.split("|")[4]))
            table = await world.table(chat)
            assert table is not None and played[0] is not None and table.version > played[0].version
            # One write for the play and the computer's answer: the hand, edited in place.
            made = writes_to(server, chat)[before:]
            assert [(c.method, c.params.get("message_id")) for c in made] == [("editMessageText", played[1])]
            shown = world.hand_message(amal)
            assert shown.message_id == played[1]
            assert {int(d.split("|")[3]) for d in world.buttons(shown, "card")} == {table.version}
            # It shows the floor as it is now, the play first, then the computer's.
            lines = shown.text.splitlines()
            assert floor_line + floor_text(t, table.floor) in lines
            assert card_face(data.split("|")[4]) in lines[0]
            assert table.last_play is not None and card_face(table.last_play.card) in shown.text
            assert bool(ARABIC.search(shown.text)) == (lang == "ar")
            # Whose turn it is, said once: on top, where the notification shows it.
            assert [line for line in lines if line.startswith(t.gettext("Your turn"))] == [lines[1]]
        # The round's message says which round it is and who plays, and no floor that the
        # plays would make untrue: it was never edited.
        assert len(opening.versions) == 1 and floor_line not in opening.text
        assert world.buttons(opening, "hand")
        never_older(server.messages(chat, bot_only=True))


async def test_a_practice_play_shows_at_once_when_the_computer_pauses_long(
    server: FakeTelegram, database: Path
) -> None:
    amal = server.add_user("Amal")
    chat = server.private_chat(amal)
    clock = ManualClock()
    async with World(server, database, clock=clock, config=replace(QUIET, computer_delay=20.0)) as world:
        await world.send(amal, None, "/practice")
        if (table := await world.table(chat)) is not None and table.seats[table.to_move or 0].computer:
            await clock.advance(20.0)
            await world.basra.idle()
        hand = world.hand_message(amal)
        data = await confirm_first_card(world, amal)
        before = len(writes_to(server, chat))
        await world.press(amal, hand, data)
        # Too long to wait for: the play shows now, as the hand's short line.
        [line] = writes_to(server, chat)[before:]
        assert line.method == "editMessageText" and line.params.get("message_id") == hand.message_id
        assert "Your cards come back here with your turn." in hand.text and not hand.button_data()
        await clock.advance(20.0)
        await world.basra.idle()
        # The turn comes as a new message, which notifies.
        [turn] = writes_to(server, chat)[before + 1:]
        assert turn.method == "sendMessage"
        assert world.hand_message(amal).message_id > hand.message_id


async def test_a_2v2_practice_play_shows_at_once_and_the_turn_tells_what_the_computers_played(
    server: FakeTelegram, database: Path
) -> None:
    amal = server.add_user("Amal")
    chat = server.private_chat(amal)
    clock = ManualClock()
    me = f"tg:{amal.id}"
    async with World(server, database, clock=clock, config=replace(QUIET, computer_delay=0.8)) as world:
        await world.send(amal, None, "/practice 4")

        async def computers_play() -> TableView:
            while (table := await world.table(chat)) is not None and table.seats[table.to_move or 0].computer:
                await clock.advance(0.8)
                await world.basra.idle()
            assert table is not None and table.seats[table.to_move or 0].player_id == me
            return table

        await computers_play()
        hand = world.hand_message(amal)
        data = await confirm_first_card(world, amal)
        before = len(writes_to(server, chat))
        await world.press(amal, hand, data)
        # Three computers' pauses are too long to hold the play back: it shows at once.
        assert [c.method for c in writes_to(server, chat)[before:]] == ["editMessageText"]
        assert "Your cards come back here with your turn." in hand.text and not hand.button_data()
        table = await computers_play()
        # The turn comes as a new message, which notifies: "Your turn" first, then what the
        # first two computers played (the third's play is the table's last play, below).
        [turn] = writes_to(server, chat)[before + 1:]
        assert turn.method == "sendMessage"
        shown = world.hand_message(amal)
        lines = shown.text.splitlines()
        assert shown.message_id > hand.message_id and lines[0] == "Your turn"
        assert all(" played " in line and "Computer" in line for line in lines[1:3])
        assert lines[3].startswith("Basra · round 1")
        last = table.last_play
        assert last is not None
        assert any(card_face(last.card) in line for line in lines[4:] if " played " in line)


async def test_a_practice_round_s_message_drawn_before_it_had_no_floor_is_drawn_again_once(
    server: FakeTelegram, database: Path
) -> None:
    amal = server.add_user("Amal")
    chat = server.private_chat(amal)
    async with World(server, database) as world:
        await world.send(amal, None, "/practice")
        table = await world.table(chat)
        assert table is not None
        refs = await world.basra.delivery.refs(table.table_id)
        # As a bot before practice rounds' messages had no floor noted it (and drew a table).
        refs.values["table"] = refs.values["table"][:3]
        [opening] = [m for m in server.messages(chat, bot_only=True) if m.text.startswith("Basra · round 1")]
        for _ in range(3):
            await world.play_any(amal)
        assert len(opening.versions) == 2 and "Floor: " not in opening.text
        assert refs.values["table"][3:] == [1]
