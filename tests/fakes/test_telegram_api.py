"""The Telegram fake behaves like the Bot API for a real python-telegram-bot Application.

A tiny bot (deep-link /start, a table with an inline keyboard, a join button,
an invitation to another user) runs on the real library; each test reads like
a sentence about how Telegram treats that bot.
"""

from __future__ import annotations

import pytest
from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.error import (
    BadRequest,
    Forbidden,
)

from . import FakeTelegram, FakeUsageError
from .tiny_bot import JOIN_DATA, AnyApp


async def test_initialize_learns_the_bot_identity_through_get_me(server: FakeTelegram, app: AnyApp) -> None:
    assert app.bot.username == "basra_test_bot"
    assert [call.method for call in server.calls()] == ["getMe"]


async def test_start_with_a_deep_link_payload_reaches_the_command_handler(
    server: FakeTelegram, app: AnyApp
) -> None:
    alice = server.add_user("Alice <3")
    await server.deliver(app, server.user_sends(alice, None, "/start table_42"))
    reply = server.last_message(server.private_chat(alice))
    assert reply.text == "Welcome, Alice <3!\nJoining table table_42."
    assert reply.entities == [{"type": "bold", "offset": 9, "length": 8}]


async def test_a_command_addressed_to_the_bot_by_username_reaches_it_in_a_group(
    server: FakeTelegram, app: AnyApp
) -> None:
    alice = server.add_user("Alice")
    group = server.add_group("Basra night", [alice])
    await server.deliver(app, server.user_sends(alice, group, "/table@basra_test_bot"))
    assert server.last_message(group).button_texts() == ["Join", "Rules"]


async def test_privacy_mode_keeps_chatter_and_other_bots_commands_from_the_bot(
    server: FakeTelegram, app: AnyApp
) -> None:
    alice = server.add_user("Alice")
    group = server.add_group("Basra night", [alice])
    for text in ("7S", "/table@some_other_bot"):
        with pytest.raises(FakeUsageError, match="would not deliver"):
            server.user_sends(alice, group, text)
    await server.deliver(app, server.user_sends(alice, group, "/table"))
    reply = server.user_sends(alice, group, "7S", reply_to=server.last_message(group))
    assert reply.message is not None and reply.message.reply_to_message is not None


async def test_an_admin_bot_sees_other_bots_commands_but_command_handler_ignores_them(
    server: FakeTelegram, app: AnyApp
) -> None:
    alice = server.add_user("Alice")
    group = server.add_group("Basra night", [alice], bot_status="administrator")
    await server.deliver(app, server.user_sends(alice, group, "/table@some_other_bot"))
    assert server.messages(group, bot_only=True) == []


async def test_pressing_a_button_answers_the_query_and_edits_the_message(
    server: FakeTelegram, app: AnyApp
) -> None:
    alice = server.add_user("Alice")
    group = server.add_group("Basra night", [alice])
    await server.deliver(app, server.user_sends(alice, group, "/table"))
    table_message = server.last_message(group)
    assert table_message.button_data() == [JOIN_DATA]
    press = server.user_presses(alice, table_message, "Join")
    await server.deliver(app, press)
    answer = server.callback_answer(press)
    assert answer is not None and answer.text == "You joined table 1" and not answer.show_alert
    assert table_message.text == "Table 1: Alice"
    assert table_message.button_texts() == ["Leave"]
    assert server.texts(group) == ["Table 1: 0/4 players", "Table 1: Alice"]
    assert server.unanswered_callback_queries() == []


async def test_a_button_that_is_no_longer_on_the_message_cannot_be_pressed(
    server: FakeTelegram, app: AnyApp
) -> None:
    alice = server.add_user("Alice")
    await server.deliver(app, server.user_sends(alice, None, "/table"))
    table_message = server.last_message(server.private_chat(alice))
    with pytest.raises(FakeUsageError, match="opens a link"):
        server.user_presses(alice, table_message, "Rules")
    await server.deliver(app, server.user_presses(alice, table_message, JOIN_DATA))
    with pytest.raises(FakeUsageError, match="no button 'Join'"):
        server.user_presses(alice, table_message, "Join")


async def test_only_members_can_see_and_press_a_group_message(server: FakeTelegram, app: AnyApp) -> None:
    alice, bob = server.add_user("Alice"), server.add_user("Bob")
    group = server.add_group("Basra night", [alice])
    await server.deliver(app, server.user_sends(alice, group, "/table"))
    table_message = server.last_message(group)
    assert table_message in server.visible_to(alice)
    assert server.visible_to(bob) == []
    with pytest.raises(FakeUsageError, match="cannot see"):
        server.user_presses(bob, table_message, "Join")


