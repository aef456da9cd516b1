"""Restarts, flood control, network errors and logs: nothing lost, nothing leaked, no crash."""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bots.service import ManualClock, TableUpdated
from bots.telegram import delivery
from bots.telegram.delivery import content_of
from bots.telegram.logs import CardRedactor, redact
from tests.fakes import FakeChat, FakeTelegram, FakeUser, FloodLimit
from tests.telegram.conftest import SPEEDUP
from tests.telegram.test_presses import dealt, press_card
from tests.telegram.world import CARD_LABEL, HandLedger, World, ids, to_move


def players(server: FakeTelegram) -> tuple[FakeUser, FakeUser, FakeChat]:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    return alice, badr, server.add_group("Cafe", [alice, badr])


async def start_match(world: World, group: FakeChat, alice: FakeUser, badr: FakeUser) -> None:
    await world.send(alice, group, "/newgame")
    lobby = world.server.last_message(group)
    await world.press_verb(badr, lobby, "join")
    await world.press_verb(alice, lobby, "start")


async def test_a_restarted_bot_continues_the_match_in_the_same_messages(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr, group = players(server)
    clock = ManualClock()
    async with World(server, database, clock=clock) as first:
        await first.basra.service.set_rules(f"tg:{group.id}", target=20)
        await start_match(first, group, alice, badr)
        for _ in range(5):
            table = await first.table(group)
            assert table is not None and table.to_move is not None
            await first.play_any(alice if table.seats[table.to_move].player_id == f"tg:{alice.id}" else badr)
        before = await first.table(group)
        assert before is not None and before.to_move is not None
        group_messages = len(server.messages(group, bot_only=True))
        mover = alice if before.seats[before.to_move].player_id == f"tg:{alice.id}" else badr
        hand = first.hand_message(mover)
        privates = {u.id: len(server.messages(server.private_chat(u), bot_only=True)) for u in (alice, badr)}
    # A new process: new Application, new service, same database file, same Telegram.
    async with World(server, database, clock=clock) as second:
        after = await second.table(group)
        assert after is not None and before is not None
        assert (after.version, after.floor, after.scores) == (before.version, before.floor, before.scores)
        assert len(server.messages(group, bot_only=True)) == group_messages  # edited, not re-posted
        assert second.hand_message(mover) is hand  # the turn is not announced again
        for user in (alice, badr):
            assert len(server.messages(server.private_chat(user), bot_only=True)) == privates[user.id]
        await second.play_out(group, ids(alice, badr))
        assert (await second.finished(group)).status == "finished"


async def test_the_last_round_result_stays_above_the_table_after_a_restart(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr, group = players(server)
    clock = ManualClock()
    async with World(server, database, clock=clock) as first:
        await first.basra.service.set_rules(f"tg:{group.id}", target=200)
        await start_match(first, group, alice, badr)
        users = ids(alice, badr)
        while (table := await first.table(group)) is not None and table.round_no == 1:
            assert table.to_move is not None
            mover = table.seats[table.to_move].player_id
            assert mover is not None
            await first.play_any(users[mover])
        board = server.last_message(group)
        assert "Round 1 is over" in board.text and "round 2" in board.text.lower()
    await asyncio.sleep(3.0 / SPEEDUP)  # a new process takes seconds: the flood windows passed
    async with World(server, database, clock=clock) as second:
        table = await second.table(group)
        assert table is not None and table.round_no == 2 and table.to_move is not None
        mover = table.seats[table.to_move].player_id
        assert mover is not None
        await second.play_any(users[mover])
        assert server.last_message(group) is board  # the same message, edited with the play
        assert (await second.table(group)).version > table.version  # type: ignore[union-attr]
        # Still headed by the last round's result, above the new round's table.
        assert board.text.index("Round 1 is over") < board.text.index("Basra · round 2")


async def test_flood_errors_are_retried_and_nothing_is_lost(server: FakeTelegram, database: Path) -> None:
    alice, badr, group = players(server)
    async with World(server, database) as world:
        ledger = HandLedger.watch(world)
        await world.basra.service.set_rules(f"tg:{group.id}", target=15)
        await start_match(world, group, alice, badr)
        # 429s the bot did not plan for (another bot on the token, say): retried after the pause.
        server.fail_next("editMessageText", retry_after=0.01, times=6)
        server.fail_next("sendMessage", retry_after=0.01, times=5)
        server.flood_control(FloodLimit(40, 0.2, "chat"))
        shown: list[Any] = []
        original = world.basra.delivery.deliver

        async def deliver(notices: Any) -> None:
            shown.extend(n for n in notices if isinstance(n, TableUpdated))
            await original(notices)

        world.basra.delivery.deliver = deliver  # type: ignore[method-assign]
        await world.play_out(group, ids(alice, badr))
        await world.basra.idle()
        finished = await world.finished(group)
        final = content_of(delivery.render_notice(shown[-1]))
    assert finished.status == "finished"
    assert any(call.status == 429 for call in server.calls())
    # Every public message ends as the service last described it: the final table is shown.
    assert any(final.html in m.current.source for m in server.messages(group, bot_only=True))
    ledger.assert_no_leak(server, group, [alice, badr])


async def test_network_errors_and_unchanged_edits(server: FakeTelegram, database: Path) -> None:
    alice, badr, group = players(server)
    async with dealt(server, database) as world:
        await start_match(world, group, alice, badr)
        table = await world.table(group)
        assert table is not None and table.to_move is not None
        mover = to_move(table, alice, badr)
        hand = world.hand_message(mover)
        # 9♥ has two plans: its preview is drawn in the hand, an edit.
        await press_card(world, mover, hand, "9H")
        await world.press_verb(mover, hand, "back")
        # "back" on a hand without a preview would change nothing: no edit is sent.
        update = await world.forge(mover, hand, f"b1|back|{table.table_id}|{table.version}")
        assert not [c for c in server.calls_for(update) if c.method == "editMessageText"]
        # A dropped connection on an edit is retried.
        server.fail_network_next("editMessageText", times=1)
        await press_card(world, mover, hand, "9H")
        assert world.buttons(world.hand_message(mover), "play")
        # A press whose answer is lost to the network is answered again: the spinner stops.
        server.fail_network_next("answerCallbackQuery", times=2)
        update = await world.press_verb(mover, hand, "back")
        assert server.callback_answer(update) is not None
        answers = [c.status for c in server.calls_for(update) if c.method == "answerCallbackQuery"]
        assert answers == [0, 0, 200]


def test_log_lines_never_carry_cards_or_tokens() -> None:
    record = logging.LogRecord("bots.telegram", logging.ERROR, __file__, 1,
                               "press %s failed", ("b1|play|abc|3|10D|1",), None)
    try:
        raise ValueError("illegal play '7S': not in hand; Q♠ too; 123456789:" + "A" * 35)
    except ValueError:
        record.exc_info = sys.exc_info()
    assert CardRedactor().filter(record)
    text = record.getMessage() + (record.exc_text or "")
    assert not CARD_LABEL.search(text) and "10D" not in text and "7S" not in text and "AAAA" not in text
    assert redact("plays 10D") == "plays ??"


async def test_the_bot_logs_no_hand_card_while_playing(
    server: FakeTelegram, database: Path, caplog: pytest.LogCaptureFixture
) -> None:
    alice, badr, group = players(server)
    caplog.set_level(logging.DEBUG, logger="bots")
    async with World(server, database) as world:
        await world.basra.service.set_rules(f"tg:{group.id}", target=10)
        server.fail_next("editMessageText", error_code=400, description="Bad Request: odd failure")
        await start_match(world, group, alice, badr)
        await world.play_out(group, ids(alice, badr))
    for record in caplog.records:
        line = record.getMessage()
        assert not CARD_LABEL.search(line), line


@pytest.mark.parametrize(
    ("token", "expected"),
    [(None, "TELEGRAM_BOT_TOKEN is not set"), ("not-a-token", "TELEGRAM_BOT_TOKEN is not valid")],
)
def test_a_missing_or_malformed_token_is_one_clear_line(
    token: str | None, expected: str, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "BASRA_"))}
    if token is not None:
        env["TELEGRAM_BOT_TOKEN"] = token
    root = Path(__file__).resolve().parents[2]
    env["PYTHONPATH"] = str(root)
    done = subprocess.run([sys.executable, "-m", "bots.telegram"], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and expected in lines[0] and "Traceback" not in done.stderr


async def test_a_damaged_table_is_set_aside_and_its_group_told(server: FakeTelegram, database: Path) -> None:
    alice, badr, group = players(server)
    async with World(server, database) as first:
        await start_match(first, group, alice, badr)
        table = await first.table(group)
        assert table is not None
    with sqlite3.connect(database) as conn:
        conn.execute("UPDATE tables SET seats = '[{\"broken\": true}]' WHERE table_id = ?", (table.table_id,))
    await asyncio.sleep(3.0 / SPEEDUP)
    async with World(server, database) as second:
        # Found when the group next touches it (a stop that delivered everything draws
        # nothing again at the start): set aside, told once, and the group plays again.
        await second.send(alice, group, "/newgame")
        told = [m for m in server.messages(group, bot_only=True)
                if m.text.startswith("This game's saved record is damaged")]
        assert len(told) == 1
        assert second.buttons(server.last_message(group), "join")
        await second.send(badr, group, "/newgame")  # the lobby stands: nothing damaged any more
        assert len([m for m in server.messages(group, bot_only=True)
                    if m.text.startswith("This game's saved record is damaged")]) == 1



async def test_a_bot_with_another_token_never_acts_on_the_first_bots_matches(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr, group = players(server)
    async with World(server, database) as first:
        await start_match(first, group, alice, badr)
        match = await first.table(group)
        assert match is not None and match.running
    seen = len(server.api_calls)
    # Another bot on the same database; its group and its people have the same ids.
    other = FakeTelegram("987654321:ANOTHER-fake-token", bot_username="other_bot", speedup=SPEEDUP)
    alice2, _, group2 = players(other)
    assert (alice2.id, group2.id) == (alice.id, group.id)
    async with World(other, database) as second:
        # Nothing of the first bot's match was redrawn, announced or timed out.
        assert {c.method for c in other.api_calls} <= {"getMe", "setMyCommands"}
        assert await second.table(group2) is None
        await second.send(alice2, group2, "/newgame")  # its own lobby, in the same chat
        assert second.buttons(other.last_message(group2), "join")
    assert len(server.api_calls) == seen  # the first bot's chats heard nothing
    async with World(server, database) as again:
        back = await again.table(group)
        assert back is not None and back.running and back.table_id == match.table_id
