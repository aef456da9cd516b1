"""Button presses are untrusted: the presser must own the seat and the view must be current."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from telegram import Update

from bots.service import TableView
from bots.telegram.folds import FOLD_PERSON
from bots.telegram.hands import HAND_KEY
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.service.helpers import deck_for, factory
from tests.telegram.world import World, start_match, to_move, told_preview


def dealt(server: FakeTelegram, database: Path, **kwargs: Any) -> World:
    """A world whose matches deal the first to play 9♥ (two plans: 4♦ 5♥, or 2♠ 3♣ 4♦), 7♣
    (one outcome: the whole floor), Q♦ and 10♠, and the other 9♦ (two plans as well), 8♦
    (one outcome: 3♣ 5♥), K♠ and 6♣, with 2♠ 3♣ 4♦ 5♥ on the floor."""
    world = World(server, database, **kwargs)
    world.basra.match_factory = factory(deck_for(["9H 7C QD 10S", "9D 8D KS 6C"], "2S 3C 4D 5H"))
    return world


async def press_card(world: World, user: FakeUser, hand: FakeMessage, card: str) -> Update:
    """Press ``card``'s button on ``hand`` as it shows now."""
    data = [d for d in world.buttons(hand, "card") if d.split("|")[4] == card]
    assert data, f"{card} is not on {hand.text}"
    return await world.press(user, hand, data[0])


def players(server: FakeTelegram) -> tuple[FakeUser, FakeUser, FakeChat]:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    return alice, badr, server.add_group("Cafe", [alice, badr])


