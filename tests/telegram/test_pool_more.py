"""Playing someone online on Telegram, further: two against two between four strangers, the
rematch both must ask for, the canned reactions (the only words that pass between strangers),
the online ladder, and a card's preview told in its press's answer wherever a match is played
in a private chat, so that a play costs about one of the chat's writes."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import re
from pathlib import Path

import pytest

from bots.service import ManualClock
from bots.telegram import presses
from tests.fakes import FakeMessage, FakeTelegram, FakeUser
from tests.service.helpers import deck_for, factory
from tests.telegram.conftest import SPEEDUP
from tests.telegram.test_pool import (
    CALLBACK_DATA,
    POOL,
    by_id,
    paired,
    people,
    play_stranger_match,
    pool_world,
    quiet_logs,
    result_of,
    state_of,
    stranger_table,
    verbs,
    waves,
)
from tests.telegram.world import HandLedger, World, told_preview

#: The words each reaction's button and message show, by key, in English and Arabic.
REACTIONS = {
    "good_luck": ("👋 Good luck", "👋 بالتوفيق"),
    "well_played": ("👏 Well played", "👏 أحسنت اللعب"),
    "good_game": ("🤝 Good game", "🤝 مباراة جميلة"),
    "thanks": ("🙏 Thanks", "🙏 شكرًا"),
}
#: Under a 2-v-2's result: a new search, Block and two reactions; no rematch (a 1-v-1's only).
RESULT_OF_FOUR = ["seek", "block", "react", "react"]
WRITES = ("sendMessage", "editMessageText", "editMessageReplyMarkup")
#: Card runs as the answers show them (isolated left to right).
QUEEN, SEVEN, FLOOR = "\u2066Q♦\u2069", "\u20667♣\u2069", "\u20662♠ 3♣ 4♦ 5♥\u2069"


def dealt(server: FakeTelegram, database: Path) -> World:
    """A world whose practice deals the first player 9♥ (two plans), 7♣ (a basra: the whole
    floor), Q♦ (nothing) and 10♠, with 2♠ 3♣ 4♦ 5♥ on the floor."""
    world = World(server, database)
    world.basra.match_factory = factory(deck_for(["9H 7C QD 10S", "3H 8D KS 6C"], "2S 3C 4D 5H"))
    return world


def isolated(name: str) -> str:
    return f"\u2068{name}\u2069"


def four(server: FakeTelegram) -> list[FakeUser]:
    """Amal and Carla read English, Badr and Dina Arabic."""
    users = [
        server.add_user("Amal", username="amal_hidden", language_code="en", user_id=7_000_001),
        server.add_user("بدر", username="badr_hidden", language_code="ar", user_id=7_000_002),
        server.add_user("Carla", username="carla_hidden", language_code="en", user_id=7_000_003),
        server.add_user("دينا", username="dina_hidden", language_code="ar", user_id=7_000_004),
    ]
    for user in users:
        server.private_chat(user)
    return users


def newest_with(world: World, user: FakeUser, *starts: str) -> FakeMessage:
    """The user's newest bot message whose text (any version) starts with one of ``starts``."""
    found = [m for m in world.server.messages(world.server.private_chat(user), bot_only=True)
             if any(v.text.startswith(starts) for v in m.versions)]
    assert found, f"{user} has no message starting with {starts}"
    return found[-1]


def nothing_of_the_others(server: FakeTelegram, users: list[FakeUser]) -> int:
    """Every Bot API call made to one of ``users`` (a message, an edit, a press's answer) holds
    no other's id nor username, and no button payload holds anyone's id; how many were checked."""
    checked = 0
    ids = {u.id: u for u in users}
    for call in server.calls():
        params = call.params
        to = params.get("chat_id")
        if "callback_query_id" in params:
            record = server.callback_queries.get(str(params["callback_query_id"]))
            to = record.user.id if record is not None else None
        if to not in ids:
            continue
        shown = json.dumps(params, ensure_ascii=False, default=str)
        for other in users:
            if other.id != to:
                assert str(other.id) not in shown and str(other.username) not in shown, (call.method, shown)
        for data in CALLBACK_DATA.findall(shown):
            assert not any(str(u.id) in data for u in users), data
        checked += 1
    return checked


