"""Settings shared by both bots, from the environment or a ``.env`` file.

>>> settings = BasraSettings(_env_file=None)
>>> settings.database.name, settings.language, settings.turn_seconds
('basra.sqlite3', 'ar', 120)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal, TypeVar
from urllib.parse import urlsplit

from pydantic import Field, SecretStr, ValidationError, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from storage.location import is_postgres_url

from .memory import Caps
from .service.config import ServiceConfig

SettingsT = TypeVar("SettingsT", bound=BaseSettings)


class BasraSettings(BaseSettings):
    """``BASRA_DATABASE``, ``BASRA_LANGUAGE``, ``BASRA_TURN_SECONDS``, ``BASRA_COMPUTER_DELAY``,
    ``BASRA_LOG_LEVEL``, ``BASRA_LOG_FORMAT``, ``BASRA_METRICS_PORT``, ...

    Each bot subclasses this and adds its own token settings (with their own
    prefix, e.g. ``TELEGRAM_BOT_TOKEN`` via ``validation_alias``).
    """

    model_config = SettingsConfigDict(
        env_prefix="BASRA_", env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    #: An SQLite file's path, or a ``postgresql://`` URL (several processes on one database).
    database: Path | str = Path("basra.sqlite3")
    language: Literal["ar", "en"] = "ar"
    turn_seconds: int = Field(default=120, ge=10, le=3600)
    warning_seconds: int = Field(default=30, ge=0)
    computer_delay: float = Field(default=0.8, ge=0, le=30)
    #: Worker processes computer seats think in; 0: a thread of the bot's own process;
    #: unset: one fewer than the cores, at least one (``bots.service.thinking``).
    computer_processes: int | None = Field(default=None, ge=0, le=64)
    lobby_idle_seconds: float = Field(default=15 * 60, gt=0)
    practice_idle_seconds: float = Field(default=24 * 60 * 60, gt=0)
    #: Unset: INFO for the bots, WARNING for ``basra`` (its table shares the terminal).
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] | None = None
    log_format: Literal["text", "json"] = "text"
    #: ``/healthz`` and ``/metrics`` (``bots.metrics``) on this port; unset: not served.
    metrics_port: int | None = Field(default=None, ge=0, le=65535)
    metrics_host: str = "127.0.0.1"
    #: The table as a web page (``bots.web``): served on this port, at the public ``https``
    #: address ``web_url`` a reverse proxy gives it; both unset: not served.
    web_port: int | None = Field(default=None, ge=0, le=65535)
    web_host: str = "127.0.0.1"
    web_url: str | None = None
    #: Signs the page's links and sessions; unset: derived from the bot's token.
    web_secret: SecretStr | None = None
    #: Days a finished match is kept after it closed; 0: kept for good.
    keep_finished_days: int = Field(default=0, ge=0, le=36500)
    #: The pairing pool (``bots.service.pool``): the wait before the computer is offered,
    #: how often waves pair people, and the clock of a match between strangers.
    pool_wait_seconds: float = Field(default=45.0, ge=5, le=3600)
    pool_wave_seconds: float = Field(default=2.0, ge=0.5, le=60)
    pool_turn_seconds: int = Field(default=60, ge=10, le=3600)
    #: How old a Telegram Mini App's login (its ``auth_date``) may be, and how long a link lasts.
    web_login_seconds: int = Field(default=600, ge=10, le=86400)
    #: The sizes what a process keeps stops at (``bots.memory``, README *Memory*).
    keep_table_refs: int = Field(default=Caps.table_refs, ge=1)
    keep_write_stamps: int = Field(default=Caps.write_stamps, ge=1)
    keep_message_digests: int = Field(default=Caps.message_digests, ge=1)
    keep_retired_hands: int = Field(default=Caps.retired_hands, ge=1)
    sqlite_cache_kb: int = Field(default=Caps.sqlite_cache_kb, ge=1)

    @field_validator("database", mode="before")
    @classmethod
    def _named(cls, value: Any) -> Any:
        if isinstance(value, str) and not value.strip():
            raise ValueError("it is empty: give the database file's path")
        if isinstance(value, str) and is_postgres_url(value):
            return value.strip()
        return Path(value) if isinstance(value, str) else value

    @field_validator("web_url")
    @classmethod
    def _https(cls, value: str | None) -> str | None:
        """Telegram opens Mini Apps only over HTTPS: the public address must be one."""
        if value is None or not value.strip():
            return None
        parts = urlsplit(value.strip())
        if parts.scheme != "https" or not parts.netloc or parts.query or parts.fragment:
            raise ValueError("expected the page's public https:// address, e.g. https://basra.example.org")
        return value.strip().rstrip("/")

    @field_validator("web_secret")
    @classmethod
    def _long_secret(cls, value: SecretStr | None) -> SecretStr | None:
        return optional_secret(
            value, lambda secret: len(secret) >= 16, "use at least 16 characters, e.g. `openssl rand -hex 32`"
        )

    @field_validator(
        "log_level", "log_format", "metrics_port", "web_port", "computer_processes", mode="before"
    )
    @classmethod
    def _blank_is_default(cls, value: Any, info: ValidationInfo) -> Any:
        """An empty value (``BASRA_METRICS_PORT=``) is the default; a level or format in any case."""
        if not isinstance(value, str):
            return value
        text = value.strip()
        if not text:
            return cls.model_fields[str(info.field_name)].default
        return text.upper() if info.field_name == "log_level" else text.lower()

    def caps(self) -> Caps:
        """The sizes what the process keeps stops at (``bots.memory.configure``)."""
        return Caps(
            table_refs=self.keep_table_refs,
            write_stamps=self.keep_write_stamps,
            message_digests=self.keep_message_digests,
            retired_hands=self.keep_retired_hands,
            sqlite_cache_kb=self.sqlite_cache_kb,
        )

    def service_config(self) -> ServiceConfig:
        """The table service's knobs from these settings."""
        return ServiceConfig(
            turn_seconds=self.turn_seconds,
            warning_seconds=self.warning_seconds,
            computer_delay=self.computer_delay,
            computer_processes=self.computer_processes,
            lobby_idle_seconds=self.lobby_idle_seconds,
            practice_idle_seconds=self.practice_idle_seconds,
            language=self.language,
            keep_finished_days=self.keep_finished_days,
            pool_wait_seconds=self.pool_wait_seconds,
            pool_wave_seconds=self.pool_wave_seconds,
            pool_turn_seconds=self.pool_turn_seconds,
        )


