"""``python -m bots.discord`` / ``basra-discord``: run the Discord bot.

Settings come from the environment or a ``.env`` file (see
``settings.DiscordSettings``). A missing or malformed setting, a database that
cannot be used, a token Discord refuses, a metrics port that cannot be
listened on: one line on stderr and exit status 2, without a traceback.
Discord unreachable at start-up (or answering 5xx, or not as Discord) is one
line per attempt, tried again after 1, 2, 4, 8 … seconds; after
``bots.reaching.REACH_ATTEMPTS`` the bot gives up with status 2 (a service manager starts it
again). A gateway never reached is one line per try too (discord.py's), and
status 2 after ``bot.GATEWAY_ATTEMPTS`` tries. The token is never printed, nor is any hand card logged
(``bots.logs``).
"""

from __future__ import annotations

import asyncio
import logging
import sys

import aiohttp
import discord

from storage import StorageError

from .. import memory, reaching
from ..logs import LogFormat
from ..logs import configure_logging as configure_shared
from ..metrics import MetricsUnavailable
from ..reaching import Refused, Unreachable
from ..settings import read_settings
from ..web import WebTable, WebUnavailable
from .bot import BotOptions, GatewayUnreachable, make_bot
from .settings import DiscordSettings, settings_problem


class ReconnectLines(logging.Filter):
    """discord.py logs every failed connection to the gateway with its traceback; it is a
    network fault it will retry, so it is said in one line with its cause."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if error is not None and str(record.msg).startswith("Attempting a reconnect"):
            cause = (str(error).splitlines() or [""])[0][:160]
            record.msg = f"{record.getMessage()} ({type(error).__name__}{': ' + cause if cause else ''})"
            record.args, record.exc_info, record.exc_text = None, None, None
        return True


#: Never below INFO: discord.py's DEBUG lines would carry message payloads (hands included).
QUIET = dict.fromkeys(("discord", "discord.http", "discord.gateway", "discord.webhook"), logging.INFO)


def quiet_voice() -> None:
    """The bot has no voice: discord.py's two warnings that voice is not supported (no
    PyNaCl, no davey), logged when the first client is made, are not said."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False


def configure_logging(level: str | int = logging.INFO, form: LogFormat = "text", *, token: str = "") -> None:
    """Log to stderr through the redactor (``token`` masked wherever it shows), discord.py's
    loggers never below INFO; failed gateway connections in one line each; no voice warnings."""
    configure_shared(level, form, secrets=(token,), floors=QUIET)
    client = logging.getLogger("discord.client")
    if not any(isinstance(f, ReconnectLines) for f in client.filters):
        client.addFilter(ReconnectLines())
    quiet_voice()


REFUSED = "basra-discord: Discord refused DISCORD_BOT_TOKEN (reset it in the Developer Portal)"
#: What a Discord that cannot be reached raises; and one that answers as no Discord would.
NETWORK = (OSError, asyncio.TimeoutError, aiohttp.ClientError, discord.HTTPException)
UNREACHABLE = (*NETWORK, TypeError, KeyError, ValueError)


def _cause(error: BaseException, token: str) -> str:
    if not isinstance(error, NETWORK):  # it answered, but not as Discord's API does
        return "its answer is not Discord's"
    text = f"{type(error).__name__}: {error}".replace(token, "<token>").splitlines()
    return (text[0] if text else type(error).__name__)[:160]


async def reach(token: str) -> int | None:
    """Log in to Discord's HTTP API until it answers (``bots.reaching``); an exit status
    if it never does."""

    async def attempt() -> None:
        client = discord.Client(intents=discord.Intents.default())
        try:
            await client.login(token)
        except discord.LoginFailure:
            raise Refused from None
        except UNREACHABLE as error:
            raise Unreachable(_cause(error, token)) from None
        finally:
            await client.close()

    where = discord.http.Route.BASE.split("/api")[0]
    return await reaching.reach("basra-discord", "Discord", where, REFUSED, attempt)


def main(argv: list[str] | None = None) -> int:
    settings = read_settings(
        "basra-discord",
        lambda: DiscordSettings(),  # type: ignore[call-arg]  # the token comes from the environment
        settings_problem,
    )
    if settings is None:
        return 2
    token = settings.discord_bot_token.get_secret_value()
    configure_logging(settings.log_level or "INFO", settings.log_format, token=token)
    memory.configure(settings.caps())
    options = BotOptions(
        database=settings.database,
        config=settings.service_config(),
        guild_id=settings.discord_guild_id,
        metrics_port=settings.metrics_port,
        metrics_host=settings.metrics_host,
        shard_count=settings.discord_shard_count,
        shard_ids=settings.shard_ids(),
    )
    try:
        if (status := asyncio.run(reach(token))) is not None:
            return status
    except KeyboardInterrupt:  # stopped while still trying to reach Discord
        return 130
    bot = make_bot(options)
    bot.web = WebTable.from_settings(settings, token, telegram=False)
    try:
        bot.run(token, log_handler=None)
    except discord.LoginFailure:
        print(REFUSED, file=sys.stderr)
        return 2
    except discord.PrivilegedIntentsRequired:
        print("basra-discord: Discord refused the requested intents", file=sys.stderr)
        return 2
    except (StorageError, MetricsUnavailable, WebUnavailable) as error:  # the database cannot be
        print(f"basra-discord: {error}", file=sys.stderr)  # used, the metrics or web port is taken
        return 2
    except GatewayUnreachable as error:
        print(f"basra-discord: {error}", file=sys.stderr)
        return 2
    except NETWORK as error:  # Discord was lost between the first answer and the start
        print(f"basra-discord: lost Discord while starting ({_cause(error, token)})", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
