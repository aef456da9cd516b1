"""Logging for every entry point (both bots and ``basra``): one setup, no card or token in any line.

A hand card must never reach a log, and a traceback can carry one (a message
such as ``illegal play '7S'``, a button payload, a message text). Rather than
trust every call site, ``CardRedactor`` masks everything that looks like a card
or a bot token (Telegram's and Discord's) in each record that passes the
handler, traceback included.

>>> redact("play b1|card|abc|3|10D and 7♦ with 123456:" + "x" * 35)
'play b1|card|abc|3|?? and ?? with <token>'
>>> redact("Bot MTA5ODc2NTQzMjEwOTg3NjU0.GfakeA.0123456789abcdefghijklmnopqrstuvwxyzAB refused")
'Bot <token> refused'

``BASRA_LOG_LEVEL`` sets the level and ``BASRA_LOG_FORMAT=json`` writes one
JSON object per line (``time``, ``level``, ``logger``, ``message``, and
``exception`` when there is one) instead of plain text.
"""

from __future__ import annotations

import json
import logging
import re
import traceback
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Final, Literal

LogFormat = Literal["text", "json"]

_CARD: Final = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9AJQK])(?:[CDHS](?![A-Za-z0-9])|[♣♦♥♠])")
#: BotFather's ``<bot id>:<secret>``.
_TELEGRAM_TOKEN: Final = re.compile(r"\d{3,20}:[A-Za-z0-9_-]{20,100}")
#: Discord's three base64url parts: the bot's id (a number, so its first letter is M, N or O),
#: a timestamp, an HMAC.
_DISCORD_TOKEN: Final = re.compile(
    r"(?<![A-Za-z0-9_-])[MNO][A-Za-z0-9_-]{15,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}(?![A-Za-z0-9_-])"
)
TEXT_FORMAT: Final = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def redact(text: str) -> str:
    """``text`` with card codes and labels masked as ``??`` and bot tokens as ``<token>``."""
    return _CARD.sub("??", _DISCORD_TOKEN.sub("<token>", _TELEGRAM_TOKEN.sub("<token>", text)))


class CardRedactor(logging.Filter):
    """A handler filter: renders the message (and traceback) and masks cards and tokens;
    ``secrets`` (the bot's own token) are masked whatever they look like."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        super().__init__()
        self.secrets = tuple(s for s in secrets if s)

    def _clean(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "<token>")
        return redact(text)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a broken format string must not lose the record
            message = str(record.msg)
        record.msg, record.args = self._clean(message), None
        if record.exc_info:
            record.exc_text = self._clean("".join(traceback.format_exception(*record.exc_info)).rstrip())
            record.exc_info = None
        elif record.exc_text:
            record.exc_text = self._clean(record.exc_text)
        if record.stack_info:
            record.stack_info = self._clean(record.stack_info)
        return True


class JsonLines(logging.Formatter):
    """One JSON object per record, on one line: what a log collector parses without rules.

    >>> record = logging.LogRecord("bots", logging.INFO, __file__, 1, "up", None, None)
    >>> record.created = 0.0
    >>> JsonLines().format(record)
    '{"time": "1970-01-01T00:00:00.000Z", "level": "INFO", "logger": "bots", "message": "up"}'
    """

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, str] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exception"] = record.exc_text
        if record.stack_info:
            line["stack"] = record.stack_info
        return json.dumps(line, ensure_ascii=False)


def configure_logging(
    level: str | int = logging.INFO,
    form: LogFormat = "text",
    *,
    secrets: Iterable[str] = (),
    floors: Mapping[str, int] | None = None,
) -> logging.Handler:
    """Log to stderr at ``level``, as text or JSON lines, through the redactor; the one
    handler of the root logger. ``floors`` keeps chatty libraries' loggers at or above a
    level whatever ``level`` says (their debug lines carry payloads, hands included, or the
    token in a URL). Returns the handler."""
    number = logging.getLevelName(level.upper()) if isinstance(level, str) else level
    if not isinstance(number, int):
        raise ValueError(f"no log level {level!r}")
    handler = logging.StreamHandler()
    handler.setFormatter(JsonLines() if form == "json" else logging.Formatter(TEXT_FORMAT))
    handler.addFilter(CardRedactor(secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(number)
    for name, floor in (floors or {}).items():
        logging.getLogger(name).setLevel(max(number, floor))
    return handler
