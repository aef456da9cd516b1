"""The Telegram fake refuses, fails and records as the Bot API does: rate limits, network
failures, unknown methods, handler errors, calls per update, documents.

A tiny bot (deep-link /start, a table with an inline keyboard, a join button,
an invitation to another user) runs on the real library; each test reads like
a sentence about how Telegram treats that bot.
"""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest
from telegram import Bot
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    InvalidToken,
    NetworkError,
    RetryAfter,
    TimedOut,
)

from . import FakeTelegram, FakeUsageError, FloodLimit
from .tiny_bot import AnyApp, add_handlers


async def test_the_rate_limiter_retries_after_an_injected_429(
    server: FakeTelegram, limited_app: AnyApp
) -> None:
    alice = server.add_user("Alice")
    server.fail_next("sendMessage", retry_after=0.05)
    await server.deliver(limited_app, server.user_sends(alice, None, "/start"))
    assert [call.status for call in server.calls("sendMessage")] == [429, 200]
    assert server.last_message(server.private_chat(alice)).text == "Welcome, Alice!"


async def test_without_a_rate_limiter_a_429_reaches_the_bot_as_retry_after(
    server: FakeTelegram, app: AnyApp
) -> None:
    chat = server.private_chat(server.add_user("Alice"))
    server.fail_next("sendMessage", retry_after=3)
    with pytest.raises(RetryAfter) as raised:
        await app.bot.send_message(chat.id, "Your turn")
    # A timedelta once PTB_TIMEDELTA is set (the bot sets it), seconds before.
    assert raised.value.retry_after in (3, dt.timedelta(seconds=3))
    await app.bot.send_message(chat.id, "Your turn")


async def test_flood_control_answers_429_once_a_group_limit_is_reached(
    server: FakeTelegram, app: AnyApp
) -> None:
    group = server.add_group("Basra night", [server.add_user("Alice")])
    server.flood_control(FloodLimit(2, 0.2, "group"))
    await app.bot.send_message(group.id, "one")
    await app.bot.send_message(group.id, "two")
    with pytest.raises(RetryAfter):
        await app.bot.send_message(group.id, "three")
    await asyncio.sleep(0.25)
    await app.bot.send_message(group.id, "three")
    assert server.texts(group) == ["one", "two", "three"]


async def test_a_network_failure_is_raised_from_the_http_layer(server: FakeTelegram, app: AnyApp) -> None:
    chat = server.private_chat(server.add_user("Alice"))
    server.fail_network_next("sendMessage")
    with pytest.raises(NetworkError):
        await app.bot.send_message(chat.id, "lost")
    server.fail_network_next("sendMessage", delivered=True)
    with pytest.raises(TimedOut):
        await app.bot.send_message(chat.id, "arrived anyway")
    assert server.texts(chat) == ["arrived anyway"]


async def test_an_unknown_method_fails_the_test_loudly(server: FakeTelegram, app: AnyApp) -> None:
    chat = server.private_chat(server.add_user("Alice"))
    with pytest.raises(InvalidToken, match="Not Found"):
        await app.bot.send_dice(chat.id)
    with pytest.raises(FakeUsageError, match="sendDice"):
        server.check()


async def test_a_handler_exception_is_raised_by_deliver(server: FakeTelegram, app: AnyApp) -> None:
    alice = server.add_user("Alice")
    with pytest.raises(RuntimeError, match="handler bug"):
        await server.deliver(app, server.user_sends(alice, None, "/crash"))


async def test_calls_are_attributed_to_the_update_that_caused_them(server: FakeTelegram, app: AnyApp) -> None:
    alice = server.add_user("Alice")
    first = server.user_sends(alice, None, "/start")
    assert [call.method for call in await server.deliver(app, first)] == ["sendMessage"]
    second = server.user_sends(alice, None, "/table")
    await server.deliver(app, second)
    assert len(server.calls_for(first)) == len(server.calls_for(second)) == 1
    elapsed = server.response_time(second)
    assert elapsed is not None and 0 <= elapsed < 1


async def test_concurrent_updates_keep_their_own_calls_and_timings() -> None:
    server = FakeTelegram(latency=0.01)
    application = server.application_builder().build()
    add_handlers(application)
    server.attach(application.bot)
    alice, bob = server.add_user("Alice"), server.add_user("Bob")
    async with application:
        updates = [server.user_sends(user, None, "/start") for user in (alice, bob)]
        await asyncio.gather(*(server.deliver(application, update) for update in updates))
    for update, user in zip(updates, (alice, bob), strict=True):
        [call] = server.calls_for(update)
        assert call.params["chat_id"] == user.id
        elapsed = server.response_time(update)
        assert elapsed is not None and elapsed >= 0.01


async def test_what_a_player_was_shown_includes_replaced_texts(server: FakeTelegram, app: AnyApp) -> None:
    alice, bob = server.add_user("Alice"), server.add_user("Bob")
    hand = await app.bot.send_message(server.private_chat(alice).id, "Your hand: 7S QD")
    await hand.edit_text("Your hand: QD")
    assert server.texts_seen_by(alice) == ["Your hand: 7S QD", "Your hand: QD"]
    assert [message.text for message in server.visible_to(alice)] == ["Your hand: QD"]
    assert server.texts_seen_by(bob) == []


