"""The other commands answer in the chat's language and never fail: rules, score, top, settings,
resign, help."""

from __future__ import annotations

from pathlib import Path

from bots.service import ServiceConfig
from tests.fakes import FakeTelegram
from tests.telegram.world import World, start_match

ARABIC = ServiceConfig(computer_delay=0.0, warning_seconds=0, heartbeat_seconds=3600.0, language="ar")


def arabic(text: str) -> bool:
    return any("\u0600" <= ch <= "\u06ff" for ch in text)


async def test_every_command_answers_in_a_group_and_in_private(server: FakeTelegram, database: Path) -> None:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database) as world:
        for chat in (group, None):
            for command in ("/help", "/rules", "/score", "/top", "/settings", "/hand", "/resign"):
                before = len(server.texts(server.private_chat(alice) if chat is None else group))
                await world.send(alice, chat, command)
                after = len(server.texts(server.private_chat(alice) if chat is None else group))
                assert after > before, f"{command} got no answer"
        assert not server.unanswered_callback_queries()


async def test_settings_buttons_change_the_chat_and_the_next_lobby(
    server: FakeTelegram, database: Path
) -> None:
    alice = server.add_user("Alice")
    server.private_chat(alice)
    group = server.add_group("Cafe", [alice])
    async with World(server, database) as world:
        await world.send(alice, group, "/settings")
        message = server.last_message(group)
        await world.press_verb(alice, message, "variant")  # the first variant: match to 100
        settings = await world.basra.service.settings(f"tg:{group.id}")
        assert settings.rules.target == 100
        await world.press_verb(alice, message, "clock", 0)
        await world.press_verb(alice, message, "lang")
        assert (await world.basra.service.settings(f"tg:{group.id}")).language in ("ar", "en")
        await world.send(alice, group, "/newgame")
        lobby = await world.basra.service.open_table(f"tg:{group.id}")
        assert lobby is not None and lobby.rules.target == 100


async def test_only_the_groups_admins_change_its_settings(server: FakeTelegram, database: Path) -> None:
    alice, badr, carla = server.add_user("Alice"), server.add_user("Badr"), server.add_user("Carla")
    group = server.add_group("Cafe", [alice, badr])  # Alice owns it, Badr is a member
    server.join(carla, group, "administrator")
    async with World(server, database) as world:
        await world.send(badr, group, "/settings")
        message = server.last_message(group)
        before = await world.basra.service.settings(f"tg:{group.id}")
        shown = message.text
        update = await world.press_verb(badr, message, "variant")
        answer = server.callback_answer(update)
        assert answer is not None and answer.show_alert
        assert answer.text == "Only the group's admins can change its settings."
        assert await world.basra.service.settings(f"tg:{group.id}") == before
        assert server.last_message(group).text == shown
        await world.press_verb(carla, message, "variant")
        assert (await world.basra.service.settings(f"tg:{group.id}")).rules.target == 100
        await world.press_verb(alice, message, "variant")
        assert (await world.basra.service.settings(f"tg:{group.id}")).rules.target == 121


async def test_in_private_settings_are_the_persons_own(server: FakeTelegram, database: Path) -> None:
    alice = server.add_user("Alice")
    chat = server.private_chat(alice)
    async with World(server, database) as world:
        await world.send(alice, None, "/settings")
        await world.press_verb(alice, server.last_message(chat), "variant")
        assert (await world.basra.service.settings(f"tg:{chat.id}")).rules.target == 100
    assert not server.calls("getChatMember")


async def test_an_arabic_chat_is_answered_in_arabic(server: FakeTelegram, database: Path) -> None:
    alice = server.add_user("Alice", language_code="ar")
    badr = server.add_user("Badr", language_code=None)
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database, config=ARABIC) as world:
        await world.send(alice, group, "/newgame")
        lobby = server.last_message(group)
        assert arabic(lobby.text) and any(arabic(label) for label in lobby.button_texts())
        await world.press_verb(badr, lobby, "join")
        await world.press_verb(alice, lobby, "start")
        assert arabic(world.latest_private(alice).text)


async def test_a_hand_link_for_someone_not_seated_gets_an_answer(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr, eve = server.add_user("Alice"), server.add_user("Badr"), server.add_user("Eve")
    for user in (alice, badr, eve):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr, eve])
    async with World(server, database) as world:
        table = await start_match(world, group, alice, badr)
        await world.send(eve, None, f"/start h{table.table_id}")
        await world.basra.dispatcher.idle()
        assert server.last_message(server.private_chat(eve)).text.startswith(
            "You have no game running at that table. Send /newgame in a group")
        # A seated player following the same link gets their hand, not that answer.
        await world.send(alice, None, f"/start h{table.table_id}")
        await world.basra.dispatcher.idle()
        assert "no game running" not in server.last_message(server.private_chat(alice)).text


async def test_a_command_from_an_anonymous_admin_says_how_to_play(
    server: FakeTelegram, database: Path
) -> None:
    alice = server.add_user("Alice")
    group = server.add_group("Cafe", [alice])
    arabic_group = server.add_group("قهوة", [alice])
    async with World(server, database) as world:
        await world.basra.service.set_chat_language(f"tg:{arabic_group.id}", "ar")
        for chat in (group, arabic_group):
            for command in ("/newgame", "/practice", "/hand"):
                sent = len(server.messages(chat))
                await world.deliver(server.admin_sends_anonymously(alice, chat, command))
                await world.basra.dispatcher.idle()
                replies = [m for m in server.messages(chat)[sent:] if m.sender is server.bot_user]
                assert len(replies) == 1, (command, [r.text for r in replies])
                if chat is group:
                    assert "Remain anonymous" in replies[0].text
                else:
                    assert arabic(replies[0].text) and "Remain anonymous" not in replies[0].text
        # Nothing was opened with the group (or its anonymous account) as a player.
        assert await world.table(group) is None and await world.table(arabic_group) is None


async def test_help_lists_the_commands_of_each_kind_of_chat(server: FakeTelegram, database: Path) -> None:
    alice = server.add_user("Alice", language_code="ar")
    server.private_chat(alice)
    group = server.add_group("Cafe", [alice])
    async with World(server, database) as world:
        await world.send(alice, group, "/help")
        in_group = server.last_message(group).text
        await world.send(alice, None, "/help")
        in_private = server.last_message(server.private_chat(alice)).text
    assert "/newgame — " in in_group and "/practice" not in in_group
    assert "/practice — " in in_private and "/newgame" not in in_private
    for text in (in_group, in_private):
        assert arabic(text) and "/hand — " in text and "/rules — " in text and "/start" not in text


async def test_no_game_replies_say_what_to_do_and_never_show_an_id(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database) as world:
        await world.send(alice, group, "/hand")
        assert server.last_message(group).text == "There is no game in this chat. Start one with /newgame."
        await world.send(alice, group, "/score")
        record = server.last_message(group).text
        assert record.startswith("Record of \u2068Alice\u2069") and str(alice.id) not in record
        await world.send(alice, None, "/resign")
        assert "/newgame" in server.last_message(server.private_chat(alice)).text
        await start_match(world, group, alice, badr)
        await world.send(alice, None, "/resign")
        assert server.last_message(server.private_chat(alice)).text == (
            "Your match is in a group: send /resign there to resign it."
        )
        table = await world.table(group)
        assert table is not None and table.running  # nothing was resigned from private