def optional_secret(value: SecretStr | None, fits: Callable[[str], bool], shape: str) -> SecretStr | None:
    """A secret setting without the blanks around it, None when it is unset or blank; one that
    does not ``fit`` is refused with ``shape``, what it should look like (never the value)."""
    secret = value.get_secret_value().strip() if value is not None else ""
    if not secret:
        return None
    if not fits(secret):
        raise ValueError(shape)
    return SecretStr(secret)


def read_settings(
    program: str, read: Callable[[], SettingsT], problem: Callable[[ValidationError], str]
) -> SettingsT | None:
    """A bot's settings as ``read()`` from the environment and ``.env``, or None once what is
    wrong with them has been printed to stderr in one line under ``program``'s name (by
    ``problem``, which never shows a value)."""
    try:
        return read()
    except ValidationError as error:
        print(f"{program}: {problem(error)}", file=sys.stderr)
    except UnicodeDecodeError as error:
        print(f"{program}: {not_utf8(error)}", file=sys.stderr)
    return None


def bad_setting(error: ValidationError) -> str:
    """One line naming the first bad ``BASRA_`` setting by its environment variable, without
    its value (the bots name their own token settings themselves)."""
    first = error.errors()[0]
    field = str(first["loc"][0]) if first["loc"] else ""
    message = str(first.get("msg", "invalid")).removeprefix("Value error, ")
    return f"BASRA_{field.upper()} is not valid: {message}"


def not_utf8(error: UnicodeDecodeError) -> str:
    """One line for a ``.env`` file that is not UTF-8 text (its values are never shown)."""
    return f".env is not UTF-8 text (byte {error.start} cannot be read): save it as UTF-8"
