"""Playing someone online on Telegram: ``/play`` in the private chat puts a person in the
pairing pool with one waiting message, a wave pairs two strangers, and each plays the match
in their own private chat, in their own language, to a rated result, without ever seeing
the other's id, username or cards."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import re
from pathlib import Path

import pytest

from bots.service import ManualClock, Person, ServiceConfig, TableView
from core import Match, Rules
from tests.fakes import FakeMessage, FakeTelegram, FakeUser
from tests.telegram.conftest import SPEEDUP
from tests.telegram.world import QUIET, HandLedger, World

#: Waves run with the heartbeat (every second of the test's clock, a wave each 2 s); the
#: computer is offered after 10 s alone; two who met may meet again after 30 s.
POOL = dataclasses.replace(QUIET, heartbeat_seconds=1.0, pool_wave_seconds=2.0, pool_wait_seconds=10.0,
                           pool_apart_seconds=30.0)
#: A stranger match to this many points: two rounds, dealt the same way every run.
TARGET = 60
ARABIC = re.compile(r"[\u0600-\u06FF]")
CALLBACK_DATA = re.compile(r'"callback_data": "([^"]*)"')
#: The buttons under a stranger 1-v-1's result, by verb: Rematch, Play someone again, Block,
#: and two reactions (good game, thanks).
RESULT_VERBS = ["again", "seek", "block", "react", "react"]


def short_match(players: int, rules: Rules) -> Match:
    """A match to ``TARGET`` points, shuffled from a fixed seed."""
    return Match.new(players, dataclasses.replace(rules, target=TARGET), seed=11, dealer=players - 1)


def pool_world(server: FakeTelegram, database: Path, *, config: ServiceConfig = POOL,
               clock: ManualClock | None = None) -> World:
    world = World(server, database, config=config, clock=clock)
    world.basra.match_factory = short_match
    return world


def people(server: FakeTelegram) -> tuple[FakeUser, FakeUser]:
    """Amal reads English and Badr Arabic; their ids and usernames are what must never
    reach the other."""
    amal = server.add_user("Amal", username="amal_hidden", language_code="en", user_id=7_654_321)
    badr = server.add_user("بدر", username="badr_hidden", language_code="ar", user_id=8_765_432)
    for user in (amal, badr):
        server.private_chat(user)
    return amal, badr


def by_id(*users: FakeUser) -> dict[str, FakeUser]:
    return {f"tg:{u.id}": u for u in users}


def person(user: FakeUser) -> Person:
    return Person(f"tg:{user.id}", user.first_name, user.language_code)


def waiting(world: World, user: FakeUser) -> FakeMessage:
    """The user's newest waiting message (the one a search shows)."""
    found = [m for m in world.server.messages(world.server.private_chat(user), bot_only=True)
             if any(v.text.startswith(("Looking for an opponent", "أبحث لك")) for v in m.versions)]
    assert found, f"{user} has no waiting message"
    return found[-1]


def result_of(world: World, user: FakeUser) -> FakeMessage:
    """The user's newest message with a button that looks for someone again (a result)."""
    found = [m for m in world.server.messages(world.server.private_chat(user), bot_only=True)
             if world.buttons(m, "seek")]
    assert found, f"{user} has no result with a new search under it"
    return found[-1]


def verbs(message: FakeMessage) -> list[str]:
    return [data.split("|")[1] for data in message.button_data()]


async def waves(world: World, seconds: float) -> None:
    """Let the test's clock run (the heartbeat runs the pool's waves), then the writes go."""
    await world.clock.advance(seconds)
    await world.basra.idle()


async def state_of(world: World, user: FakeUser) -> str | None:
    status = await world.basra.service.pool_status(person(user))
    return status.state if status is not None else None


async def stranger_table(world: World, user: FakeUser) -> TableView:
    status = await world.basra.service.pool_status(person(user))
    assert status is not None and status.table_id is not None
    return await world.basra.service.table(status.table_id)


async def paired(world: World, first: FakeUser, second: FakeUser) -> TableView:
    """Both send /play, a wave seats them: their match."""
    await world.send(first, None, "/play")
    await world.send(second, None, "/play")
    await waves(world, 2)
    return await stranger_table(world, first)


async def play_stranger_match(world: World, table_id: str, users: dict[str, FakeUser]) -> int:
    """Play the match to its end by pressing each mover's card and confirm buttons."""
    plays = 0
    while (table := await world.basra.service.table(table_id)).running:
        assert table.to_move is not None
        mover = table.seats[table.to_move].player_id
        assert mover is not None
        await world.play_any(users[mover])
        plays += 1
        assert plays < 500, "the match does not end"
    return plays


