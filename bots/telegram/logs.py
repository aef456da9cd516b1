"""Logging for the bot: one error handler, and no card or token in any log line.

A hand card must never reach a log, and a traceback can carry one (a message
such as ``illegal play '7S'``, a button payload, a message text). Rather than
trust every call site, ``CardRedactor`` masks everything that looks like a card
or a bot token in each record that passes a handler, traceback included.

>>> redact("play b1|card|abc|3|10D and 7♦ with 123456:" + "x" * 35)
'play b1|card|abc|3|?? and ?? with <token>'
"""

from __future__ import annotations

import logging
import re
import traceback
from typing import Any, Final

from telegram import Update
from telegram.error import Forbidden, NetworkError, RetryAfter, TimedOut
from telegram.ext import CallbackContext

log = logging.getLogger("bots.telegram")

_CARD: Final = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])(?:[CDHS](?![A-Za-z0-9])|[♣♦♥♠])")
_TOKEN: Final = re.compile(r"\d{3,20}:[A-Za-z0-9_-]{20,100}")


def redact(text: str) -> str:
    """``text`` with card codes and labels masked as ``??`` and bot tokens as ``<token>``."""
    return _CARD.sub("??", _TOKEN.sub("<token>", text))


class CardRedactor(logging.Filter):
    """A handler filter: renders the message (and traceback) and masks cards and tokens."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string must not lose the record
            message = str(record.msg)
        record.msg, record.args = redact(message), None
        if record.exc_info:
            record.exc_text = redact("".join(traceback.format_exception(*record.exc_info)).rstrip())
            record.exc_info = None
        elif record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


def configure_logging(level: int = logging.INFO) -> None:
    """Log to stderr through the redactor; quiet the HTTP client (its lines carry the token)."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    handler.addFilter(CardRedactor())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    for noisy in ("httpx", "httpcore", "telegram.request", "telegram.bot", "telegram.ext.ExtBot"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def describe_update(update: object) -> str:
    """Which update failed, by ids only: never its text or button payload (they may hold cards)."""
    if not isinstance(update, Update):
        return type(update).__name__
    chat = update.effective_chat.id if update.effective_chat else None
    user = update.effective_user.id if update.effective_user else None
    kind = "press" if update.callback_query else "message" if update.effective_message else "update"
    return f"{kind} {update.update_id} (chat {chat}, user {user})"


async def on_error(update: object, context: CallbackContext[Any, Any, Any, Any]) -> None:
    """The one error handler: anything the handlers did not turn into a reply ends here."""
    error = context.error
    where = describe_update(update)
    if isinstance(error, Forbidden):
        log.info("cannot write for %s: %s", where, error.message)
    elif isinstance(error, RetryAfter | TimedOut | NetworkError):
        log.warning("Telegram did not answer for %s: %s", where, type(error).__name__)
    else:
        log.error("unhandled error for %s", where, exc_info=error)