async def test_four_strangers_play_two_against_two_each_in_their_own_chat(
    server: FakeTelegram, database: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bots")
    users = four(server)
    amal, dina = users[0], users[3]
    async with pool_world(server, database) as world:
        ledger = HandLedger.watch(world)
        for user in users:
            await world.send(user, None, "/play 2v2")
        looking = newest_with(world, amal, "Looking for players: two against two…")
        assert looking.button_data() == ["b1|invite||0", "b1|unseek||0"]  # Bring a partner, Cancel
        assert "4 أشخاص يبحثون، وأنت منهم." in newest_with(
            world, dina, "أبحث عن لاعبين: اثنان ضد اثنين…").text
        assert await state_of(world, amal) == "waiting"

        await waves(world, 2)

        table = await stranger_table(world, amal)
        assert table.running and table.mode == "2v2" and len(table.seats) == 4
        assert [s.team for s in table.seats] == [0, 1, 0, 1]  # partners face each other
        names = {f"tg:{u.id}": u.first_name for u in users}
        for user in users:
            assert await state_of(world, user) == "seated"
            mine = table.seat_of(f"tg:{user.id}")
            assert mine is not None
            partner = next(names[s.player_id or ""] for s in table.seats
                           if s.team == mine.team and s.player_id != f"tg:{user.id}")
            others = [names[s.player_id or ""] for s in table.seats if s.team != mine.team]
            found = newest_with(world, user, "Players found: two against two", "وجدت لاعبين: اثنان ضد اثنين")
            assert not found.button_data()
            _, partner_line, opponents_line, below = found.text.split("\n")
            assert partner_line in (f"Your partner: {isolated(partner)}", f"شريكك: {isolated(partner)}")
            assert opponents_line.startswith(("Opponents: ", "منافساك: "))
            assert all(isolated(name) in opponents_line for name in others)
            assert isolated(partner) not in opponents_line
            assert below.startswith(("Your match begins below", "تبدأ مباراتك"))

        plays = await play_stranger_match(world, table.table_id, by_id(*users))
        assert plays % 48 == 0  # whole rounds of 4 × 12 cards
        done = await world.basra.service.table(table.table_id)
        assert not done.running and done.winner is not None
        for user in users:
            shown = server.messages(server.private_chat(user), bot_only=True)
            result = shown[-1]
            assert "The match is over" in result.text or "انتهت المباراة" in result.text
            assert verbs(result) == RESULT_OF_FOUR
            assert sum(m.text.startswith(("Round 1 is over", "انتهت الجولة 1")) or
                       "\nRound 1 is over" in m.text or "\nانتهت الجولة 1" in m.text for m in shown) == 1
            assert not any(world.buttons(m, "card") for m in shown)  # no live hand is left
            stats = await world.basra.service.stats(f"tg:{user.id}", None)
            assert stats.line is not None and stats.line.matches == 1
    ledger.assert_no_leak(server, None, users)
    assert nothing_of_the_others(server, users) > 100
    assert not server.unanswered_callback_queries()
    quiet_logs(caplog, *users)


async def test_a_two_against_two_resigned_is_lost_by_the_resigner_s_team_and_told_to_all_four(
    server: FakeTelegram, database: Path
) -> None:
    users = four(server)
    async with pool_world(server, database) as world:
        for user in users:
            await world.send(user, None, "/play 4")
        await waves(world, 2)
        table = await stranger_table(world, users[0])
        everyone = by_id(*users)
        for _ in range(8):  # two plays each
            current = await world.basra.service.table(table.table_id)
            assert current.to_move is not None
            await world.play_any(everyone[current.seats[current.to_move].player_id or ""])
        resigner = everyone[table.seats[3].player_id or ""]
        await world.send(resigner, None, "/resign")
        done = await world.basra.service.table(table.table_id)
        assert done.status == "finished" and done.winner == 0  # seat 3 is of side 1
        for user in users:
            result = result_of(world, user)
            name = isolated(resigner.first_name)
            assert f"{name} resigned." in result.text or f"انسحاب {name}." in result.text
            assert verbs(result) == RESULT_OF_FOUR
        assert nothing_of_the_others(server, users) > 20


async def test_a_rematch_begins_once_both_ask_and_one_alone_only_waits(
    server: FakeTelegram, database: Path
) -> None:
    amal, badr = people(server)
    carla = server.add_user("Carla", username="carla_hidden", language_code="en", user_id=9_000_003)
    server.private_chat(carla)
    async with pool_world(server, database) as world:
        first = await paired(world, amal, badr)
        await world.send(badr, None, "/resign")
        result = result_of(world, amal)
        asked = await world.press_verb(amal, result, "again")
        answer = server.callback_answer(asked)
        assert answer is not None and not answer.show_alert
        assert answer.text == (f"You asked {isolated('بدر')} for a rematch: it begins as soon as they press "
                               "Rematch too.")
        waiting = newest_with(world, amal, "Rematch with")
        assert waiting.message_id > result.message_id
        assert waiting.text.startswith(f"Rematch with {isolated('بدر')}: waiting for them…")
        assert waiting.button_data() == ["b1|unseek||0"]

        # Someone else looking is not paired with one who waits for their rematch.
        await world.send(carla, None, "/play")
        await waves(world, 6)
        assert await state_of(world, amal) == "waiting" and await state_of(world, carla) == "waiting"
        await waves(world, 6)  # the wait is over: the computer is offered, naming whom it waits for
        offer = newest_with(world, amal, "Rematch with")
        assert offer.message_id == waiting.message_id
        assert (f"{isolated('بدر')} has not pressed Rematch yet. Play the computer (beginner) now, or keep "
                "waiting.") in offer.text
        kept = await world.press_verb(amal, offer, "wait")
        assert server.callback_answer(kept) is not None
        assert newest_with(world, amal, "Rematch with").text.startswith(f"Rematch with {isolated('بدر')}")

        await world.press_verb(badr, result_of(world, badr), "again")
        assert newest_with(world, badr, "إعادة المباراة مع").text.startswith(
            f"إعادة المباراة مع {isolated('Amal')}: في الانتظار…")
        await waves(world, 2)
        again = await stranger_table(world, amal)
        assert again.table_id != first.table_id and again.running
        assert {s.player_id for s in again.seats} == {f"tg:{amal.id}", f"tg:{badr.id}"}
        assert (await stranger_table(world, badr)).table_id == again.table_id
        assert await state_of(world, carla) == "waiting"
        found = newest_with(world, amal, "Opponent found")
        assert found.text.startswith(f"Opponent found: {isolated('بدر')}")
    assert nothing_of_the_others(server, [amal, badr, carla]) > 20


async def test_a_rematch_asked_while_the_match_runs_is_refused(server: FakeTelegram, database: Path) -> None:
    amal, badr = people(server)
    async with pool_world(server, database) as world:
        table = await paired(world, amal, badr)
        # An old Rematch button of another match, forged with this one's table: the pool says no.
        forged = f"b1|again|{table.table_id}|{table.version}"
        refused = await world.forge(amal, world.latest_private(amal), forged)
        answer = server.callback_answer(refused)
        assert answer is not None and answer.show_alert
        assert await state_of(world, amal) == "seated"
        assert (await world.basra.service.table(table.table_id)).running


async def test_reactions_reach_the_other_with_the_sender_s_name_only_a_few_a_minute(
    server: FakeTelegram, database: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bots")
    amal, badr = people(server)
    # Turns long enough that a minute passes within one.
    async with pool_world(server, database, config=dataclasses.replace(POOL, pool_turn_seconds=600)) as world:
        table = await paired(world, amal, badr)
        users = by_id(amal, badr)
        mover = users[table.seats[table.to_move or 0].player_id or ""]
        other = badr if mover is amal else amal
        hand = world.hand_message(mover)
        rows = [[b.callback_data for b in row] for row in hand.buttons]
        assert rows[-2:] == [  # two to a row, under the cards
            [f"b1|react|{table.table_id}|0|||good_luck", f"b1|react|{table.table_id}|0|||well_played"],
            [f"b1|react|{table.table_id}|0|||good_game", f"b1|react|{table.table_id}|0|||thanks"],
        ]
        mine = 0 if mover is amal else 1
        assert [b.text for row in hand.buttons[-2:] for b in row] == [REACTIONS[k][mine] for k in REACTIONS]
        before = len(server.messages(server.private_chat(other), bot_only=True))
        edits = len(hand.versions)

        sent = []
        for key in ("good_luck", "well_played", "thanks", "good_game"):
            pressed = await world.press(mover, hand, f"b1|react|{table.table_id}|0|||{key}")
            sent.append(server.callback_answer(pressed))
        for answer, key in zip(sent[:3], ("good_luck", "well_played", "thanks"), strict=True):
            assert answer is not None and not answer.show_alert
            assert answer.text == ("Sent: " if mover is amal else "أُرسلت: ") + REACTIONS[key][mine]
        fourth = sent[3]
        assert fourth is not None and fourth.show_alert
        refusal = (r"That is enough reactions for now: try again in \u2066?\d+\u2069? s\." if mover is amal
                   else r"يكفي هذا القدر من التفاعلات الآن: حاول مرة أخرى بعد \u2066?\d+\u2069? ث\.")
        assert re.fullmatch(refusal, fourth.text or ""), fourth.text
        assert len(hand.versions) == edits  # a reaction costs the sender's chat no write

        shown = server.messages(server.private_chat(other), bot_only=True)[before:]
        theirs = 1 - mine
        assert [m.text for m in shown] == [f"{isolated(mover.first_name)}: {REACTIONS[k][theirs]}"
                                           for k in ("good_luck", "well_played", "thanks")]
        assert all(not m.button_data() for m in shown)

        await world.clock.advance(61)  # a minute later, one more goes
        again = await world.press(mover, hand, f"b1|react|{table.table_id}|0|||good_game")
        answer = server.callback_answer(again)
        assert answer is not None and not answer.show_alert
        await world.basra.idle()
        said = world.latest_private(other).text
        assert said == f"{isolated(mover.first_name)}: {REACTIONS['good_game'][theirs]}"

        # Under the result, the words that suit a match's end.
        await world.send(other, None, "/resign")
        await world.clock.advance(61)
        result = result_of(world, other)
        assert world.buttons(result, "react") == [f"b1|react|{table.table_id}|0|||good_game",
                                                  f"b1|react|{table.table_id}|0|||thanks"]
        await world.press_verb(other, result, "react", 1)
        said = world.latest_private(mover).text
        assert said == f"{isolated(other.first_name)}: {REACTIONS['thanks'][mine]}"
    assert nothing_of_the_others(server, [amal, badr]) > 20
    quiet_logs(caplog, amal, badr)


async def test_a_reaction_outside_a_stranger_match_is_refused(server: FakeTelegram, database: Path) -> None:
    amal = server.add_user("Amal", language_code="en")
    chat = server.private_chat(amal)
    async with World(server, database) as world:
        await world.send(amal, None, "/practice")
        table = await world.table(chat)
        assert table is not None
        hand = world.hand_message(amal)
        assert not world.buttons(hand, "react")  # practice has nobody to react to
        before = len(server.messages(chat, bot_only=True))
        pressed = await world.forge(amal, hand, f"b1|react|{table.table_id}|0|||thanks")
        answer = server.callback_answer(pressed)
        assert answer is not None and answer.show_alert
        assert len(server.messages(chat, bot_only=True)) == before


async def test_top_online_ranks_the_players_of_stranger_matches_only(
    server: FakeTelegram, database: Path
) -> None:
    amal, badr = people(server)
    carla = server.add_user("Carla", language_code="en", user_id=9_000_003)
    dina = server.add_user("Dina", language_code="en", user_id=9_000_004)
    for user in (carla, dina):
        server.private_chat(user)
    group = server.add_group("Cafe", [carla, dina])
    chat = server.private_chat(amal)
    async with pool_world(server, database) as world:
        await paired(world, amal, badr)
        await world.send(badr, None, "/resign")
        await world.send(carla, group, "/newgame")
        lobby = server.last_message(group)
        await world.press_verb(dina, lobby, "join")
        await world.press_verb(carla, lobby, "start")
        await world.send(dina, group, "/resign")
        assert (await world.finished(group)).status == "finished"

        await world.send(amal, None, "/top online")
        online = server.last_message(chat)
        lines = online.text.split("\n")
        assert lines[:2] == ["Online ladder", "Only matches with players found online count here."]
        assert lines[2].startswith(f"1. {isolated('Amal')}: ")  # Amal won
        assert lines[3].startswith(f"2. {isolated('بدر')}: ")
        assert len(lines) == 4 and "Carla" not in online.text
        assert world.buttons(online, "top") == ["b1|top||0|||all"]

        await world.send(amal, None, "/top")
        everyone = server.last_message(chat)
        assert everyone.text.startswith("Leaderboard\n")
        assert "Carla" in everyone.text and "Amal" in everyone.text
        assert world.buttons(everyone, "top") == ["b1|top||0|||online"]
        await world.press_verb(amal, everyone, "top")
        assert everyone.text == online.text  # the same message shows the ladder in place
        assert world.buttons(everyone, "top") == ["b1|top||0|||all"]
        await world.press_verb(amal, everyone, "top")
        assert everyone.text.startswith("Leaderboard\n") and "Carla" in everyone.text

        await world.send(carla, group, "/top online")  # in a group: the ladder, no switch
        board = server.last_message(group)
        assert board.text.startswith("Online ladder\n") and not board.button_data()
        await world.send(carla, group, "/top")
        assert "Amal" not in server.last_message(group).text  # the group's own board


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_private_chat_match_tells_a_card_s_preview_in_its_answer_and_a_second_press_plays_it(
    server: FakeTelegram, database: Path, lang: str
) -> None:
    amal = server.add_user("Amal", language_code=lang)
    chat = server.private_chat(amal)
    # Amal plays first: 9♥ has two plans, 7♣ takes the whole floor, Q♦ takes nothing.
    async with dealt(server, database) as world:
        await world.send(amal, None, "/practice")
        table = await world.table(chat)
        assert table is not None and table.seats[0].player_id == f"tg:{amal.id}"
        hand = world.hand_message(amal)
        shown = len(hand.versions)
        writes = len([c for c in server.calls() if c.method in WRITES])

        nothing = await world.press(amal, hand, f"b1|card|{table.table_id}|{table.version}|QD")
        said = server.callback_answer(nothing)
        assert said is not None and not said.show_alert
        assert said.text == {
            "en": f"{QUEEN} takes nothing: it stays on the floor. Press {QUEEN} again to play it.",
            "ar": f"{QUEEN} لا تأكل شيئًا: ستبقى على الأرض. اضغط {QUEEN} مرة أخرى لتلعبها.",
        }[lang]
        basra = await world.press(amal, hand, f"b1|card|{table.table_id}|{table.version}|7C")
        said = server.callback_answer(basra)
        assert said is not None and said.text == {
            "en": f"{SEVEN} takes {FLOOR} · basra! Press {SEVEN} again to play it.",
            "ar": f"{SEVEN} تأكل {FLOOR} · باصرة! اضغط {SEVEN} مرة أخرى لتلعبها.",
        }[lang]
        # The previews cost no write: the hand is as it was, and nothing was played.
        assert len(hand.versions) == shown
        assert len([c for c in server.calls() if c.method in WRITES]) == writes
        assert (await world.table(chat)).version == table.version  # type: ignore[union-attr]

        # Q♦ again (7♣ was pressed since): previewed again, not played.
        again = await world.press(amal, hand, f"b1|card|{table.table_id}|{table.version}|QD")
        assert told_preview(server, again)
        assert (await world.table(chat)).version == table.version  # type: ignore[union-attr]

        # A card with two plans is previewed in the hand, each plan a button.
        choice = await world.press(amal, hand, f"b1|card|{table.table_id}|{table.version}|9H")
        answer = server.callback_answer(choice)
        assert answer is not None and not answer.text
        assert world.buttons(hand, "plan") and world.buttons(hand, "play")
        assert len(hand.versions) == shown + 1
        await world.press(amal, hand, world.buttons(hand, "plan")[1])
        assert world.buttons(hand, "play") == [f"b1|play|{table.table_id}|{table.version}|9H|2"]
        await world.press_verb(amal, hand, "back")
        assert world.buttons(hand, "card")

        # A second press on the card just previewed plays it: what the preview told.
        first = await world.press(amal, hand, f"b1|card|{table.table_id}|{table.version}|7C")
        assert told_preview(server, first)
        await world.press(amal, hand, f"b1|card|{table.table_id}|{table.version}|7C")
        after = await world.table(chat)
        assert after is not None and after.version > table.version
        held = await world.basra.service.hand(table.table_id, f"tg:{amal.id}")
        assert "7C" not in held.hand and len(held.hand) == 3
        # The play and the computer's answer show in one edit of the same hand: it tells the
        # play first, and offers the next turn's cards, 7♣ no longer among them.
        played = next(m for m in server.messages(chat, bot_only=True) if m.message_id == hand.message_id)
        assert played is world.hand_message(amal) and SEVEN in played.text.splitlines()[0]
        assert {d.split("|")[3] for d in world.buttons(played, "card")} == {str(after.version)}
        assert "7C" not in {d.split("|")[4] for d in world.buttons(played, "card")}


async def test_a_second_press_too_late_or_on_an_older_hand_only_previews(
    server: FakeTelegram, database: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    amal = server.add_user("Amal", language_code="en")
    chat = server.private_chat(amal)
    async with dealt(server, database) as world:
        await world.send(amal, None, "/practice")
        table = await world.table(chat)
        assert table is not None
        hand = world.hand_message(amal)
        monkeypatch.setattr(presses, "CONFIRM_SECONDS", 0.0)
        for _ in range(2):
            pressed = await world.press(amal, hand, f"b1|card|{table.table_id}|{table.version}|QD")
            assert told_preview(server, pressed)
        assert (await world.table(chat)).version == table.version  # type: ignore[union-attr]
        monkeypatch.setattr(presses, "CONFIRM_SECONDS", 10.0)
        await world.play_any(amal)
        now = await world.table(chat)
        assert now is not None and now.version > table.version
        # The first hand is a short line now: an old press on it plays nothing.
        old = await world.forge(amal, hand, f"b1|card|{table.table_id}|{table.version}|QD")
        answer = server.callback_answer(old)
        assert answer is not None and not told_preview(server, old)
        assert (await world.table(chat)).version == now.version  # type: ignore[union-attr]


async def test_a_match_found_before_the_waiting_message_went_out_is_told_above_its_cards(
    database: Path
) -> None:
    server = FakeTelegram()  # Telegram's own pace: a private chat takes 3 writes in 3 s
    amal, badr = people(server)
    async with pool_world(server, database) as world:
        for _ in range(3):  # Amal's chat spends its budget: her waiting message must wait
            await server.deliver(world.app, server.user_sends(amal, None, "/rules"))
        for user in (amal, badr):
            await server.deliver(world.app, server.user_sends(user, None, "/play"))
        assert await world.basra.service.pool_wave() == 1  # at once, her waiting message still queued
        await world.basra.idle()
        for user in (amal, badr):
            shown = [m for m in server.messages(server.private_chat(user), bot_only=True)
                     if not m.text.startswith("How Basra is played")]
            found = newest_with(world, user, "Opponent found", "وجدت لك منافسًا")
            assert found.text.endswith(("your cards come here with your turn.", "يصلك ورقك هنا مع دورك."))
            assert found is shown[0], [m.text[:30] for m in shown]  # "your match begins below": above it


async def test_a_restarted_bot_still_names_whom_a_rematch_waits_for(
    server: FakeTelegram, database: Path
) -> None:
    amal, badr = people(server)
    clock = ManualClock()
    async with pool_world(server, database, clock=clock) as first:
        await paired(first, amal, badr)
        await first.send(badr, None, "/resign")
        await first.press_verb(amal, result_of(first, amal), "again")
        asked = newest_with(first, amal, "Rematch with")
    await asyncio.sleep(3.0 / SPEEDUP)  # a new process takes seconds: the flood windows passed
    async with pool_world(server, database, clock=clock) as second:
        await waves(second, 12)  # the wait is over: the computer is offered, in the same message
        offer = newest_with(second, amal, "Rematch with")
        assert offer.message_id == asked.message_id
        assert offer.text.startswith(f"Rematch with {isolated('بدر')}: waiting for them…")
        assert f"{isolated('بدر')} has not pressed Rematch yet." in offer.text
