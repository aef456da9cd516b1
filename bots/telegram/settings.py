"""The Telegram bot's settings: the shared ones plus the token and how updates arrive.

``TELEGRAM_BOT_TOKEN`` is required; ``TELEGRAM_API_BASE_URL`` points at a
self-hosted Bot API server; ``TELEGRAM_WEBHOOK_URL`` switches from long
polling to a webhook, which needs ``TELEGRAM_WEBHOOK_SECRET`` (without it,
anyone who finds the URL could push updates as any player). The rest
(``BASRA_DATABASE``, ``BASRA_LANGUAGE``, ...) come from ``bots.settings.BasraSettings``.

>>> s = TelegramSettings(_env_file=None, TELEGRAM_BOT_TOKEN="123456:" + "a" * 35)
>>> s.bot_url_base(), s.webhook_url is None
('https://api.telegram.org/bot', True)
"""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import SettingsConfigDict

from ..settings import BasraSettings, optional_secret

#: ``<bot id>:<secret>`` as BotFather hands it out (the secret is 35 characters today).
TOKEN_PATTERN: Final = re.compile(r"^\d{3,20}:[A-Za-z0-9_-]{20,100}$")
OFFICIAL_API: Final = "https://api.telegram.org"
#: What Telegram accepts as a webhook's secret token (setWebhook's ``secret_token``).
SECRET_PATTERN: Final = re.compile(r"^[A-Za-z0-9_-]{1,256}$")
SECRET_SHAPE: Final = "use 1 to 256 of the characters A-Z, a-z, 0-9, _ and -"
#: Why webhook mode does not start without a secret, in one line.
WEBHOOK_NEEDS_SECRET: Final = (
    "TELEGRAM_WEBHOOK_URL is set but TELEGRAM_WEBHOOK_SECRET is not: a webhook without a secret "
    f"takes updates from anyone who finds its URL ({SECRET_SHAPE}; e.g. `openssl rand -hex 32`)"
)


class TelegramSettings(BasraSettings):
    """Settings for ``python -m bots.telegram``, from the environment or ``.env``."""

    model_config = SettingsConfigDict(
        env_prefix="BASRA_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
    )

    bot_token: SecretStr = Field(validation_alias="TELEGRAM_BOT_TOKEN")
    api_base_url: str | None = Field(default=None, validation_alias="TELEGRAM_API_BASE_URL")
    webhook_url: str | None = Field(default=None, validation_alias="TELEGRAM_WEBHOOK_URL")
    webhook_listen: str = Field(default="0.0.0.0", validation_alias="TELEGRAM_WEBHOOK_LISTEN")
    webhook_port: int = Field(default=8443, ge=1, le=65535, validation_alias="TELEGRAM_WEBHOOK_PORT")
    webhook_secret: SecretStr | None = Field(default=None, validation_alias="TELEGRAM_WEBHOOK_SECRET")

    @field_validator("bot_token")
    @classmethod
    def _token_shape(cls, value: SecretStr) -> SecretStr:
        token = value.get_secret_value().strip()
        if not TOKEN_PATTERN.match(token):
            # Never echo the value: it may be a real token with a typo.
            raise ValueError("it does not look like a BotFather token (<digits>:<35 letters>)")
        return SecretStr(token)

    @field_validator("webhook_secret")
    @classmethod
    def _secret_shape(cls, value: SecretStr | None) -> SecretStr | None:
        return optional_secret(value, lambda secret: SECRET_PATTERN.match(secret) is not None, SECRET_SHAPE)

    @field_validator("api_base_url", "webhook_url")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        parts = urlsplit(value.strip())
        if parts.scheme not in ("http", "https") or not parts.netloc:
            raise ValueError("expected an http(s) URL")
        return value.strip().rstrip("/")

    def bot_url_base(self) -> str:
        """The ``base_url`` python-telegram-bot wants: the server address plus ``/bot``."""
        root = self.api_base_url or OFFICIAL_API
        return root if root.endswith("/bot") else root + "/bot"

    def file_url_base(self) -> str:
        root = self.bot_url_base()
        return root[: -len("/bot")] + "/file/bot"

    def webhook_path(self) -> str:
        """The path the webhook server listens on: the one in ``TELEGRAM_WEBHOOK_URL``."""
        return urlsplit(self.webhook_url or "").path.lstrip("/")


_ENV_NAMES: Final = {
    "bot_token": "TELEGRAM_BOT_TOKEN",
    "TELEGRAM_BOT_TOKEN": "TELEGRAM_BOT_TOKEN",
    "api_base_url": "TELEGRAM_API_BASE_URL",
    "TELEGRAM_API_BASE_URL": "TELEGRAM_API_BASE_URL",
    "webhook_url": "TELEGRAM_WEBHOOK_URL",
    "TELEGRAM_WEBHOOK_URL": "TELEGRAM_WEBHOOK_URL",
    "webhook_port": "TELEGRAM_WEBHOOK_PORT",
    "TELEGRAM_WEBHOOK_PORT": "TELEGRAM_WEBHOOK_PORT",
    "webhook_listen": "TELEGRAM_WEBHOOK_LISTEN",
    "TELEGRAM_WEBHOOK_LISTEN": "TELEGRAM_WEBHOOK_LISTEN",
    "webhook_secret": "TELEGRAM_WEBHOOK_SECRET",
    "TELEGRAM_WEBHOOK_SECRET": "TELEGRAM_WEBHOOK_SECRET",
}


def settings_problem(error: ValidationError) -> str:
    """One line naming the first bad setting by its environment variable, without its value."""
    first = error.errors()[0]
    field = str(first["loc"][0]) if first["loc"] else ""
    name = _ENV_NAMES.get(field, "BASRA_" + field.upper())
    if first["type"] == "missing":
        return f"{name} is not set: create a bot with @BotFather and put its token in {name}"
    message = str(first.get("msg", "invalid")).removeprefix("Value error, ")
    return f"{name} is not valid: {message}"