async def test_the_bot_cannot_message_a_user_who_never_started_it(server: FakeTelegram, app: AnyApp) -> None:
    alice, stranger = server.add_user("Alice"), server.add_user("Stranger")
    await server.deliver(app, server.user_sends(alice, None, f"/invite {stranger.id}"))
    assert server.last_message(server.private_chat(alice)).text == ("They have to start the bot first.")
    refused = server.calls("sendMessage")[0]
    assert refused.status == 403
    assert refused.response["description"] == "Forbidden: bot can't initiate conversation with a user"


async def test_a_user_who_blocked_the_bot_answers_forbidden(server: FakeTelegram, app: AnyApp) -> None:
    alice = server.add_user("Alice")
    await server.deliver(app, server.user_sends(alice, None, "/start"))
    server.block_bot(alice)
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await app.bot.send_message(alice.id, "Your turn")


async def test_an_identical_edit_is_refused_as_not_modified(server: FakeTelegram, app: AnyApp) -> None:
    alice = server.add_user("Alice")
    chat = server.private_chat(alice)
    sent = await app.bot.send_message(chat.id, "Score 10")
    with pytest.raises(BadRequest, match="Message is not modified"):
        await app.bot.edit_message_text("Score 10", chat.id, sent.message_id)
    await app.bot.edit_message_text("Score 12", chat.id, sent.message_id)
    assert server.texts(chat) == ["Score 10", "Score 12"]


async def test_editing_text_without_a_keyboard_removes_the_keyboard(
    server: FakeTelegram, app: AnyApp
) -> None:
    alice = server.add_user("Alice")
    chat = server.private_chat(alice)
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Play", callback_data="play")]])
    sent = await app.bot.send_message(chat.id, "Your turn", reply_markup=keyboard)
    await app.bot.edit_message_text("Waiting", chat.id, sent.message_id)
    assert server.last_message(chat).buttons == []


async def test_callback_data_longer_than_64_bytes_is_refused(server: FakeTelegram, app: AnyApp) -> None:
    chat = server.private_chat(server.add_user("Alice"))
    keyboard = InlineKeyboardMarkup([[InlineKeyboardButton("Play", callback_data="é" * 33)]])
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        await app.bot.send_message(chat.id, "Your turn", reply_markup=keyboard)


@pytest.mark.parametrize(
    ("text", "parse_mode", "error"),
    [
        ("Sara < Omar", "HTML", 'unsupported start tag "" at byte offset 5'),
        ("Sara <3 wins", "HTML", 'unsupported start tag "3" at byte offset 5'),
        ("<b>Sara wins", "HTML", "can't find end tag corresponding to start tag b"),
        ("Round 2.", "MarkdownV2", "character '.' is reserved"),
        ("", None, "message text is empty"),
        ("x" * 4097, None, "message is too long"),
    ],
)
async def test_text_the_server_cannot_accept_is_refused(
    server: FakeTelegram, app: AnyApp, text: str, parse_mode: str | None, error: str
) -> None:
    chat = server.private_chat(server.add_user("Alice"))
    # python-telegram-bot drops "Bad Request: " and capitalizes what is left.
    with pytest.raises(BadRequest) as raised:
        await app.bot.send_message(chat.id, text, parse_mode=parse_mode)
    assert error in raised.value.message.lower()
    assert server.messages(chat) == []


async def test_markdown_v2_with_escapes_becomes_plain_text_and_entities(
    server: FakeTelegram, app: AnyApp
) -> None:
    chat = server.private_chat(server.add_user("Alice"))
    sent = await app.bot.send_message(chat.id, r"*Basra\!* \+10", parse_mode="MarkdownV2")
    assert sent.text == "Basra! +10"
    assert sent.entities[0].type == "bold" and sent.entities[0].length == 6


@pytest.mark.parametrize(
    ("text", "parse_mode", "plain", "entities"),
    [
        (
            "🂡 <b>Basra</b> &amp; <i>more</i>",
            "HTML",
            "🂡 Basra & more",
            [("bold", 3, 5, None), ("italic", 11, 4, None)],
        ),
        (
            '<a href="https://t.me/x?a=1&amp;b=2">rules</a>',
            "HTML",
            "rules",
            [("text_link", 0, 5, "https://t.me/x?a=1&b=2")],
        ),
        (
            "[rules](https://t.me/x\\)) ```py\nx = 1```",
            "MarkdownV2",
            "rules x = 1",
            [("text_link", 0, 5, "https://t.me/x)"), ("pre", 6, 5, None)],
        ),
        ("  *score*  ", "Markdown", "score", [("bold", 0, 5, None)]),
    ],
)
async def test_formatted_text_is_stored_as_plain_text_with_utf16_entities(
    server: FakeTelegram,
    app: AnyApp,
    text: str,
    parse_mode: str,
    plain: str,
    entities: list[tuple[str, int, int, str | None]],
) -> None:
    chat = server.private_chat(server.add_user("Alice"))
    sent = await app.bot.send_message(chat.id, text, parse_mode=parse_mode)
    assert sent.text == plain
    assert [(e.type, e.offset, e.length, e.url) for e in sent.entities] == entities


