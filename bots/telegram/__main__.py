"""``python -m bots.telegram`` / ``basra-telegram``: run the bot until interrupted.

Long polling by default; a webhook server when ``TELEGRAM_WEBHOOK_URL`` is set
(with ``TELEGRAM_WEBHOOK_SECRET``, without which it refuses to start). Of several
processes of one bot on a PostgreSQL database one leads: it alone polls or listens for
the webhook, and speaks for the token; the others wait, listening on nothing but their
metrics port, and one takes over within about a second when it stops or dies. A leader
that loses its lead (its database connection was cut) stops with status 1.
A missing or malformed setting, a database that cannot be used, a token
Telegram refuses, a metrics port that cannot be listened on: one line on
stderr and exit status 2. A Bot API server that cannot be reached (or answers
5xx, or not JSON) at start-up is one line per attempt, tried again after 1, 2,
4, 8 … seconds; after ``bots.reaching.REACH_ATTEMPTS`` the bot gives up with status 2 (a
service manager starts it again). The token is never printed, nor is any hand
card logged (``bots.logs``).
"""

from __future__ import annotations

import asyncio
import importlib.util
import sys
from typing import Any

from telegram import Bot, Update
from telegram.error import InvalidToken, TelegramError

from storage import StorageError

from .. import memory, reaching
from ..metrics import MetricsUnavailable
from ..reaching import Refused, Unreachable
from ..settings import read_settings
from ..web import WebUnavailable
from .logs import configure_logging
from .settings import WEBHOOK_NEEDS_SECRET, TelegramSettings, settings_problem


def webhook_options(settings: TelegramSettings) -> dict[str, Any]:
    """How the webhook server listens and what it asks Telegram to send it."""
    secret = settings.webhook_secret.get_secret_value() if settings.webhook_secret else None
    return {
        "listen": settings.webhook_listen,
        "port": settings.webhook_port,
        "url_path": settings.webhook_path(),
        "webhook_url": settings.webhook_url,
        "secret_token": secret,
        "allowed_updates": Update.ALL_TYPES,
    }


REFUSED = "basra-telegram: Telegram refused TELEGRAM_BOT_TOKEN: check it with @BotFather"


async def reach(settings: TelegramSettings) -> int | None:
    """Ask the Bot API who the bot is until it answers (``bots.reaching``); an exit status
    if it never does."""
    bot = Bot(settings.bot_token.get_secret_value(), base_url=settings.bot_url_base())

    async def attempt() -> None:
        try:
            async with bot:  # getMe
                return
        except InvalidToken:
            raise Refused from None
        except TelegramError as error:  # unreachable, timed out, 5xx, not JSON
            cause = str(error).replace(settings.bot_token.get_secret_value(), "<token>")[:160]
            raise Unreachable(cause) from None

    where = settings.api_base_url or "api.telegram.org"
    return await reaching.reach("basra-telegram", "the Bot API", where, REFUSED, attempt)


def main(argv: list[str] | None = None) -> int:
    settings = read_settings(
        "basra-telegram",
        lambda: TelegramSettings(),  # type: ignore[call-arg]  # read from the environment
        settings_problem,
    )
    if settings is None:
        return 2
    if settings.webhook_url and importlib.util.find_spec("tornado") is None:
        print('basra-telegram: TELEGRAM_WEBHOOK_URL is set, and webhook mode needs '
              '`pip install "python-telegram-bot[webhooks]"`', file=sys.stderr)
        return 2
    if settings.webhook_url and settings.webhook_secret is None:
        print(f"basra-telegram: {WEBHOOK_NEEDS_SECRET}", file=sys.stderr)
        return 2
    configure_logging(settings.log_level or "INFO", settings.log_format,
                      token=settings.bot_token.get_secret_value())
    memory.configure(settings.caps())
    try:
        if (status := asyncio.run(reach(settings))) is not None:
            return status
        from .application import build_application

        application, basra = build_application(settings)
    except KeyboardInterrupt:  # stopped while still starting: reaching the Bot API, building the bot
        return 130
    try:
        if settings.webhook_url:
            application.run_webhook(**webhook_options(settings))
        else:
            application.run_polling(allowed_updates=Update.ALL_TYPES)
    except (StorageError, MetricsUnavailable, WebUnavailable) as error:  # the database cannot be
        print(f"basra-telegram: {error}", file=sys.stderr)  # used, the metrics or web port is taken
        return 2
    except InvalidToken:
        print(REFUSED, file=sys.stderr)
        return 2
    if basra.lost_lead:
        print("basra-telegram: this process lost its lead of the bot to another one; start it again "
              "to wait for its turn", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