def assert_nothing_of_the_other(server: FakeTelegram, amal: FakeUser, badr: FakeUser) -> None:
    """Every Bot API call made to one of them (a message, an edit, a press's answer) holds
    neither the other's id nor their username; no button payload holds anyone's id."""
    checked = 0
    for call in server.calls():
        params = call.params
        to = params.get("chat_id")
        if "callback_query_id" in params:
            record = server.callback_queries.get(str(params["callback_query_id"]))
            to = record.user.id if record is not None else None
        if to not in (amal.id, badr.id):
            continue
        other = badr if to == amal.id else amal
        shown = json.dumps(params, ensure_ascii=False, default=str)
        assert str(other.id) not in shown and str(other.username) not in shown, (call.method, shown)
        for data in CALLBACK_DATA.findall(shown):
            assert str(amal.id) not in data and str(badr.id) not in data, data
        checked += 1
    assert checked > 50, "nothing was checked"


def quiet_logs(caplog: pytest.LogCaptureFixture, *users: FakeUser) -> None:
    """Nothing went wrong enough to warn about, and no log line names anyone."""
    for record in caplog.records:
        assert record.levelno < logging.WARNING, record.getMessage()
        for user in users:
            assert str(user.id) not in record.getMessage(), record.getMessage()


async def test_two_strangers_are_paired_and_play_a_rated_match_each_in_their_own_chat(
    server: FakeTelegram, database: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bots")
    amal, badr = people(server)
    async with pool_world(server, database) as world:
        ledger = HandLedger.watch(world)
        await world.send(amal, None, "/play")
        first = waiting(world, amal)
        assert "Your rating: 1500 (provisional)" in first.text
        assert "Nobody else is looking right now." in first.text
        assert first.button_data() == ["b1|unseek||0"]
        await world.clock.advance(1)
        await world.send(badr, None, "/play")
        second = waiting(world, badr)
        assert "تصنيفك: 1500 (مؤقت)" in second.text
        assert "شخصان يبحثان" in second.text  # two are looking, Badr one of them

        await waves(world, 2)

        table = await stranger_table(world, amal)
        assert table.running and table.rated and not table.practice
        assert {s.name for s in table.seats} == {"Amal", "بدر"}
        found = waiting(world, amal)
        assert found.message_id == first.message_id  # the same message, edited
        assert found.text.startswith("Opponent found: \u2068بدر\u2069\nYour match begins below")
        assert not found.button_data()
        assert waiting(world, badr).text.startswith("وجدت لك منافسًا: \u2068Amal\u2069")
        # Each has their cards at once: the first to move a hand, the other the cards they hold.
        mover = amal if table.seats[table.to_move or 0].player_id == f"tg:{amal.id}" else badr
        world.hand_message(mover)
        held = world.latest_private(badr if mover is amal else amal)
        assert ("Your hand: " in held.text or "ورقك: " in held.text) and not held.button_data()

        plays = await play_stranger_match(world, table.table_id, by_id(amal, badr))
        assert plays == 96  # two rounds of 2 × 24 cards
        done = await world.basra.service.table(table.table_id)
        assert not done.running and done.winner is not None

        ends = {amal.id: ("The match is over", "Round 1 is over", "rating 1500 → "),
                badr.id: ("انتهت المباراة", "انتهت الجولة 1", "التصنيف 1500 ← ")}
        for user in (amal, badr):
            over, round_over, rating = ends[user.id]
            shown = server.messages(server.private_chat(user), bot_only=True)
            result = shown[-1]
            assert over in result.text and rating in result.text
            assert bool(ARABIC.search(result.text.replace("بدر", ""))) == (user is badr)
            # The pool's rematch (never a lobby's, which would open nowhere), a new search, Block,
            # and the reactions that suit a match's end.
            assert verbs(result) == RESULT_VERBS
            assert world.buttons(result, "again") == [f"b1|again|{table.table_id}|{done.version}"]
            assert sum(round_over in m.text for m in shown) == 1  # round 1's points, posted once
            assert all(m.message_id < result.message_id for m in world.hand_messages(user))
            assert not any(world.buttons(m, "card") for m in shown)  # no live hand is left

        await world.send(amal, None, "/top")
        board = server.last_message(server.private_chat(amal))
        assert "Amal" in board.text and "بدر" in board.text
        for user in (amal, badr):
            stats = await world.basra.service.stats(f"tg:{user.id}", None)
            assert stats.line is not None and stats.line.matches == 1 and stats.line.rating != 1500
    ledger.assert_no_leak(server, None, [amal, badr])
    assert_nothing_of_the_other(server, amal, badr)
    assert not server.unanswered_callback_queries()
    quiet_logs(caplog, amal, badr)


async def test_cancel_leaves_the_pool_and_a_second_cancel_says_so(
    server: FakeTelegram, database: Path
) -> None:
    amal, _ = people(server)
    async with pool_world(server, database) as world:
        await world.send(amal, None, "/play")
        message = waiting(world, amal)
        cancel = world.buttons(message, "unseek")[0]
        pressed = await world.press(amal, message, cancel)
        stopped = server.last_message(server.private_chat(amal))
        assert stopped.message_id == message.message_id
        assert stopped.text == "You stopped looking for an opponent.\nSend /play to look again."
        assert not stopped.button_data()
        assert await state_of(world, amal) is None
        answer = server.callback_answer(pressed)
        assert answer is not None and not answer.text

        again = await world.forge(amal, message, cancel)  # the old button, pressed again
        answer = server.callback_answer(again)
        assert answer is not None
        assert answer.text == "You are not waiting for an opponent now."
        assert server.last_message(server.private_chat(amal)).text == stopped.text


async def test_play_twice_is_one_search_with_one_waiting_message(
    server: FakeTelegram, database: Path
) -> None:
    amal, _ = people(server)
    async with pool_world(server, database) as world:
        await world.send(amal, None, "/play")
        await world.send(amal, None, "/play")
        chat = server.private_chat(amal)
        assert server.last_message(chat).text == (
            "I am already looking for an opponent for you: my waiting message shows how it goes.")
        assert len([m for m in server.messages(chat, bot_only=True) if world.buttons(m, "unseek")]) == 1
        assert world.basra.store is not None
        entries = await world.basra.store.pool_entries(["tg"])
        assert [e.player_id for e in entries] == [f"tg:{amal.id}"]


async def test_play_while_playing_says_to_resign_first(server: FakeTelegram, database: Path) -> None:
    amal, _ = people(server)
    async with pool_world(server, database) as world:
        await world.send(amal, None, "/practice")
        await world.send(amal, None, "/play")
        assert server.last_message(server.private_chat(amal)).text == (
            "You are playing a match already. Finish it first, or resign it with /resign.")
        assert await state_of(world, amal) is None


async def test_someone_alone_is_offered_the_computer_and_plays_it(
    server: FakeTelegram, database: Path
) -> None:
    amal, _ = people(server)
    chat = server.private_chat(amal)
    async with pool_world(server, database) as world:
        await world.send(amal, None, "/play")
        await waves(world, POOL.pool_wait_seconds - 2)
        assert verbs(waiting(world, amal)) == ["unseek"]
        await waves(world, 3)
        offer = waiting(world, amal)
        assert "Play the computer (beginner) now, or keep waiting." in offer.text
        assert re.search("Time waited: \u20660:1[0-9]\u2069", offer.text)
        assert verbs(offer) == ["solo", "wait", "unseek"]

        kept = await world.press_verb(amal, offer, "wait")
        answer = server.callback_answer(kept)
        assert answer is not None and not answer.text
        still = waiting(world, amal)
        assert still.message_id == offer.message_id and verbs(still) == ["solo", "wait", "unseek"]
        assert await state_of(world, amal) == "waiting"

        await world.press_verb(amal, still, "solo")
        chose = next(m for m in server.messages(chat, bot_only=True) if m.message_id == offer.message_id)
        assert chose.text == "You chose to play the computer (beginner): the practice match begins below."
        assert not chose.button_data()
        assert await state_of(world, amal) is None
        table = await world.table(chat)
        assert table is not None and table.practice and table.running
        world.hand_message(amal)


async def test_resign_in_private_resigns_the_stranger_match(server: FakeTelegram, database: Path) -> None:
    amal, badr = people(server)
    async with pool_world(server, database) as world:
        table = await paired(world, amal, badr)
        await world.send(badr, None, "/play")  # playing already: nothing changes
        assert "/resign" in server.last_message(server.private_chat(badr)).text
        assert (await world.basra.service.table(table.table_id)).running

        command = (await world.send(badr, None, "/resign")).effective_message
        assert command is not None
        answer = server.last_message(server.private_chat(badr))
        assert answer.reply_to is not None and answer.reply_to.message_id == command.message_id
        assert answer.text.startswith("انسحبت.")
        done = await world.basra.service.table(table.table_id)
        assert not done.running and done.status == "finished"
        result = result_of(world, amal)
        assert "\u2068Amal\u2069 won!" in result.text and "\u2068بدر\u2069 resigned." in result.text
        assert verbs(result) == RESULT_VERBS


async def test_block_keeps_two_apart_for_good(server: FakeTelegram, database: Path) -> None:
    amal, badr = people(server)
    async with pool_world(server, database) as world:
        await paired(world, amal, badr)
        await world.send(badr, None, "/resign")
        result = result_of(world, amal)

        blocked = await world.press_verb(amal, result, "block")
        answer = server.callback_answer(blocked)
        assert answer is not None and answer.text == "You will not be paired with \u2068بدر\u2069 again."
        assert verbs(result) == ["seek"]  # Block did its work

        await waves(world, POOL.pool_apart_seconds)  # they could meet again by now, but for Block
        await world.press_verb(amal, result, "seek")
        assert waiting(world, amal).message_id > result.message_id
        await world.send(badr, None, "/play")
        await waves(world, 20)  # however long they wait, they are never paired
        assert await state_of(world, amal) == await state_of(world, badr) == "waiting"


async def test_play_someone_again_meets_the_same_stranger_once_a_while_has_passed(
    server: FakeTelegram, database: Path
) -> None:
    amal, badr = people(server)
    async with pool_world(server, database) as world:
        first = await paired(world, amal, badr)
        await world.send(badr, None, "/resign")
        await world.press_verb(amal, result_of(world, amal), "seek")
        await world.press_verb(badr, result_of(world, badr), "seek")
        await waves(world, 4)  # they just met: not at once
        assert await state_of(world, amal) == "waiting"
        await waves(world, POOL.pool_apart_seconds)
        again = await stranger_table(world, amal)
        assert again.table_id != first.table_id and again.running
        assert waiting(world, badr).text.startswith("وجدت لك منافسًا")


async def test_a_restarted_bot_edits_the_same_waiting_message_and_goes_on_with_the_match(
    server: FakeTelegram, database: Path
) -> None:
    amal, badr = people(server)
    users = by_id(amal, badr)
    clock = ManualClock()
    async with pool_world(server, database, clock=clock) as first:
        await first.send(amal, None, "/play")
        message = waiting(first, amal)
    await asyncio.sleep(3.0 / SPEEDUP)  # a new process takes seconds: the flood windows passed
    async with pool_world(server, database, clock=clock) as second:
        await second.send(badr, None, "/play")
        await waves(second, 2)
        found = waiting(second, amal)
        assert found.message_id == message.message_id and found.text.startswith("Opponent found: ")
        table = await stranger_table(second, amal)
        for _ in range(6):
            table = await second.basra.service.table(table.table_id)
            assert table.to_move is not None
            await second.play_any(users[table.seats[table.to_move].player_id or ""])
        privates = {u.id: len(server.messages(server.private_chat(u), bot_only=True)) for u in (amal, badr)}
    await asyncio.sleep(3.0 / SPEEDUP)
    async with pool_world(server, database, clock=clock) as third:
        for user in (amal, badr):  # nothing is posted again
            assert len(server.messages(server.private_chat(user), bot_only=True)) == privates[user.id]
        await play_stranger_match(third, table.table_id, users)
        for user in (amal, badr):
            assert verbs(server.last_message(server.private_chat(user))) == RESULT_VERBS


async def test_play_in_a_group_points_to_the_private_chat(server: FakeTelegram, database: Path) -> None:
    amal, _ = people(server)
    group = server.add_group("Cafe", [amal])
    async with pool_world(server, database) as world:
        await world.send(amal, group, "/play")
        answer = server.last_message(group)
        assert answer.text.startswith("Playing someone online happens in our private chat")
        [button] = [b for row in answer.buttons for b in row]
        assert button.url == f"https://t.me/{world.app.bot.username}?start=play"
        assert await state_of(world, amal) is None

        await world.send(amal, None, "/start play")  # the button opens the private chat: Start
        assert waiting(world, amal).button_data() == ["b1|unseek||0"]


@pytest.mark.parametrize("where", ["welcome", "practice result"])
async def test_a_button_plays_someone_online(server: FakeTelegram, database: Path, where: str) -> None:
    amal, _ = people(server)
    chat = server.private_chat(amal)
    async with pool_world(server, database) as world:
        if where == "welcome":
            await world.send(amal, None, "/start")
        else:
            await world.basra.service.set_rules(f"tg:{amal.id}", target=10)
            await world.send(amal, None, "/practice")
            while await world.table(chat) is not None:
                await world.play_any(amal)
        shown = server.last_message(chat)
        assert world.buttons(shown, "seek") == ["b1|seek||0"]
        await world.press_verb(amal, shown, "seek")
        assert waiting(world, amal).message_id > shown.message_id
        assert await state_of(world, amal) == "waiting"