async def test_pressing_a_card_previews_it_and_only_confirm_plays(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr, group = players(server)
    async with dealt(server, database) as world:
        await start_match(world, group, alice, badr)
        table = await world.table(group)
        assert table is not None and table.to_move is not None
        waiting = alice if table.seats[table.to_move].player_id != f"tg:{alice.id}" else badr
        # Off turn a player has their cards as a line; "My hand" brings a live hand ...
        assert not world.hand_messages(waiting) and "Your hand" in world.latest_private(waiting).text
        await world.press_verb(waiting, server.last_message(group), "hand")
        hand = world.hand_message(waiting)
        before = hand.text
        # ... where the preview still works out of turn: a card with one outcome is told in
        # the press's answer, which says it is not their turn, and a second press plays nothing ...
        for _ in range(2):
            update = await press_card(world, waiting, hand, "8D")
            answer = server.callback_answer(update)
            assert answer is not None and not answer.show_alert and answer.text
            assert "Not your turn yet" in answer.text and not told_preview(server, update)
            assert world.hand_message(waiting).text == before
        assert (await world.table(group)) == table
        # ... a card with a choice is previewed in the hand ...
        await press_card(world, waiting, hand, "9D")
        assert world.hand_message(waiting).text != before
        assert world.buttons(world.hand_message(waiting), "play")
        # ... and confirming says whose turn it is, changing nothing.
        update = await world.press_verb(waiting, world.hand_message(waiting), "play")
        answer = server.callback_answer(update)
        assert answer is not None and answer.show_alert
        assert (await world.table(group)) == table
        # Back leaves the preview.
        await press_card(world, waiting, world.hand_message(waiting), "9D")
        assert world.hand_message(waiting).text != before
        await world.press_verb(waiting, world.hand_message(waiting), "back")
        assert world.hand_message(waiting).text == before


async def test_a_stale_press_gets_an_alert_and_a_fresh_view(server: FakeTelegram, database: Path) -> None:
    alice, badr, group = players(server)
    async with dealt(server, database) as world:
        await start_match(world, group, alice, badr)
        table = await world.table(group)
        assert table is not None and table.to_move is not None
        mover = to_move(table, alice, badr)
        other = badr if mover is alice else alice
        hand = world.hand_message(mover)
        await press_card(world, mover, hand, "9H")  # two plans: previewed in the hand, with Play
        old_play = world.buttons(world.hand_message(mover), "play")[0]
        await world.play_any(mover)
        await world.play_any(other)
        moved = await world.table(group)
        assert moved is not None and moved.version > table.version
        # The same player presses a confirm from two views ago.
        update = await world.forge(mover, world.hand_message(mover), old_play)
        answer = server.callback_answer(update)
        assert answer is not None and answer.show_alert and answer.text
        assert await world.table(group) == moved  # nothing changed
        version = f"|{moved.version}|"
        assert any(version in d for d in world.hand_message(mover).button_data())


async def test_forged_presses_are_refused_without_changing_anything(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr, group = players(server)
    eve = server.add_user("Eve")
    server.join(eve, group)
    server.private_chat(eve)
    async with World(server, database) as world:
        await start_match(world, group, alice, badr)
        table = await world.table(group)
        assert table is not None and table.to_move is not None
        mover = to_move(table, alice, badr)
        hand = world.hand_message(mover)
        card = world.buttons(hand, "card")[0].split("|")[4]
        play = f"b1|play|{table.table_id}|{table.version}|{card}|1"
        group_message = server.last_message(group)
        await world.send(eve, None, "/help")
        eve_message = server.last_message(server.private_chat(eve))
        texts_before = {chat_id: server.texts(chat) for chat_id, chat in server.chats.items()}
        forged = [
            (eve, eve_message, play),         # not seated at this table
            (mover, group_message, play),                  # a hand button in the group
            (mover, hand, "b1|play|zzzz|1|AS"),              # no such table
            (mover, hand, "not a payload"),                  # garbage
            (mover, hand, "b1|play|" + table.table_id + "|" + str(table.version) + "|XX"),  # no such card
            (mover, hand, f"b1|play|{table.table_id}|{table.version}|{card}|9"),  # no such plan
            (mover, hand, f"b1|play|{table.table_id}|{table.version}|{card}|²"),  # not a number
            (mover, hand, f"b1|play|{table.table_id}|{table.version}|{card}|١"),  # not ours
        ]
        for user, message, data in forged:
            update = await world.forge(user, message, data)
            answer = server.callback_answer(update)
            assert answer is not None and answer.show_alert, data
        assert await world.table(group) == table
        # Nothing was drawn in the group and nobody else's chat changed.
        assert server.texts(group) == texts_before[group.id]
        assert server.texts(server.private_chat(eve)) == texts_before[eve.id]


async def test_a_hint_outside_practice_is_refused(server: FakeTelegram, database: Path) -> None:
    alice, badr, group = players(server)
    async with World(server, database) as world:
        await start_match(world, group, alice, badr)
        table = await world.table(group)
        assert table is not None and table.to_move is not None
        mover = to_move(table, alice, badr)
        hand = world.hand_message(mover)
        assert not world.buttons(hand, "hint")
        update = await world.forge(mover, hand, f"b1|hint|{table.table_id}|{table.version}")
        answer = server.callback_answer(update)
        assert answer is not None and answer.show_alert
        assert await world.table(group) == table


async def test_a_confirmed_play_stops_the_spinner_while_its_notices_go_out(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr, group = players(server)
    async with dealt(server, database) as world:
        table = await start_match(world, group, alice, badr)
        mover = to_move(table, alice, badr)
        hand = world.hand_message(mover)
        assert told_preview(server, await press_card(world, mover, hand, "7C"))
        server.latency = 0.05  # every call is a network round trip
        update = await press_card(world, mover, hand, "7C")  # the second press: the confirm
        calls = server.calls_for(update)
        answer = next(call for call in calls if call.method == "answerCallbackQuery")
        notices = [call for call in calls if call is not answer]
        # Answered once the play was committed, beside the redrawing, not after the last of it.
        assert notices and answer.at < max(call.at for call in notices)
        assert answer.ok and server.callback_answer(update) is not None
        assert server.callback_answer(update).text == "You played \u20667♣\u2069."  # type: ignore[union-attr]
        after = await world.table(group)
        # Committed: the play's events (one or more) moved the table on, and the turn passed.
        assert after is not None and after.version > table.version
        assert after.to_move != table.to_move


async def test_starting_a_match_stops_the_spinner_while_the_table_and_hands_go_out(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr, group = players(server)
    async with World(server, database) as world:
        await world.send(alice, group, "/newgame")
        lobby = server.last_message(group)
        await world.press_verb(badr, lobby, "join")
        server.latency = 0.05
        update = await world.press_verb(alice, lobby, "start")
        calls = server.calls_for(update)
        answer = next(call for call in calls if call.method == "answerCallbackQuery")
        assert answer.at < max(call.at for call in calls if call is not answer)
        assert server.callback_answer(update) is not None and server.unanswered_callback_queries() == []
        table = await world.table(group)
        assert table is not None
        mover = to_move(table, alice, badr)
        other = badr if mover is alice else alice
        # The player to move has their hand; the other sees their cards until their turn.
        assert world.hand_message(mover) and "Your hand" in world.latest_private(other).text


async def test_a_confirm_pressed_twice_leaves_the_played_line_as_it_is(
    server: FakeTelegram, database: Path
) -> None:
    """The second press of a confirm: the line is never a live hand again."""
    alice, badr, group = players(server)
    async with dealt(server, database) as world:
        table = await start_match(world, group, alice, badr)
        mover = to_move(table, alice, badr)
        hand = world.hand_message(mover)
        await press_card(world, mover, hand, "9H")  # two plans: previewed in the hand, with Play
        play = world.buttons(hand, "play")[0]
        await world.press(mover, hand, play)
        played = hand.text
        assert "played" in played and not hand.button_data()
        # The same confirm again, from a client that had not redrawn yet: refused, and the
        # line still says what was played (there is no newer hand to point to).
        update = await world.forge(mover, hand, play)
        answer = server.callback_answer(update)
        assert answer is not None and answer.show_alert
        assert hand.text == played and not hand.button_data()
        refs = await world.basra.delivery.refs(table.table_id)
        assert refs.values.get(HAND_KEY + f"tg:{mover.id}") is None  # not taken up as live


async def test_a_leave_press_racing_the_start_is_refused_never_a_resignation(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr, group = players(server)
    async with World(server, database) as world:
        await world.send(alice, group, "/newgame")
        lobby = server.last_message(group)
        await world.press_verb(badr, lobby, "join")
        assert not world.buttons(lobby, "join")  # full: nobody else may sit down
        leave = world.buttons(lobby, "leave")[0]  # as Badr's client still shows it
        await world.press_verb(alice, lobby, "start")
        update = await world.forge(badr, lobby, leave)
        answer = server.callback_answer(update)
        assert answer is not None and answer.text == "This lobby is closed."
        table = await world.table(group)
        assert table is not None and table.running  # Badr did not resign


async def test_a_live_hand_whose_reference_was_not_kept_still_plays(
    server: FakeTelegram, database: Path
) -> None:
    """A bot that sent a hand and was killed before noting it knows an older message: the
    newer one pressed is the live hand, not a moved one."""
    alice, badr, group = players(server)
    async with dealt(server, database) as world:
        table = await start_match(world, group, alice, badr)
        mover = to_move(table, alice, badr)
        live = world.hand_message(mover)
        refs = await world.basra.delivery.refs(table.table_id)
        key = HAND_KEY + f"tg:{mover.id}"
        assert refs.values[key][1] == live.message_id
        refs.values[key] = [mover.id, live.message_id - 1, *refs.values[key][2:]]  # an older message
        await press_card(world, mover, live, "9H")  # two plans: previewed in the hand
        assert world.buttons(live, "play"), live.text  # previewed where it was pressed
        assert refs.values[key][1] == live.message_id
        await world.press_verb(mover, live, "play")
        played = await world.table(group)
        assert played is not None and played.version > table.version and played.to_move != table.to_move
        assert played.last_play is not None and played.last_play.card == "9H"


async def test_a_hand_that_became_a_short_line_before_its_edit_went_is_not_posted_again(
    server: FakeTelegram, database: Path
) -> None:
    """An edit of the live hand queued just before the hand became a short line (the
    player's play went first) posts no new hand out of turn."""
    alice, badr, group = players(server)
    async with World(server, database) as world:
        table = await start_match(world, group, alice, badr)
        mover = to_move(table, alice, badr)
        live = world.hand_message(mover)
        delivery = world.basra.delivery
        hand = await world.basra.service.hand(table.table_id, f"tg:{mover.id}")
        shown = len(server.messages(server.private_chat(mover), bot_only=True))
        assert await delivery.show_hand(hand, "en", urgent=False)  # an edit of the live hand
        delivery.keep(table.table_id, HAND_KEY + f"tg:{mover.id}", None)  # a short line now
        await world.basra.idle()
        assert len(server.messages(server.private_chat(mover), bot_only=True)) == shown
        assert live.message_id == world.hand_message(mover).message_id


async def test_a_card_pressed_once_more_after_its_confirm_leaves_the_played_hand_as_it_is(
    server: FakeTelegram, database: Path
) -> None:
    """A card's second press plays it; a third, while the hand waits a moment for the
    opponent's answer (its short line held back, its buttons as they were), is refused, and
    the hand is not taken up as live again: it becomes the play's short line."""
    alice, badr, group = players(server)
    async with dealt(server, database) as world:
        world.basra.delivery.fold_person = FOLD_PERSON  # as shipped, not sped up with the limits
        table = await start_match(world, group, alice, badr)
        mover = to_move(table, alice, badr)
        hand = world.hand_message(mover)
        card = next(d for d in world.buttons(hand, "card") if d.split("|")[4] == "7C")
        assert told_preview(server, await world.press(mover, hand, card))
        await server.deliver(world.app, server.user_presses(mover, hand, card))
        played = await world.table(group)
        assert played is not None and played.last_play is not None and played.last_play.card == "7C"
        assert card in hand.button_data()  # still shown: the line waits for the opponent
        update = server.user_presses(mover, hand, card)
        await world.deliver(update)
        answer = server.callback_answer(update)
        assert answer is not None and answer.show_alert
        assert await world.table(group) == played
        assert "played" in hand.text and not hand.button_data(), hand.text
        refs = await world.basra.delivery.refs(table.table_id)
        assert refs.values.get(HAND_KEY + f"tg:{mover.id}") is None  # not taken up as live


async def shown_turn(world: World, user: FakeUser, version: int) -> FakeMessage:
    """The user's hand message with card buttons at ``version`` (their turn), once it shows
    (within a second)."""
    for _ in range(100):
        found = [m for m in world.hand_messages(user)
                 if any(d.split("|")[3] == str(version) for d in world.buttons(m, "card"))]
        if found:
            return found[-1]
        await asyncio.sleep(0.01)
    raise AssertionError(f"{user} was not shown their turn at version {version}")


@dataclass
class Opening:
    """The start of a dealt 1-v-1: who moves first, their hand, how many bot messages their
    private chat holds, and their 7♣ (one outcome: it takes the whole floor), its preview
    told in the press's answer."""

    table: TableView
    mover: FakeUser
    other: FakeUser
    hand: FakeMessage
    sent: int
    seven: str


async def opening(world: World, server: FakeTelegram, group: FakeChat, alice: FakeUser,
                  badr: FakeUser) -> Opening:
    table = await start_match(world, group, alice, badr)
    mover = to_move(table, alice, badr)
    hand = world.hand_message(mover)
    sent = len(server.messages(server.private_chat(mover), bot_only=True))
    seven = next(d for d in world.buttons(hand, "card") if d.split("|")[4] == "7C")
    assert told_preview(server, await world.press(mover, hand, seven))
    return Opening(table, mover, badr if mover is alice else alice, hand, sent, seven)


async def test_a_quick_answer_at_a_groups_1v1_is_drawn_on_the_hand_just_played(
    server: FakeTelegram, database: Path
) -> None:
    """The mover's hand waits a moment for the opponent's answer: when it comes within that,
    the turn it brings is drawn on the same hand (one edit), both plays on top."""
    alice, badr, group = players(server)
    async with dealt(server, database) as world:
        world.basra.delivery.fold_person = FOLD_PERSON  # as shipped, not sped up with the limits
        start = await opening(world, server, group, alice, badr)
        table, mover, other, hand, sent = start.table, start.mover, start.other, start.hand, start.sent
        await server.deliver(world.app, server.user_presses(mover, hand, start.seven))  # 7♣ takes the floor
        played = await world.table(group)
        assert played is not None and played.last_play is not None and played.last_play.card == "7C"
        # The opponent's turn comes as a new message at once; they answer within the moment.
        turn = await shown_turn(world, other, played.version)
        eight = next(d for d in world.buttons(turn, "card") if d.split("|")[4] == "8D")
        await server.deliver(world.app, server.user_presses(other, turn, eight))
        await server.deliver(world.app, server.user_presses(other, turn, eight))
        await world.basra.idle()
        answered = await world.table(group)
        assert answered is not None and answered.last_play is not None and answered.last_play.card == "8D"
        assert answered.to_move == table.to_move
        # No new message for the mover: the same hand shows their turn, the two plays on top.
        assert len(server.messages(server.private_chat(mover), bot_only=True)) == sent
        assert world.hand_message(mover) is hand
        assert {d.split("|")[3] for d in world.buttons(hand, "card")} == {str(answered.version)}
        lines = hand.text.splitlines()
        assert "played \u20667♣\u2069" in lines[0] and lines[1].startswith("Your turn"), hand.text
        above = hand.text.split("Your hand")[0]
        assert "played \u20668♦\u2069" in above, hand.text
        assert len(hand.versions) == 2  # the turn drawn on it: one edit


async def test_a_slower_answer_at_a_groups_1v1_brings_the_turn_as_a_new_message(
    server: FakeTelegram, database: Path
) -> None:
    """An opponent who answers after the moment the hand waits for (``world.press`` waits
    for every write, the held line among them): the hand became its short line, and the
    turn comes as a new message."""
    alice, badr, group = players(server)
    async with dealt(server, database) as world:
        start = await opening(world, server, group, alice, badr)
        table, mover, other, hand, sent = start.table, start.mover, start.other, start.hand, start.sent
        await world.press(mover, hand, start.seven)
        assert "played" in hand.text and not hand.button_data(), hand.text
        turn = world.hand_message(other)
        eight = next(d for d in world.buttons(turn, "card") if d.split("|")[4] == "8D")
        assert told_preview(server, await world.press(other, turn, eight))
        await world.press(other, turn, eight)
        answered = await world.table(group)
        assert answered is not None and answered.to_move == table.to_move
        assert len(server.messages(server.private_chat(mover), bot_only=True)) == sent + 1
        new = world.hand_message(mover)
        assert new is not hand and "played" in hand.text and not hand.button_data()
        assert {d.split("|")[3] for d in world.buttons(new, "card")} == {str(answered.version)}
