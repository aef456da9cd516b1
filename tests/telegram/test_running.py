"""How the bot is put together and run: settings, the production Application, long polling."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bots.telegram.application import build_application
from bots.telegram.settings import TelegramSettings
from tests.fakes import FakeTelegram
from tests.telegram.world import World

TOKEN = "123456789:" + "A" * 35


def test_the_production_application_plans_its_own_writes_and_uses_the_chosen_server(tmp_path: Path) -> None:
    settings = TelegramSettings(
        _env_file=None,
        TELEGRAM_BOT_TOKEN=TOKEN,
        TELEGRAM_API_BASE_URL="http://localhost:8081/",
        BASRA_DATABASE=tmp_path / "b.sqlite3",
    )
    application, basra = build_application(settings)
    # No rate limiter that would hold calls up: the adapter's dispatcher plans every write
    # within Telegram's limits, and the press answers never wait behind them.
    assert application.bot.rate_limiter is None
    assert basra.dispatcher.pending() == 0
    assert application.bot.base_url == f"http://localhost:8081/bot{TOKEN}"
    assert basra.database == settings.database
    assert application.post_init is not None and application.post_shutdown is not None
    assert application.post_stop is not None  # stops the service while the bot's client is open


def test_settings_read_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", TOKEN)
    monkeypatch.setenv("TELEGRAM_WEBHOOK_URL", "https://bot.example.org/tg/hook")
    monkeypatch.setenv("BASRA_LANGUAGE", "en")
    monkeypatch.chdir(tmp_path)
    settings = TelegramSettings()  # type: ignore[call-arg]
    assert settings.bot_token.get_secret_value() == TOKEN
    assert settings.webhook_path() == "tg/hook" and settings.language == "en"
    assert str(settings.database) == "basra.sqlite3"
    assert TOKEN not in repr(settings)


async def test_long_polling_serves_updates(server: FakeTelegram, database: Path) -> None:
    alice = server.add_user("Alice")
    server.private_chat(alice)
    world = World(server, database)
    app = world.app
    async with app:
        await world.basra.start()
        await app.start()
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0.0, timeout=1)
        server.queue_update(server.user_sends(alice, None, "/help"))
        for _ in range(200):
            if server.texts(server.private_chat(alice)):
                break
            await asyncio.sleep(0.01)
        await app.updater.stop()
        await app.stop()
        await world.basra.stop()
    assert server.texts(server.private_chat(alice)), "the polled /help got no answer"
