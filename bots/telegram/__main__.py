"""``python -m bots.telegram`` / ``basra-telegram``: run the bot until interrupted.

Long polling by default; a webhook server when ``TELEGRAM_WEBHOOK_URL`` is set.
A missing or malformed setting is one line on stderr and exit status 2.
"""

from __future__ import annotations

import importlib.util
import sys
from typing import Any

from pydantic import ValidationError
from telegram import Update
from telegram.error import InvalidToken

from storage import StorageError

from .logs import configure_logging
from .settings import TelegramSettings, settings_problem


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


def main(argv: list[str] | None = None) -> int:
    try:
        settings = TelegramSettings()  # type: ignore[call-arg]  # read from the environment
    except ValidationError as error:
        print(f"basra-telegram: {settings_problem(error)}", file=sys.stderr)
        return 2
    if settings.webhook_url and importlib.util.find_spec("tornado") is None:
        print('basra-telegram: TELEGRAM_WEBHOOK_URL is set, and webhook mode needs '
              '`pip install "python-telegram-bot[webhooks]"`', file=sys.stderr)
        return 2
    configure_logging()
    from .application import build_application

    application, _ = build_application(settings)
    try:
        if settings.webhook_url:
            application.run_webhook(**webhook_options(settings))
        else:
            application.run_polling(allowed_updates=Update.ALL_TYPES)
    except StorageError as error:  # the database cannot be used (or another bot holds it)
        print(f"basra-telegram: {error}", file=sys.stderr)
        return 2
    except InvalidToken:
        print("basra-telegram: Telegram refused TELEGRAM_BOT_TOKEN: check it with @BotFather",
              file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
