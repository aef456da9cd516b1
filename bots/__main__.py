"""``python -m bots`` / ``basra-bots``: Telegram and Discord in one process, until interrupted.

Each platform runs when its token is set (``TELEGRAM_BOT_TOKEN``, ``DISCORD_BOT_TOKEN``,
in the environment or ``.env``), both on one host (``bots.host``): one database, one
table service, one web table. So the embedded SQLite database, which one process uses,
pairs the people of both platforms in one pool (``/play``), and a Telegram person and a
Discord person play one match, each in their own private chat. With only one token set
it runs that bot as ``basra-telegram`` or ``basra-discord`` would.

Telegram reads its updates by long polling here (a webhook is ``basra-telegram``'s), and
Discord holds all its shards. On a PostgreSQL database, where several processes share
the pool, run each platform's own command instead (``basra-telegram``, ``basra-discord``):
this one refuses it. A setting that is wrong, a platform that refuses its token or a
database that cannot be used is one line on stderr and exit status 2, as for each bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
from typing import Any

from pydantic import SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from storage import StorageError, is_postgres_url

from . import memory
from .host import Host
from .logs import LogFormat, configure_logging
from .metrics import MetricsUnavailable
from .settings import bad_setting, read_settings
from .web import WebUnavailable

NAME = "basra-bots"


class Tokens(BaseSettings):
    """Which platforms have a token; the platforms' own settings read the rest."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")
    telegram_bot_token: SecretStr | None = None
    discord_bot_token: SecretStr | None = None


def main(argv: list[str] | None = None) -> int:
    tokens = read_settings(NAME, Tokens, bad_setting)
    if tokens is None:
        return 2
    telegram = tokens.telegram_bot_token is not None and tokens.telegram_bot_token.get_secret_value().strip()
    discord_ = tokens.discord_bot_token is not None and tokens.discord_bot_token.get_secret_value().strip()
    if not telegram and not discord_:
        print(f"{NAME}: set TELEGRAM_BOT_TOKEN, DISCORD_BOT_TOKEN or both", file=sys.stderr)
        return 2
    if not discord_:
        from .telegram.__main__ import main as telegram_main

        return telegram_main(argv)
    if not telegram:
        from .discord.__main__ import main as discord_main

        return discord_main(argv)
    return _both()


def _both() -> int:
    from .discord.__main__ import reach as reach_discord
    from .discord.settings import DiscordSettings
    from .discord.settings import settings_problem as discord_problem
    from .telegram.__main__ import reach as reach_telegram
    from .telegram.settings import TelegramSettings
    from .telegram.settings import settings_problem as telegram_problem

    tg = read_settings(NAME, lambda: TelegramSettings(), telegram_problem)  # type: ignore[call-arg]
    dc = read_settings(NAME, lambda: DiscordSettings(), discord_problem)  # type: ignore[call-arg]
    if tg is None or dc is None:
        return 2
    if is_postgres_url(str(tg.database)):
        print(f"{NAME}: on a PostgreSQL database run basra-telegram and basra-discord, each in its own "
              "process: they share the pool there", file=sys.stderr)
        return 2
    tg_token, dc_token = tg.bot_token.get_secret_value(), dc.discord_bot_token.get_secret_value()
    _log(tg.log_level or "INFO", tg.log_format, (tg_token, dc_token))
    memory.configure(tg.caps())
    try:
        for status in (asyncio.run(reach_telegram(tg)), asyncio.run(reach_discord(dc_token))):
            if status is not None:
                return status
    except KeyboardInterrupt:
        return 130
    try:
        return asyncio.run(_run(tg, dc))
    except (StorageError, MetricsUnavailable, WebUnavailable) as error:
        print(f"{NAME}: {error}", file=sys.stderr)
        return 2


def _log(level: str, form: LogFormat, tokens: tuple[str, str]) -> None:
    """As each bot logs (both tokens masked, each library's floors), through one handler."""
    import logging

    from .discord.__main__ import QUIET as DISCORD_QUIET
    from .discord.__main__ import ReconnectLines, quiet_voice
    from .telegram.logs import QUIET as TELEGRAM_QUIET

    configure_logging(level, form, secrets=tokens, floors={**TELEGRAM_QUIET, **DISCORD_QUIET})
    logging.getLogger("discord.client").addFilter(ReconnectLines())
    quiet_voice()


def _assemble(tg: object, dc: object) -> tuple[Any, Any, Any]:
    """Both bots on one host, not started: Telegram's application and adapter, and the
    Discord bot, which shows the same web table (its hands' and start page's links)."""
    from .discord.bot import BotOptions, make_bot
    from .discord.settings import DiscordSettings
    from .telegram.application import build_application
    from .telegram.settings import TelegramSettings

    assert isinstance(tg, TelegramSettings) and isinstance(dc, DiscordSettings)
    application, basra = build_application(tg)
    host = Host(tg.database, config=tg.service_config(), metrics=basra.metrics,
                metrics_server=basra.metrics_server, web=basra.web, platforms=2)
    basra.shared_host = host
    bot = make_bot(BotOptions(database=tg.database, config=tg.service_config(), guild_id=dc.discord_guild_id))
    bot.shared_host = host
    bot.web = basra.web
    return application, basra, bot


async def _run(tg: object, dc: object) -> int:
    """Both bots on one host until SIGINT or SIGTERM (or until one of them stops)."""
    from telegram import Update

    from .discord.settings import DiscordSettings

    assert isinstance(dc, DiscordSettings)
    application, basra, bot = _assemble(tg, dc)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for number in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(number, stop.set)
    await application.initialize()
    discord_running = loop.create_task(bot.start(dc.discord_bot_token.get_secret_value()))
    status = 0
    try:
        await basra.start()
        assert application.updater is not None
        await application.updater.start_polling(allowed_updates=Update.ALL_TYPES)
        await application.start()
        stopped = loop.create_task(stop.wait())
        await asyncio.wait({stopped, discord_running}, return_when=asyncio.FIRST_COMPLETED)
        if discord_running.done() and not stop.is_set():
            status = 1
            with contextlib.suppress(BaseException):
                discord_running.result()
        stopped.cancel()
    finally:
        if application.updater is not None and application.updater.running:
            await application.updater.stop()
        if application.running:
            await application.stop()
        await basra.stop()
        await application.shutdown()
        await bot.close()
        with contextlib.suppress(BaseException):
            await discord_running
    return status


if __name__ == "__main__":
    sys.exit(main())
