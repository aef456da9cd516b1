"""The bot's own process (``python -m bots.telegram``) against the fake Bot API over real
HTTP, at Telegram's real flood limits: a group opens a table in Arabic, two people play
through buttons (each in their own language), the process is stopped and started again, and
the match goes on."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.fakes.telegram_http import HttpFront
from tests.telegram.world import buttons_with, told_preview

ARABIC = re.compile(r"[\u0600-\u06FF]")
CLOCK = "\u2066\\d+:\\d\\d\u2069"
TURN_LINE = {"en": re.compile(f"^Your turn · {CLOCK} left$"), "ar": re.compile(f"^دورك · باقٍ {CLOCK}$")}


async def until(what: str, check: Callable[[], object], timeout: float = 20.0,
                every: float = 0.05) -> object:
    """Wait for ``check()`` to be true (the bot works in another process), looking ``every``
    so many seconds (often, where a check is cheap and the wait is on a person's path)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        await asyncio.sleep(every)
    raise AssertionError(f"timed out waiting for {what}")


def data_for(message: FakeMessage, verb: str) -> str | None:
    found = buttons_with(message, verb)
    return found[0] if found else None


class Process:
    """``python -m bots.telegram`` with its stderr in a file (readable while it runs)."""

    count = 0

    def __init__(self, url: str, token: str, database: Path, **settings: str) -> None:
        env = {**os.environ, "TELEGRAM_BOT_TOKEN": token, "TELEGRAM_API_BASE_URL": url,
               "BASRA_DATABASE": str(database), "BASRA_LANGUAGE": "ar", "BASRA_LOG_LEVEL": "INFO"}
        env.pop("TELEGRAM_WEBHOOK_URL", None)  # polling, unless the settings say otherwise
        env.update(settings)
        Process.count += 1
        self.log = database.parent / f"stderr-{Process.count}.txt"
        with self.log.open("w") as err:
            self.popen = subprocess.Popen([sys.executable, "-m", "bots.telegram"], env=env,
                                          stdout=subprocess.DEVNULL, stderr=err, text=True)

    def stderr(self) -> str:
        return self.log.read_text()

    async def ended(self, timeout: float = 60.0) -> tuple[int, str]:
        await until("the process to end", lambda: self.popen.poll() is not None, timeout, every=0.01)
        return self.popen.returncode, self.stderr()

    async def stop(self) -> tuple[int, str]:
        if self.popen.poll() is None:
            self.popen.send_signal(signal.SIGINT)
        end = time.monotonic() + 15.0
        while self.popen.poll() is None and time.monotonic() < end:
            await asyncio.sleep(0.01)
        if self.popen.poll() is None:
            self.popen.kill()
            self.popen.wait()
        return self.popen.returncode, self.stderr()


def hand_with(server: FakeTelegram, users: list[FakeUser], verb: str) -> tuple[FakeUser, FakeMessage] | None:
    """Whose private chat shows a hand with ``verb`` buttons (the player to move)."""
    for user in users:
        for message in reversed(server.messages(server.private_chat(user), bot_only=True)):
            if data_for(message, verb):
                return user, message
    return None


async def play_one(front: HttpFront, server: FakeTelegram, users: list[FakeUser], *,
                   settled: bool = True) -> tuple[FakeUser, FakeMessage]:
    """The player to move picks a card, sees the preview (in the press's answer, or drawn in
    the hand when the card has a choice), confirms (the same card again, or Play); returns
    who played and their hand, once it became its short line (its opponent waits for that,
    more than the time the line is held back for an answer drawn on the same hand), or
    (``settled`` False) once the confirm was answered."""
    found = await until("a hand to play", lambda: hand_with(server, users, "card"), every=0.01)
    assert isinstance(found, tuple)
    mover, hand = found
    # A new message for the turn (it notifies), the notice on its first line.
    first = hand.text.split("\n")[0]
    assert TURN_LINE[mover.language_code or "en"].match(first), hand.text
    card = data_for(hand, "card")
    assert card is not None
    pressed = server.user_presses(mover, hand, card)
    server.queue_update(pressed)
    await until("the preview", lambda: data_for(hand, "play") or told_preview(server, pressed), every=0.01)
    confirm = server.user_presses(mover, hand, data_for(hand, "play") or card)
    server.queue_update(confirm)
    if not settled:
        await until("the confirm's answer", lambda: server.callback_answer(confirm), every=0.01)
        return mover, hand
    await until("the hand to become a line", lambda: not hand.button_data(), every=0.01)
    return mover, hand


async def test_the_bot_process_plays_over_http_and_survives_a_restart(tmp_path: Path) -> None:
    server = FakeTelegram()
    front = HttpFront(server)
    url = await front.start()
    alice, badr = server.add_user("Alice"), server.add_user("Badr", language_code="ar")
    for user in (alice, badr):
        server.private_chat(user)
    group: FakeChat = server.add_group("Cafe", [alice, badr])
    database = tmp_path / "basra.sqlite3"
    process = Process(url, server.token, database)
    try:
        await until("the bot to poll", lambda: any(c.method == "getUpdates" for c in server.api_calls))
        front.send(alice, group, "/newgame")
        lobby = await until("the lobby", lambda: next(
            (m for m in server.messages(group, bot_only=True) if data_for(m, "join")), None))
        assert isinstance(lobby, FakeMessage) and ARABIC.search(lobby.text)
        front.press(badr, lobby, data_for(lobby, "join") or "")
        await until("badr seated", lambda: "Badr" in lobby.text)
        await until("the start button", lambda: data_for(lobby, "start"))
        front.press(alice, lobby, data_for(lobby, "start") or "")
        # The hands come at once and the people play without waiting for the group's table,
        # which keeps its pace (3.4 s after the join's edit), and is there after three plays.
        movers = [(await play_one(front, server, [alice, badr]))[0] for _ in range(3)]
        assert movers[0] is not movers[1] and movers[1] is not movers[2]
        await until("the table", lambda: data_for(lobby, "hand"))  # the lobby became the table
        code, stderr = await process.stop()
        assert code == 0 and "Traceback" not in stderr, stderr[-2000:]

        polls = sum(c.method == "getUpdates" for c in server.api_calls)
        process = Process(url, server.token, database)
        await until("the bot to poll again",
                    lambda: sum(c.method == "getUpdates" for c in server.api_calls) > polls)
        # A second process on the same database refuses to start, in one line (it starts
        # while the match goes on, and is looked at once it has ended).
        second = Process(url, server.token, database)
        before = lobby.text
        mover, _ = await play_one(front, server, [alice, badr])
        assert mover is not movers[-1]
        await until("the table to show the play", lambda: lobby.text != before)
        assert ARABIC.search(lobby.text) and server.too_many_requests() == 0
        code, err = await second.ended()
        assert code == 2, err[-3000:]
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "is in use by another Basra process" in lines[0], lines
    finally:
        code, stderr = await process.stop()
        await front.stop()
    assert code == 0 and "Traceback" not in stderr, stderr[-2000:]


async def test_start_up_network_faults_are_one_line_each(tmp_path: Path) -> None:
    """Three processes, each on its own fault; two start while the first waits to try again."""
    server = FakeTelegram()
    front = HttpFront(server)
    url = await front.start()
    database = tmp_path / "basra.sqlite3"
    # Nothing listening at all: a port held, and never listened on, refuses every connection.
    nothing = socket.socket()
    nothing.bind(("127.0.0.1", 0))
    nowhere = f"http://127.0.0.1:{nothing.getsockname()[1]}"
    wrong = "123456:" + "b" * 35
    processes: list[Process] = []
    try:
        # A server answering 502 twice: a line per attempt, then the bot runs. (The wrong
        # token below never meets these faults: the server refuses a token before them.)
        server.fail_next("getMe", error_code=502, description="Bad Gateway", times=2)
        processes.append(process := Process(url, server.token, database))
        await until("the first attempt", lambda: "trying again" in process.stderr(), 60)
        # A token the server refuses, and no server: they start while it waits.
        processes.append(refused := Process(url, wrong, database))
        processes.append(gone := Process(nowhere, server.token, database))

        # The token refused: one line, status 2, the token never shown.
        code, err = await refused.ended()
        assert code == 2 and wrong not in err
        assert err.strip().splitlines() == [
            "basra-telegram: Telegram refused TELEGRAM_BOT_TOKEN: check it with @BotFather"
        ]
        # Nothing listening: the first attempt says so in one line (and keeps trying).
        await until("the first attempt", gone.stderr, 60)
        code, err = await gone.stop()
        first = err.strip().splitlines()[0]
        assert first.startswith(f"basra-telegram: cannot reach the Bot API at {nowhere}"), first
        assert "Traceback" not in err, err[-2000:]
        # The 502s: a line per attempt, then the bot runs.
        await until("the bot to poll", lambda: any(c.method == "getUpdates" for c in server.api_calls), 60)
        code, err = await process.stop()
        lines = [line for line in err.splitlines() if line.startswith("basra-telegram:")]
        assert code == 0 and len(lines) == 2 and "Traceback" not in err, err[-2000:]
        assert "trying again in 1 s" in lines[0] and "trying again in 2 s" in lines[1]
        assert server.token not in err
    finally:
        for each in processes:
            await each.stop()
        nothing.close()
        await front.stop()


async def test_a_stop_sends_what_waits_and_ends_once_it_has(tmp_path: Path) -> None:
    """SIGTERM: the writes still waiting go out (the bot's HTTP client is still open), and
    the process ends as soon as they have, not when the 5 s grace is up; with nothing
    waiting, at once."""
    server = FakeTelegram()
    front = HttpFront(server)
    url = await front.start()
    alice, badr = server.add_user("Alice"), server.add_user("Badr", language_code="ar")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    database = tmp_path / "basra.sqlite3"
    process = Process(url, server.token, database)
    try:
        await until("the bot to poll", lambda: any(c.method == "getUpdates" for c in server.api_calls))
        front.send(alice, group, "/newgame")
        lobby = await until("the lobby", lambda: next(
            (m for m in server.messages(group, bot_only=True) if data_for(m, "join")), None))
        assert isinstance(lobby, FakeMessage)
        front.press(badr, lobby, data_for(lobby, "join") or "")
        await until("the start button", lambda: data_for(lobby, "start"))
        front.press(alice, lobby, data_for(lobby, "start") or "")
        await play_one(front, server, [alice, badr])
        # The group's table is paced (the lobby's edit after the join's is 3.4 s later): its
        # edit, showing the plays, waits; so does the hand just played, whose short line is
        # held back for the opponent's answer.
        _, hand = await play_one(front, server, [alice, badr], settled=False)
        calls = len(server.api_calls)
        asked = time.monotonic()
        process.popen.send_signal(signal.SIGTERM)
        code, stderr = await process.ended(timeout=30)
        took = time.monotonic() - asked
        assert code == 0 and "Traceback" not in stderr, stderr[-2000:]
        during = [c.method for c in server.api_calls[calls:]]
        assert "editMessageText" in during, during  # the waiting edits went
        assert data_for(lobby, "hand"), lobby.text  # the table's: the lobby became the table
        assert not hand.button_data(), hand.text  # the hand's short line went
        assert took < 4.5, f"the stop took {took:.2f} s"

        # Started again, it has nothing to send (the stop sent it all) once it polls: its
        # first long poll is under way, as any later one would be.
        process = Process(url, server.token, database)
        await until("the bot to poll again", lambda: any(
            c.method == "getUpdates" for c in server.api_calls[calls + len(during):]))
        asked = time.monotonic()
        process.popen.send_signal(signal.SIGTERM)
        code, stderr = await process.ended(timeout=30)
        took = time.monotonic() - asked
        assert code == 0 and "Traceback" not in stderr, stderr[-2000:]
        assert took < 2.5, f"a stop with nothing to send took {took:.2f} s"
    finally:
        await process.stop()
        await front.stop()


async def test_an_update_the_library_cannot_read_is_skipped_and_the_rest_answered(tmp_path: Path) -> None:
    """python-telegram-bot reads a polled batch as a whole: without reading update by update,
    one unreadable update would make the bot ask for the same batch for ever."""
    server = FakeTelegram()
    front = HttpFront(server)
    url = await front.start()
    alice = server.add_user("Alice", language_code="en")
    chat = server.private_chat(alice)
    process = Process(url, server.token, tmp_path / "basra.sqlite3", BASRA_LANGUAGE="en")
    try:
        await until("the bot to poll", lambda: any(c.method == "getUpdates" for c in server.api_calls))
        damaged = [
            {"message": {"message_id": 1, "date": 1, "chat": 5}},  # a chat that is not an object
            {"callback_query": {"id": "1", "from": alice.to_api()}},  # a field required now, missing
            {"message": "hello"},
        ]
        for payload in damaged:
            server.queue_update(server.new_update(payload).data)
        front.send(alice, None, "/help")
        await until("the help", lambda: any("/practice" in m.text
                                            for m in server.messages(chat, bot_only=True)))
    finally:
        code, stderr = await process.stop()
        await front.stop()
    assert code == 0 and "Traceback" not in stderr, stderr[-3000:]
    skipped = [line for line in stderr.splitlines() if "cannot be read, and is skipped" in line]
    assert len(skipped) == 3, stderr[-3000:]
    assert all("hello" not in line and "Alice" not in line for line in skipped)
