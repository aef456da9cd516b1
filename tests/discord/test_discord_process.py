"""The Discord bot's own process at start-up, against a fake of Discord's HTTP API: a refused
token, a Discord that answers 5xx or not as Discord, and none at all are one line each; its
log lines as JSON at the level it is given, without discord.py's voice warnings."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web

from bots.discord.bot import GATEWAY_ATTEMPTS

MAIN = Path(__file__).with_name("discord_main.py")
TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0.GfakeA.0123456789abcdefghijklmnopqrstuvwxyzAB"
ME = {"id": "1098765432109876540", "username": "basra", "discriminator": "0", "avatar": None, "bot": True}
APPLICATION = {"id": ME["id"], "name": "Basra", "icon": None, "description": "", "bot_public": True,
               "bot_require_code_grant": False, "verify_key": "0" * 64, "flags": 0, "owner": ME}


def as_discord(data: object, status: int = 200) -> web.Response:
    """JSON as Discord sends it: discord.py reads a body as JSON only for this exact type."""
    return web.Response(body=json.dumps(data).encode(), status=status,
                        headers={"Content-Type": "application/json"})


class FakeDiscordHttp:
    """Answers ``GET /api/v10/users/@me`` with what ``plan`` says next: a status, or "text"
    for a 200 that is not JSON; an empty plan answers as Discord does."""

    def __init__(self) -> None:
        self.plan: list[int | str] = []
        self.calls: list[str] = []
        app = web.Application()
        app.router.add_route("*", "/{tail:.*}", self.answer)
        self.runner = web.AppRunner(app)

    async def answer(self, request: web.Request) -> web.StreamResponse:
        self.calls.append(request.path)
        if request.path.endswith("/users/@me") and self.plan:
            step = self.plan.pop(0)
            if step == "text":
                return web.Response(text="<html>a proxy page</html>", content_type="text/html")
            assert isinstance(step, int)
            return as_discord({"message": "no", "code": 0}, status=step)
        if request.path.endswith("/users/@me"):
            return as_discord(ME)
        if request.path.endswith("/oauth2/applications/@me"):
            return as_discord(APPLICATION)
        if request.path.endswith("/commands") and request.method == "PUT":
            return as_discord([])
        return as_discord({"message": "404: Not Found", "code": 0}, status=404)

    async def start(self) -> str:
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        host, port = self.runner.addresses[0][:2]
        return f"http://{host}:{port}"


@pytest.fixture
async def fake() -> AsyncIterator[tuple[FakeDiscordHttp, str]]:
    server = FakeDiscordHttp()
    url = await server.start()
    yield server, url
    await server.runner.cleanup()


def launch(
    url: str, tmp_path: Path, token: str = TOKEN, **settings: str
) -> tuple[subprocess.Popen[str], Path]:
    env = {**os.environ, "DISCORD_BOT_TOKEN": token, "DISCORD_TEST_API": url,
           "BASRA_DATABASE": str(tmp_path / "basra.sqlite3"), **settings}
    log = tmp_path / f"stderr-{time.monotonic_ns()}.txt"
    with log.open("w") as err:
        process = subprocess.Popen([sys.executable, str(MAIN)], env=env, stdout=subprocess.DEVNULL,
                                   stderr=err, text=True, cwd=Path(__file__).parents[2])
    return process, log


async def ended(process: subprocess.Popen[str], timeout: float = 60.0) -> int:
    end = time.monotonic() + timeout
    while process.poll() is None:
        assert time.monotonic() < end, "the bot did not stop"
        await asyncio.sleep(0.05)
    return process.returncode


def said(log: Path) -> list[str]:
    """The bot's own lines (an engine run from changed sources warns before them)."""
    return [line for line in log.read_text().splitlines() if line.startswith("basra-discord:")]


async def lines_after(log: Path, count: int, timeout: float = 60.0) -> list[str]:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        lines = said(log)
        if len(lines) >= count:
            return lines
        await asyncio.sleep(0.05)
    raise AssertionError(f"fewer than {count} lines: {log.read_text()!r}")


async def test_a_refused_token_is_one_line_and_status_2(
    fake: tuple[FakeDiscordHttp, str], tmp_path: Path
) -> None:
    server, url = fake
    server.plan = [401]
    process, log = launch(url, tmp_path)
    assert await ended(process) == 2
    assert "Traceback" not in log.read_text() and TOKEN not in log.read_text()
    assert said(log) == [
        "basra-discord: Discord refused DISCORD_BOT_TOKEN (reset it in the Developer Portal)"
    ]


