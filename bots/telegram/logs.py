"""Logging for the Telegram bot: its logging setup, and the one error handler.

The redactor, the format and the level are shared by every entry point
(``bots.logs``): no hand card and no bot token reaches a log line. Here the
HTTP client's loggers are kept quiet (their lines carry the token in URLs),
and updates are described by ids only.
"""

from __future__ import annotations

import logging
from typing import Any, Final

from telegram import Update
from telegram.error import Forbidden, NetworkError, RetryAfter, TimedOut
from telegram.ext import CallbackContext

from ..logs import CardRedactor, LogFormat, redact
from ..logs import configure_logging as configure_shared
from ..metrics import Metrics

__all__ = ["CardRedactor", "configure_logging", "describe_update", "on_error", "redact"]

log = logging.getLogger("bots.telegram")

#: Never below WARNING: the HTTP client's lines carry the token, python-telegram-bot's payloads.
QUIET: Final = dict.fromkeys(
    ("httpx", "httpcore", "telegram.request", "telegram.bot", "telegram.ext.ExtBot"), logging.WARNING
)


def configure_logging(level: str | int = logging.INFO, form: LogFormat = "text", *, token: str = "") -> None:
    """Log to stderr through the redactor (``token`` masked wherever it shows); quiet the HTTP client."""
    configure_shared(level, form, secrets=(token,), floors=QUIET)


def describe_update(update: object) -> str:
    """Which update failed, by ids only: never its text or button payload (they may hold cards)."""
    if not isinstance(update, Update):
        return type(update).__name__
    chat = update.effective_chat.id if update.effective_chat else None
    user = update.effective_user.id if update.effective_user else None
    kind = "press" if update.callback_query else "message" if update.effective_message else "update"
    return f"{kind} {update.update_id} (chat {chat}, user {user})"


async def on_error(
    update: object, context: CallbackContext[Any, Any, Any, Any], metrics: Metrics | None = None
) -> None:
    """The one error handler: anything the handlers did not turn into a reply ends here (and is
    counted by kind in ``metrics``; a chat that refused the bot is no fault)."""
    error = context.error
    where = describe_update(update)
    if isinstance(error, Forbidden):
        log.info("cannot write for %s: %s", where, error.message)
    elif isinstance(error, RetryAfter | TimedOut | NetworkError):
        log.warning("Telegram did not answer for %s: %s", where, type(error).__name__)
        if metrics is not None:
            metrics.error("network")
    else:
        log.error("unhandled error for %s", where, exc_info=error)
        if metrics is not None:
            metrics.error("unhandled")
