"""Live delivery at the players' speed, against the fake Bot API at Telegram's real limits.

Players here press as soon as their screen lets them, without waiting for the
bot to finish anything; the fake server refuses (429) whatever breaks
Telegram's limits, and ``World`` fails a test that met a single 429. The
bounds are loose (this machine is shared); ``bench/telegram.py`` prints the
figures.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from functools import partial
from pathlib import Path

from bots.service import ManualClock, SystemClock, TableView
from tests.fakes import CallbackQueryRecord, FakeChat, FakeTelegram, FakeUser
from tests.service.helpers import deck_for, factory
from tests.telegram.live import (
    WRITES,
    Timeline,
    live_button,
    never_older,
    play_when_shown,
    when_ready,
)
from tests.telegram.world import QUIET, World, ids, start_match

ACK_BOUND = 0.5  # seconds: the answer to a press never waits for a message
GROUP_BOUND = 4.5  # seconds: the group shows each play, or a later state
TURN_BOUND = 1.5  # seconds: the next player's hand shows their turn


def live_server() -> FakeTelegram:
    return FakeTelegram()  # Telegram's limits at their real speed


def people(server: FakeTelegram, *langs: str) -> tuple[list[FakeUser], FakeChat]:
    users = [server.add_user(name, language_code=lang)
             for name, lang in zip(("Alice", "Badr", "Carla", "Dina"), langs, strict=False)]
    for user in users:
        server.private_chat(user)
    return users, server.add_group("Cafe", users)


async def test_a_fast_1v1_keeps_every_chat_live_within_telegrams_limits(database: Path) -> None:
    server = live_server()
    (alice, badr), group = people(server, "en", "en")
    async with World(server, database) as world:
        timeline = Timeline.watch(world.basra.delivery)
        await world.send(alice, group, "/newgame")
        lobby = server.last_message(group)
        await world.press_verb(badr, lobby, "join")
        # The lobby stays open a moment, as people gather: the note each got on joining ("your
        # cards come here") is past its private chat's window when the match starts.
        await asyncio.sleep(3.1)
        writes_before = len([c for c in server.api_calls if c.method in WRITES])
        # Alice starts, and the first to move plays as soon as their hand shows: nobody waits
        # for the bot's writes to settle (``world.press`` would).
        await server.deliver(world.app, server.user_presses(alice, lobby, world.buttons(lobby, "start")[0]))
        acks, plays = [], 0
        started = time.perf_counter()
        while plays < 16:
            table = await world.table(group)
            assert table is not None and table.to_move is not None
            mover = {f"tg:{u.id}": u for u in (alice, badr)}[table.seats[table.to_move].player_id or ""]
            acks.append(await play_when_shown(world.server, world.app, mover, table.version))
            plays += 1
        elapsed = time.perf_counter() - started
        await world.basra.idle()
        writes = len([c for c in server.api_calls if c.method in WRITES]) - writes_before
    assert max(acks) < ACK_BOUND, acks
    lags = timeline.group_lags(server, group)
    assert len(lags) >= plays and max(lags) < GROUP_BOUND, lags
    turns = timeline.turn_lags(server, ids(alice, badr))
    assert turns and max(turns) < TURN_BOUND, turns
    # A preview is the press's answer and costs no write; a confirm costs at most 2 writes on
    # average (the next turn drawn on the hand just played, the table at the group's pace),
    # and the game moves at the players' pace, not at the group's 20 writes a minute.
    assert writes / plays <= 2.0, (writes, plays)
    assert elapsed < plays * 3.0, elapsed
    # Nothing older after something newer, and no message deleted under a finger.
    for chat in (group, server.private_chat(alice), server.private_chat(badr)):
        never_older(server.messages(chat, bot_only=True))
        assert not any(m.deleted for m in server.messages(chat, bot_only=True))
    assert len(server.messages(group, bot_only=True)) == 1  # the lobby became the table


async def test_a_burst_of_previews_ends_on_the_last_one_without_a_429(database: Path) -> None:
    server = live_server()
    (alice, badr), group = people(server, "en", "en")
    world = World(server, database)
    # The first to play holds four cards with a choice each (6s and 7s over A♣ 2♠ 3♣ 4♦): each
    # press is a preview drawn in the hand, an edit.
    world.basra.match_factory = factory(deck_for(["6C 7C 6D 7H", "9H 10S QD KS"], "AC 2S 3C 4D"))
    async with world:
        table = await start_match(world, group, alice, badr)
        mover = {f"tg:{u.id}": u for u in (alice, badr)}[table.seats[table.to_move or 0].player_id or ""]
        hand = world.hand_message(mover)
        cards = world.buttons(hand, "card")
        assert sorted(d.split("|")[4] for d in cards) == ["6C", "6D", "7C", "7H"]
        pressed = []
        for data in cards * 2:  # eight presses from the keyboard as first drawn, as fast as they come
            query_id = server.new_query_id()
            update = server._produce({"callback_query": {
                "id": query_id, "from": mover.to_api(), "message": hand.to_api(),
                "chat_instance": "1", "data": data}})
            server.callback_queries[query_id] = CallbackQueryRecord(
                query_id, mover, hand, data, update.update_id)
            await server.deliver(world.app, update)
            pressed.append(update)
        assert all(server.callback_answer(u) is not None for u in pressed)  # every press answered
        await world.basra.idle()
        # The hand shows the last preview; nothing went to the group.
        last = cards[-1].split("|")[4]
        assert any(d.startswith("b1|play|") and f"|{last}|" in d + "|" for d in hand.button_data())
        previews = [c for u in pressed for c in server.calls_for(u) if c.method in WRITES]
        assert all(c.params.get("chat_id") == mover.id for c in previews)
        never_older([hand])


async def test_a_refused_press_redraws_the_lobby_in_the_groups_language(database: Path) -> None:
    server = live_server()
    (alice, eve), group = people(server, "ar", "en")
    async with World(server, database) as world:
        await world.basra.service.set_chat_language(f"tg:{group.id}", "ar")
        await world.send(alice, group, "/newgame")
        lobby = server.last_message(group)
        arabic_lobby = lobby.text
        update = await world.press_verb(eve, lobby, "cancel")  # not the creator: refused
        answer = server.callback_answer(update)
        assert answer is not None and answer.show_alert and answer.text and answer.text.isascii() is False
        assert lobby.text == arabic_lobby  # never redrawn in the presser's language
        assert any("\u0600" <= ch <= "\u06ff" for ch in lobby.text)


async def test_a_restarted_bot_still_speaks_english_to_an_english_player(database: Path) -> None:
    server = FakeTelegram(speedup=60.0)
    (alice, badr), group = people(server, "ar", "en")
    arabic_default = replace(QUIET, language="ar")
    clock = ManualClock()
    async with World(server, database, clock=clock, config=arabic_default) as first:
        table = await start_match(first, group, alice, badr)
        if table.seats[table.to_move or 0].player_id == f"tg:{badr.id}":
            await first.play_any(badr)
        await first.play_any(alice)  # now it is Badr's turn
    async with World(server, database, clock=clock, config=arabic_default) as second:
        table = await second.table(group)
        assert table is not None and table.seats[table.to_move or 0].player_id == f"tg:{badr.id}"
        await second.play_any(badr)
        await second.play_any(alice)
        await second.basra.idle()
        # Badr's next turn, drawn by the restarted bot before he pressed anything since.
        text = second.hand_message(badr).text
        assert "Your hand" in text and not any("\u0600" <= ch <= "\u06ff" for ch in text.split("\n")[0])


async def test_a_fast_practice_takes_one_write_an_exchange_at_an_even_pace(database: Path) -> None:
    server = live_server()
    amal = server.add_user("Amal", language_code="ar")
    chat = server.private_chat(amal)
    async with World(server, database, clock=SystemClock()) as world:
        timeline = Timeline.watch(world.basra.delivery)
        await world.send(amal, None, "/practice")
        me = f"tg:{amal.id}"
        writes_before, plays, version = 0, 0, 0
        while plays <= 8:  # each turn pressed (card, then the same card) as soon as it shows
            table = await world.basra.service.open_table(me)
            assert isinstance(table, TableView) and table.running
            if table.to_move != table.seat_of(me).seat:  # type: ignore[union-attr]
                await asyncio.sleep(0.005)
                continue
            version = table.version
            await when_ready(partial(live_button, server, amal, "card", version))
            if plays == 1:  # from the second play on: the computers' processes have started
                writes_before = len([c for c in server.api_calls if c.method in WRITES])
            if plays == 8:  # the last play's answer is shown
                break
            await play_when_shown(server, world.app, amal, version)
            plays += 1
        writes = len([c for c in server.api_calls if c.method in WRITES]) - writes_before
        await world.basra.service.resign_in_chat(me, me)
        await world.basra.idle()
    # The play and the computer's answer in one edit of the hand; the round's message, with
    # no floor on it, is not edited; so each turn comes within about a second even when the
    # player presses as fast as the chat's one write a second lets them.
    assert writes <= plays - 1, (writes, plays)
    turns = timeline.turn_lags(server, ids(amal))
    assert len(turns) >= plays and max(turns) < TURN_BOUND, turns
    never_older(server.messages(chat, bot_only=True))


async def test_a_2v2_practice_with_three_computers_keeps_up(database: Path) -> None:
    server = live_server()
    alice = server.add_user("Alice", language_code="en")
    server.private_chat(alice)
    config = replace(QUIET, computer_delay=0.8)
    async with World(server, database, clock=SystemClock(), config=config) as world:
        timeline = Timeline.watch(world.basra.delivery)
        await world.send(alice, None, "/practice 4")
        chat = server.private_chat(alice)
        for _ in range(6):  # six of Alice's turns, pressed as soon as they show
            while True:
                table = await world.basra.service.open_table(f"tg:{alice.id}")
                assert isinstance(table, TableView) and table.running
                if table.to_move == table.seat_of(f"tg:{alice.id}").seat:  # type: ignore[union-attr]
                    break
                await asyncio.sleep(0.01)
            await play_when_shown(server, world.app, alice, table.version)
        await world.basra.service.resign_in_chat(f"tg:{alice.id}", f"tg:{alice.id}")
        await world.basra.idle()
    turns = timeline.turn_lags(server, ids(alice))
    assert len(turns) >= 6 and max(turns) < TURN_BOUND, turns
    never_older(server.messages(chat, bot_only=True))
    assert not any(m.deleted for m in server.messages(chat, bot_only=True))
