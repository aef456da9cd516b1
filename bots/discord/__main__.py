"""``python -m bots.discord`` / ``basra-discord``: run the Discord bot.

Settings come from the environment or a ``.env`` file (see
``settings.DiscordSettings``). A missing or malformed token, or one Discord
refuses, is reported in one line with exit status 2, without a traceback.
"""

from __future__ import annotations

import logging
import sys

import discord
from pydantic import ValidationError

from storage import StorageError

from ..settings import not_utf8
from .bot import BasraBot, BotOptions
from .settings import DiscordSettings, settings_problem


def configure_logging() -> None:
    """INFO to stderr. discord.py's DEBUG lines would carry message payloads
    (hands included), so its loggers never go below INFO."""
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for name in ("discord", "discord.http", "discord.gateway", "discord.webhook"):
        logging.getLogger(name).setLevel(logging.INFO)


def main(argv: list[str] | None = None) -> int:
    try:
        settings = DiscordSettings()  # type: ignore[call-arg]  # the token comes from the environment
    except ValidationError as error:
        print(f"basra-discord: {settings_problem(error)}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as error:
        print(f"basra-discord: {not_utf8(error)}", file=sys.stderr)
        return 2
    configure_logging()
    options = BotOptions(
        database=settings.database,
        config=settings.service_config(),
        guild_id=settings.discord_guild_id,
    )
    bot = BasraBot(options)
    try:
        bot.run(settings.discord_bot_token.get_secret_value(), log_handler=None)
    except discord.LoginFailure:
        print(
            "basra-discord: Discord refused DISCORD_BOT_TOKEN (reset it in the Developer Portal)",
            file=sys.stderr,
        )
        return 2
    except discord.PrivilegedIntentsRequired:
        print("basra-discord: Discord refused the requested intents", file=sys.stderr)
        return 2
    except StorageError as error:  # the database cannot be used (or another bot holds it)
        print(f"basra-discord: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