async def test_commands_are_kept_per_scope_and_language(server: FakeTelegram, app: AnyApp) -> None:
    await app.bot.set_my_commands([("start", "Start playing")])
    await app.bot.set_my_commands([("start", "ابدأ اللعب")], language_code="ar")
    assert server.my_commands() == [("start", "Start playing")]
    assert [c.description for c in await app.bot.get_my_commands(language_code="ar")] == ["ابدأ اللعب"]
    await app.bot.delete_my_commands()
    assert server.my_commands() == []
    with pytest.raises(BadRequest, match="Bot_command_invalid"):
        await app.bot.set_my_commands([("Start!", "bad")])


async def test_pinning_in_a_group_needs_admin_rights(server: FakeTelegram, app: AnyApp) -> None:
    group = server.add_group("Basra night", [server.add_user("Alice")])
    sent = await app.bot.send_message(group.id, "Scores")
    with pytest.raises(BadRequest, match="Not enough rights"):
        await sent.pin()
    server.set_bot_status(group, "administrator")
    await sent.pin()
    assert server.pinned(group) is server.last_message(group)
    await sent.delete()
    assert server.pinned(group) is None
    assert server.messages(group) == []


async def test_chat_and_member_lookups_parse_as_library_objects(server: FakeTelegram, app: AnyApp) -> None:
    alice, bob = server.add_user("Alice"), server.add_user("Bob")
    group = server.add_group("Basra night", [alice, bob])
    full = await app.bot.get_chat(group.id)
    assert full.title == "Basra night"
    assert (await app.bot.get_chat_member(group.id, alice.id)).status == "creator"
    assert (await app.bot.get_chat_member(group.id, bob.id)).status == "member"
    server.leave(bob, group)
    assert (await app.bot.get_chat_member(group.id, bob.id)).status == "left"
    await app.bot.send_chat_action(group.id, "typing")
    assert group.actions == ["typing"]


async def test_an_upgraded_group_answers_with_its_new_id(server: FakeTelegram, app: AnyApp) -> None:
    group = server.add_group("Basra night", [server.add_user("Alice")], supergroup=False)
    upgraded = server.upgrade_to_supergroup(group)
    with pytest.raises(ChatMigrated) as raised:
        await app.bot.send_message(group.id, "hello")
    assert raised.value.new_chat_id == upgraded.id


async def test_the_polling_loop_receives_queued_updates(server: FakeTelegram) -> None:
    application = server.application_builder().build()
    add_handlers(application)
    server.attach(application.bot)
    alice = server.add_user("Alice")
    async with application:
        assert application.updater is not None
        await application.updater.start_polling(poll_interval=0, timeout=1)
        await application.start()
        server.queue_update(server.user_sends(alice, None, "/start"))
        for _ in range(100):
            if server.messages(server.private_chat(alice), bot_only=True):
                break
            await asyncio.sleep(0.01)
        await application.updater.stop()
        await application.stop()
    assert server.last_message(server.private_chat(alice)).text == "Welcome, Alice!"
    assert server.calls("deleteWebhook")


async def test_a_document_is_uploaded_as_a_multipart_file_and_shown_with_its_caption(
    server: FakeTelegram, app: AnyApp
) -> None:
    alice = server.add_user("Alice")
    await server.deliver(app, server.user_sends(alice, None, "/start"))
    welcome = server.last_message(server.private_chat(alice))
    sent = await app.bot.send_document(
        alice.id, b'{"a": 1}\n', filename="game.json", caption="<b>Kept</b> for you", parse_mode="HTML",
        reply_to_message_id=welcome.message_id,
    )
    assert sent.document is not None and sent.document.file_name == "game.json"
    assert sent.document.file_size == 9 and sent.caption == "Kept for you" and sent.text is None
    message = server.last_message(server.private_chat(alice))
    assert message.document is not None and message.document.data == b'{"a": 1}\n'
    assert message.document.mime_type == "application/json" and message.reply_to is welcome
    assert message.text == "Kept for you" and message.entities[0]["type"] == "bold"
    # A file the server keeps is sent again by its id, without uploading it.
    again = await app.bot.send_document(alice.id, sent.document.file_id)
    assert again.document is not None and again.document.file_unique_id == sent.document.file_unique_id


async def test_a_document_follows_the_rules_of_any_message(server: FakeTelegram, app: AnyApp) -> None:
    server.clear_faults()  # a refusal each, not a flood limit
    alice, stranger = server.add_user("Alice"), server.add_user("Stranger")
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        await app.bot.send_document(stranger.id, b"{}", filename="game.json")
    await server.deliver(app, server.user_sends(alice, None, "/start"))
    with pytest.raises(BadRequest, match="File must be non-empty"):
        await app.bot.send_document(alice.id, b"", filename="game.json")
    with pytest.raises(BadRequest, match="Wrong file identifier"):
        await app.bot.send_document(alice.id, "no-such-file")
    with pytest.raises(BadRequest, match="Message caption is too long"):
        await app.bot.send_document(alice.id, b"{}", filename="game.json", caption="x" * 1025)
    server.block_bot(alice)
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        await app.bot.send_document(alice.id, b"{}", filename="game.json")


async def test_over_http_a_document_arrives_as_the_form_s_file_part(server: FakeTelegram) -> None:
    from tests.fakes.telegram_http import HttpFront

    front = HttpFront(server)
    url = await front.start()
    try:
        alice = server.add_user("Alice")
        server.private_chat(alice)
        bot = Bot(server.token, base_url=f"{url}/bot")
        async with bot:
            sent = await bot.send_document(alice.id, b"[1, 2]", filename="x.json", caption="two")
        assert sent.document is not None and sent.caption == "two"
        message = server.last_message(server.private_chat(alice))
        assert message.document is not None and message.document.data == b"[1, 2]"
    finally:
        await front.stop()
