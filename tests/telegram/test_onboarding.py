"""Every player gets a private chat: deep links, people who never started the bot, practice."""

from __future__ import annotations

from pathlib import Path

from bots.telegram.commands import GROUP_COMMANDS, PRIVATE_COMMANDS
from tests.fakes import FakeTelegram
from tests.telegram.world import HandLedger, World, ids


async def test_the_command_menu_is_registered_in_arabic_and_english(
    server: FakeTelegram, database: Path
) -> None:
    async with World(server, database):
        groups = {"type": "all_group_chats"}
        private = {"type": "all_private_chats"}
        english = dict(server.my_commands(groups))
        arabic = dict(server.my_commands(groups, "ar"))
        assert set(english) == set(arabic) == set(GROUP_COMMANDS)
        assert english["newgame"] != arabic["newgame"]
        assert any("\u0600" <= ch <= "\u06ff" for ch in arabic["newgame"])
        assert set(dict(server.my_commands(private, "ar"))) == set(PRIVATE_COMMANDS)
        assert server.my_commands()  # the default menu


async def test_a_player_who_never_started_the_bot_gets_a_deep_link_and_then_their_hand(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    server.private_chat(alice)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database) as world:
        await world.send(alice, group, "/newgame")
        lobby = server.last_message(group)
        update = await world.press_verb(badr, lobby, "join")
        # The press opens the private chat with the bot through a deep link ...
        answer = server.callback_answer(update)
        assert answer is not None and answer.url and answer.url.startswith("https://t.me/basra_test_bot?start=")
        # ... and the group is told, with an "open my hand" link button.
        note = server.last_message(group)
        links = [b.url for row in note.buttons for b in row if b.url]
        assert links and links[0].startswith("https://t.me/basra_test_bot?start=h")
        await world.press_verb(alice, lobby, "start")
        assert not world.hand_messages(badr)
        # Badr follows the link: the client sends /start <payload> in private.
        payload = links[0].partition("?start=")[2]
        await world.send(badr, None, f"/start {payload}")
        hand = world.hand_message(badr)
        assert world.buttons(hand, "card")
        assert note.deleted  # the note has done its job
        await world.play_out(group, ids(alice, badr))


async def test_joining_through_a_deep_link_seats_the_player(server: FakeTelegram, database: Path) -> None:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    server.private_chat(alice)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database) as world:
        await world.send(alice, group, "/newgame")
        table_id = world.last_table_id(group)
        await world.send(badr, None, f"/start j{table_id}")
        lobby = await world.basra.service.lobby(table_id)
        assert lobby.seat_of(f"tg:{badr.id}") is not None
        assert "Badr" in server.last_message(group).text or any("Badr" in t for t in server.texts(group))


async def test_a_player_who_blocks_the_bot_mid_match_gets_their_hand_back_on_start(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database) as world:
        await world.send(alice, group, "/newgame")
        lobby = server.last_message(group)
        await world.press_verb(badr, lobby, "join")
        server.block_bot(badr)
        await world.press_verb(alice, lobby, "start")
        notes = [m for m in server.messages(group, bot_only=True)
                 if any(b.url for row in m.buttons for b in row)]
        assert notes, "the group is told Badr cannot get his cards"
        old = world.hand_messages(badr)
        await world.send(badr, None, "/start")  # unblocks, as in Telegram
        fresh = world.hand_message(badr)
        assert fresh not in old and len(world.hand_messages(badr)) == 1


async def test_practice_in_private_chat_with_a_hint(server: FakeTelegram, database: Path) -> None:
    alice = server.add_user("Alice")
    server.private_chat(alice)
    async with World(server, database) as world:
        ledger = HandLedger.watch(world)
        chat = server.private_chat(alice)
        await world.basra.service.set_rules(f"tg:{alice.id}", target=15)
        await world.send(alice, None, "/practice")
        table = await world.table(chat)
        assert table is not None and table.practice
        # The computer has moved if it was first: it is Alice's turn, and the table and her
        # hand are both in this one chat.
        seat = table.seat_of(f"tg:{alice.id}")
        assert seat is not None and table.to_move == seat.seat
        assert any(world.buttons(m, "hand") for m in server.messages(chat, bot_only=True))
        hand = world.hand_message(alice)
        update = await world.press_verb(alice, hand, "hint")
        answer = server.callback_answer(update)
        # The hint is read once, in the hand message, not again in an alert to tap away.
        assert answer is not None and not answer.show_alert and not answer.text
        assert world.hand_message(alice).text.startswith("Hint")
        assert world.buttons(world.hand_message(alice), "play")  # the hint is a preview to confirm
        await world.play_out(chat, ids(alice))
        assert (await world.finished(chat)).status == "finished"
    ledger.assert_no_leak(server, None, [alice])


async def test_hand_resends_the_hand_and_keeps_one_live_message(server: FakeTelegram, database: Path) -> None:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database) as world:
        await world.send(alice, group, "/newgame")
        lobby = server.last_message(group)
        await world.press_verb(badr, lobby, "join")
        await world.press_verb(alice, lobby, "start")
        await world.send(alice, group, "/hand")
        first = world.hand_message(alice)
        await world.send(alice, group, "/hand")
        again = world.hand_message(alice)
        # The new hand is the live one; the old one stays, as a line without buttons.
        assert again is not first and not first.deleted and not first.button_data()
        await world.send(alice, None, "/hand")
        assert len(world.hand_messages(alice)) == 1

