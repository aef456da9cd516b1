"""The outbox's sends and edits go through the library's public call for any Bot API method."""

from __future__ import annotations

import warnings

from telegram import InlineKeyboardButton, InlineKeyboardMarkup
from telegram.warnings import PTBUserWarning

from bots.telegram.outbox import Content, Outbox, Outcome
from tests.fakes import FakeTelegram

KEYS = InlineKeyboardMarkup([[InlineKeyboardButton("7S", callback_data="t|play|7S")]])


async def test_sends_and_edits_warn_nothing_and_read_the_message_id_from_the_answer(
    server: FakeTelegram,
) -> None:
    application = server.application_builder().build()
    server.attach(application.bot)
    alice = server.add_user("Alice")
    chat = server.private_chat(alice)
    async with application:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            outbox = Outbox(application.bot)
            sent = await outbox.send(chat.id, Content("<b>Your turn</b>", KEYS))
            assert sent.outcome is Outcome.DONE and sent.message_id is not None
            edited = await outbox.edit(chat.id, sent.message_id, Content("Played <b>7S</b>"))
            dropped = await outbox.drop_keyboard(chat.id, sent.message_id)
            # Any other advice of the library still shows.
            await application.bot.do_api_request("getMe")
    assert (edited.outcome, dropped.outcome) == (Outcome.DONE, Outcome.DONE)
    shown = server.last_message(chat)
    assert shown.message_id == sent.message_id and shown.text == "Played 7S"
    assert [call.method for call in server.calls()][-4:] == [
        "sendMessage", "editMessageText", "editMessageReplyMarkup", "getMe"
    ]
    advice = [str(w.message) for w in caught if issubclass(w.category, PTBUserWarning)]
    assert advice == ["Please use 'Bot.getMe' instead of 'Bot.do_api_request(\"getMe\", ...)'"]