async def test_answers_that_are_not_discord_are_tried_again_one_line_each(
    fake: tuple[FakeDiscordHttp, str], tmp_path: Path
) -> None:
    server, url = fake
    server.plan = ["text", "text"]
    process, log = launch(url, tmp_path)
    try:
        lines = await lines_after(log, 2)
        # Then it answers as Discord: the bot logs in for real and starts (its commands synced).
        synced = f"/api/v10/applications/{ME['id']}/commands"
        end = time.monotonic() + 30
        while synced not in server.calls and time.monotonic() < end:
            await asyncio.sleep(0.05)
        assert synced in server.calls, server.calls
        # It goes on to the gateway, which cannot be reached from here: said in a line a try.
        while "Attempting a reconnect" not in log.read_text() and time.monotonic() < end:
            await asyncio.sleep(0.05)
    finally:
        process.send_signal(signal.SIGINT)
        code = await ended(process)
    assert code == 0 and "Traceback" not in log.read_text(), log.read_text()[-3000:]
    assert "Attempting a reconnect" in log.read_text()
    assert "/gateway/" in server.calls  # the fake's gateway, never Discord's own
    assert lines[:2] == [
        f"basra-discord: cannot reach Discord at {url} (its answer is not Discord's); trying again in 1 s",
        f"basra-discord: cannot reach Discord at {url} (its answer is not Discord's); trying again in 2 s",
    ]
    assert TOKEN not in log.read_text()


async def test_a_gateway_never_reached_is_a_line_a_try_then_status_2(
    fake: tuple[FakeDiscordHttp, str], tmp_path: Path
) -> None:
    server, url = fake
    process, log = launch(url, tmp_path)
    assert await ended(process) == 2
    text = log.read_text()
    assert "Traceback" not in text and TOKEN not in text, text[-3000:]
    assert text.count("Attempting a reconnect") == GATEWAY_ATTEMPTS
    assert server.calls.count("/gateway/") == GATEWAY_ATTEMPTS  # the fake's gateway, every try
    assert said(log)[-1] == (
        f"basra-discord: cannot reach Discord's gateway; giving up after {GATEWAY_ATTEMPTS} attempts"
    )


async def test_no_discord_at_all_is_one_line_per_attempt_and_ctrl_c_is_quiet(tmp_path: Path) -> None:
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    process, log = launch(url, tmp_path)
    lines = await lines_after(log, 2)
    process.send_signal(signal.SIGINT)
    assert await ended(process) == 130
    text = log.read_text()
    assert "Traceback" not in text and TOKEN not in text
    assert all(line.startswith(f"basra-discord: cannot reach Discord at {url} (") for line in said(log))
    assert "trying again in 1 s" in lines[0] and "trying again in 2 s" in lines[1]


async def test_its_log_is_json_lines_at_the_level_given_without_voice_warnings(
    fake: tuple[FakeDiscordHttp, str], tmp_path: Path
) -> None:
    _, url = fake
    process, log = launch(url, tmp_path, BASRA_LOG_FORMAT="json", BASRA_LOG_LEVEL="WARNING")
    try:
        end = time.monotonic() + 30
        # It logs in, syncs its commands and goes on to the gateway, which is not there.
        while "Attempting a reconnect" not in log.read_text() and time.monotonic() < end:
            await asyncio.sleep(0.05)
    finally:
        process.send_signal(signal.SIGINT)
        code = await ended(process)
    text = log.read_text()
    assert code == 0, text[-3000:]
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]
    assert all({"time", "level", "logger", "message"} <= set(line) for line in lines)
    assert all(line["level"] in ("WARNING", "ERROR", "CRITICAL") for line in lines)  # no INFO line
    # A failed connection to the gateway is one line with its cause, not a traceback.
    reconnects = [line for line in lines if line["message"].startswith("Attempting a reconnect")]
    assert reconnects and all("exception" not in line and "(" in line["message"] for line in reconnects)
    assert "PyNaCl" not in text and "davey" not in text and "voice" not in text
    assert TOKEN not in text


async def test_a_metrics_port_that_is_taken_is_one_line_and_status_2(
    fake: tuple[FakeDiscordHttp, str], tmp_path: Path
) -> None:
    _, url = fake
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        process, log = launch(url, tmp_path, BASRA_METRICS_PORT=str(port))
        assert await ended(process) == 2
    assert "Traceback" not in log.read_text()
    assert said(log) == [f"basra-discord: cannot serve metrics on 127.0.0.1:{port} (Address already in use)"]
