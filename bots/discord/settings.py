"""The Discord bot's settings: the shared ``BASRA_*`` ones plus its token.

>>> s = DiscordSettings(_env_file=None, DISCORD_BOT_TOKEN="MTIzNDU2Nzg5MDEy.GhIjKl.abc-def_ghi")
>>> s.database.name, s.discord_bot_token.get_secret_value()[:4]
('basra.sqlite3', 'MTIz')
"""

from __future__ import annotations

import re

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator

from ..settings import BasraSettings

#: A bot token is three base64url parts joined by dots (id, timestamp, HMAC).
TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}$")


class DiscordSettings(BasraSettings):
    """``DISCORD_BOT_TOKEN`` (required), ``DISCORD_GUILD_ID`` (optional: sync the slash
    commands to that one server at once, handy while trying the bot out), and the
    shared ``BASRA_DATABASE``, ``BASRA_LANGUAGE``, ``BASRA_TURN_SECONDS``, ..."""

    discord_bot_token: SecretStr = Field(validation_alias="DISCORD_BOT_TOKEN")
    discord_guild_id: int | None = Field(default=None, validation_alias="DISCORD_GUILD_ID")
    #: Gateway shards: how many the bot has, and which of them this process holds
    #: ("0,1"; all when unset). Several processes need a PostgreSQL ``BASRA_DATABASE``.
    discord_shard_count: int | None = Field(default=None, ge=1, validation_alias="DISCORD_SHARD_COUNT")
    discord_shard_ids: str | None = Field(default=None, validation_alias="DISCORD_SHARD_IDS")

    @model_validator(mode="after")
    def _shards(self) -> DiscordSettings:
        ids = self.shard_ids()
        if ids is not None and self.discord_shard_count is None:
            raise ValueError("DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT")
        if ids is not None and self.discord_shard_count is not None:
            wrong = [i for i in ids if not 0 <= i < self.discord_shard_count]
            if wrong:
                raise ValueError(
                    f"DISCORD_SHARD_IDS {wrong} are not shards of {self.discord_shard_count} (0 to "
                    f"{self.discord_shard_count - 1})"
                )
        return self

    def shard_ids(self) -> tuple[int, ...] | None:
        """``DISCORD_SHARD_IDS`` as numbers ("0, 2" is (0, 2)); None when unset."""
        if self.discord_shard_ids is None or not self.discord_shard_ids.strip():
            return None
        try:
            return tuple(sorted({int(part) for part in self.discord_shard_ids.split(",") if part.strip()}))
        except ValueError:
            wrong = self.discord_shard_ids
            raise ValueError(f"DISCORD_SHARD_IDS is not a list of numbers: {wrong!r}") from None

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
        if not item["loc"]:  # a rule across settings: its message names them
            problems.append(str(item["msg"]).removeprefix("Value error, "))
            continue
        name = str(item["loc"][0])
        env_name = name.upper() if name.upper().startswith("DISCORD_") else f"BASRA_{name.upper()}"
        if item["type"] == "missing":
            problems.append(f"{env_name} is not set")
        else:
            message = str(item["msg"]).removeprefix("Value error, ")
            problems.append(f"{env_name} {message}")
    return "; ".join(problems)
