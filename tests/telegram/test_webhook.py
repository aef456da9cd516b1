"""Webhook mode: the real python-telegram-bot webhook server (tornado) on a local port.

Telegram is the fake; the updates it would push are POSTed to the bot's
webhook server over loopback HTTP, with and without the secret token.
"""

from __future__ import annotations

import asyncio
import os
import socket
from pathlib import Path

import httpx
import pytest

from bots.telegram.__main__ import main as telegram_main
from bots.telegram.__main__ import webhook_options
from bots.telegram.settings import TelegramSettings
from tests.fakes import FakeTelegram
from tests.telegram.world import World

TOKEN = "123456789:" + "A" * 35
SECRET = "s3cret-Token_1"
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def answered(server: FakeTelegram, chat: object, count: int) -> bool:
    for _ in range(300):
        if len(server.texts(chat)) >= count:  # type: ignore[arg-type]
            return True
        await asyncio.sleep(0.01)
    return False


async def test_the_webhook_server_takes_updates_carrying_the_secret_and_refuses_others(
    server: FakeTelegram, database: Path
) -> None:
    port = free_port()
    settings = TelegramSettings(
        _env_file=None,
        TELEGRAM_BOT_TOKEN=TOKEN,
        TELEGRAM_WEBHOOK_URL="https://bot.example.org/tg/hook",
        TELEGRAM_WEBHOOK_LISTEN="127.0.0.1",
        TELEGRAM_WEBHOOK_PORT=port,
        TELEGRAM_WEBHOOK_SECRET=SECRET,
        BASRA_DATABASE=database,
    )
    options = webhook_options(settings)
    assert options["url_path"] == "tg/hook" and options["secret_token"] == SECRET
    alice = server.add_user("Alice")
    chat = server.private_chat(alice)
    world = World(server, database)
    app = world.app
    async with app:
        await world.basra.start()
        await app.start()
        assert app.updater is not None
        await app.updater.start_webhook(**options)
        try:
            # The bot told Telegram where to push its updates.
            assert server.webhook_url == "https://bot.example.org/tg/hook"
            hook = f"http://127.0.0.1:{port}/tg/hook"
            async with httpx.AsyncClient() as client:
                forged = server.user_sends(alice, None, "/help").to_dict()
                refused = await client.post(hook, json=forged, headers={SECRET_HEADER: "wrong"})
                assert refused.status_code == 403
                update = server.user_sends(alice, None, "/help").to_dict()
                taken = await client.post(hook, json=update, headers={SECRET_HEADER: SECRET})
                assert taken.status_code == 200
                assert await answered(server, chat, 1), "the pushed /help got no answer"
                await asyncio.sleep(0.2)  # time for a wrongly served second answer to show
        finally:
            await app.updater.stop()
            await app.stop()
            await world.basra.stop()
    [help_text] = server.texts(chat)  # one answer: the refused update was never served
    assert help_text.startswith("Basra")


@pytest.mark.parametrize(
    ("secret", "expected"),
    [
        (None, "basra-telegram: TELEGRAM_WEBHOOK_URL is set but TELEGRAM_WEBHOOK_SECRET is not: "),
        ("", "basra-telegram: TELEGRAM_WEBHOOK_URL is set but TELEGRAM_WEBHOOK_SECRET is not: "),
        ("has spaces/and slashes", "basra-telegram: TELEGRAM_WEBHOOK_SECRET is not valid: use 1 to 256 "),
    ],
)
def test_webhook_mode_without_a_usable_secret_refuses_to_start_in_one_line(
    secret: str | None, expected: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    for name in os.environ:
        if name.startswith(("TELEGRAM_", "BASRA_")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("TELEGRAM_WEBHOOK_URL", "https://bot.example.org/tg/hook")
    if secret is not None:
        monkeypatch.setenv("TELEGRAM_WEBHOOK_SECRET", secret)
    monkeypatch.chdir(tmp_path)
    assert telegram_main() == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith(expected) and captured.err.count("\n") == 1
    assert secret is None or not secret or secret not in captured.err
    assert list(tmp_path.iterdir()) == []  # stopped before opening the database or calling Telegram
