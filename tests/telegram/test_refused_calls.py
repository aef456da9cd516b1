"""Calls Telegram refuses cost what they cost, and leave no live buttons behind: nothing is
drawn on a message the bot did not send, a write that had to make a second call spends two
turns of the budget, and no hand message shows card buttons once its match is over."""

from __future__ import annotations

from pathlib import Path

from tests.fakes import FakeTelegram, FakeUser
from tests.telegram.test_presses import dealt
from tests.telegram.world import World, start_match, to_move, told_preview

CARD_VERBS = ("b1|card|", "b1|play|", "b1|back|")


def live_buttons(server: FakeTelegram, user: FakeUser) -> list[int]:
    """The bot's messages in ``user``'s private chat that still show card buttons."""
    chat = server.private_chat(user)
    return [m.message_id for m in server.messages(chat, bot_only=True)
            if any(d.startswith(CARD_VERBS) for d in m.button_data())]


async def test_a_press_on_a_forwarded_copy_of_a_hand_draws_nothing_and_says_so(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr = server.add_user("Alice"), server.add_user("Badr", language_code="ar")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database) as world:
        table = await start_match(world, group, alice, badr)
        mover = to_move(table, alice, badr)
        hand = world.hand_message(mover)
        shown = hand.text, hand.button_data()
        copy = server.user_forwards(mover, hand)
        calls = len(server.api_calls)
        update = await world.press(mover, copy, world.buttons(copy, "card")[0])
        made = [call.method for call in server.api_calls[calls:]]
        assert made == ["answerCallbackQuery"]  # no edit of the copy, no new hand
        answer = server.callback_queries[update.callback_query.id].answer  # type: ignore[union-attr]
        assert answer is not None and answer.text is not None
        expected = "هذه نسخة" if mover is badr else "This is a copy"
        assert answer.text.startswith(expected)
        assert (hand.text, hand.button_data()) == shown and len(copy.versions) == 1
        assert world.hand_message(mover) is hand  # the hand the player uses is still the live one
        await world.play_any(mover)  # and it plays as before
        after = await world.table(group)
        assert after is not None and after.version > table.version


async def test_no_card_buttons_are_left_live_when_a_resign_follows_a_play_at_once(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with dealt(server, database) as world:
        table = await start_match(world, group, alice, badr)
        mover = to_move(table, alice, badr)
        other = badr if mover is alice else alice
        hand = world.hand_message(mover)
        card = next(d for d in world.buttons(hand, "card") if d.split("|")[4] == "7C")
        assert told_preview(server, await world.press(mover, hand, card))  # one outcome: a toast
        await world.send(other, None, "/hand")  # a live hand off turn, which the turn replaces
        # The confirm (the card's second press) and a /resign arrive together: the other
        # player's turn is still on its way when the match ends (Telegram asked it to wait).
        server.fail_next("sendMessage", chat=server.private_chat(other), retry_after=0.5)
        confirm = server.user_presses(mover, hand, card)
        resign = server.user_sends(mover, group, "/resign")
        await server.deliver(world.app, confirm)
        await server.deliver(world.app, resign)
        await world.basra.idle()
        assert (await world.basra.service.table(table.table_id)).status == "finished"
        played = server.callback_answer(confirm)
        assert played is not None and played.text == "You played \u20667♣\u2069."
        assert live_buttons(server, alice) == [] and live_buttons(server, badr) == []


async def test_an_edit_refused_because_its_player_deleted_the_message_keeps_its_slot(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database) as world:
        table = await start_match(world, group, alice, badr)
        mover = to_move(table, alice, badr)
        other = badr if mover is alice else alice
        await world.send(other, None, "/hand")  # a hand asked for off turn, which they delete
        hand = world.hand_message(other)
        server.user_deletes(other, hand)
        counts = world.basra.delivery.dispatcher.counts
        refused, skipped = counts["refused"], counts["skipped"]
        await world.play_any(mover)  # their turn: a new hand, and the old one's line is refused
        assert world.hand_message(other) is not hand
        assert counts["refused"] == refused + 1 and counts["skipped"] == skipped
