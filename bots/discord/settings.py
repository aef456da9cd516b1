"""The Discord bot's settings: the shared ``BASRA_*`` ones plus its token.

>>> s = DiscordSettings(_env_file=None, DISCORD_BOT_TOKEN="MTIzNDU2Nzg5MDEy.GhIjKl.abc-def_ghi")
>>> s.database.name, s.discord_bot_token.get_secret_value()[:4]
('basra.sqlite3', 'MTIz')
"""

from __future__ import annotations

import re

from pydantic import Field, SecretStr, ValidationError, field_validator

from ..settings import BasraSettings

#: A bot token is three base64url parts joined by dots (id, timestamp, HMAC).
TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}$")


class DiscordSettings(BasraSettings):
    """``DISCORD_BOT_TOKEN`` (required), ``DISCORD_GUILD_ID`` (optional: sync the slash
    commands to that one server at once, handy while trying the bot out), and the
    shared ``BASRA_DATABASE``, ``BASRA_LANGUAGE``, ``BASRA_TURN_SECONDS``, ..."""

    discord_bot_token: SecretStr = Field(validation_alias="DISCORD_BOT_TOKEN")
    discord_guild_id: int | None = Field(default=None, validation_alias="DISCORD_GUILD_ID")

    @field_validator("discord_bot_token")
    @classmethod
    def _token_shape(cls, token: SecretStr) -> SecretStr:
        text = token.get_secret_value().strip()
        if text.lower().startswith("bot "):
            text = text[4:].strip()
        if not TOKEN_SHAPE.match(text):
            # Never echo the value: it is a secret, even when it is a wrong one.
            raise ValueError("does not look like a Discord bot token (three parts separated by dots)")
        return SecretStr(text)


def settings_problem(error: ValidationError) -> str:
    """One line saying what is wrong with the environment, without any secret in it."""
    problems = []
    for item in error.errors():
        name = str(item["loc"][0]) if item["loc"] else "settings"
        env_name = name.upper() if name.upper().startswith("DISCORD_") else f"BASRA_{name.upper()}"
        if item["type"] == "missing":
            problems.append(f"{env_name} is not set")
        else:
            message = str(item["msg"]).removeprefix("Value error, ")
            problems.append(f"{env_name} {message}")
    return "; ".join(problems)
