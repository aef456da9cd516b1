"""Every call that changes what players see goes through here, and none is lost.

The dispatcher (``bots.outbound``, with ``limits``) plans every write within
Telegram's flood limits and retries what fails. What is left is handled here:

- an edit that would change nothing is not sent (the last content of each
  message is remembered), and Telegram's "message is not modified" counts as
  done;
- a message that is gone (deleted, too old to edit) is reported as ``GONE`` so
  the caller posts a new one;
- a chat the bot may not write to (blocked, never started, kicked) is reported
  as ``BLOCKED``;
- a group that became a supergroup (Telegram's ``ChatMigrated``) is reported as
  ``MOVED`` with its new id, and ``on_moved`` is told, whoever made the call:
  nothing sent to the old id can ever arrive, so the caller sends to the new
  one and the game follows the group there;
- a network error is retried at once a couple of times; if Telegram still
  refuses (flood, outage) the call is reported as ``FAILED`` (with the pause
  a 429 asked for), and the dispatcher (``bots.outbound``) runs it again later.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import sys
import warnings
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from enum import Enum
from typing import Any, Final

from telegram import Bot, InlineKeyboardMarkup, InputFile, LinkPreviewOptions, ReplyParameters
from telegram.constants import ParseMode
from telegram.error import (
    BadRequest,
    ChatMigrated,
    Forbidden,
    NetworkError,
    RetryAfter,
    TelegramError,
    TimedOut,
)
from telegram.warnings import PTBUserWarning

from .. import memory
from ..outbound import note_call

log = logging.getLogger(__name__)

_INLINE_RETRIES: Final = (0.05, 0.25)
_NO_PREVIEW: Final = LinkPreviewOptions(is_disabled=True)
#: The methods the outbox calls by name, for their answers as plain JSON.
_BY_NAME: Final = ("sendMessage", "editMessageText", "editMessageReplyMarkup")
#: What ``Bot.do_api_request`` says each time it is asked for one of those:
#: the outbox means to, so that warning alone is ignored (any other still shows).
_ADVICE: Final = r"Please use 'Bot\.(?:{})' instead of 'Bot\.do_api_request\(".format("|".join(_BY_NAME))


class Outcome(Enum):
    DONE = "done"
    UNCHANGED = "unchanged"
    GONE = "gone"
    BLOCKED = "blocked"
    MOVED = "moved"
    FAILED = "failed"

    @property
    def ok(self) -> bool:
        return self in (Outcome.DONE, Outcome.UNCHANGED)


@dataclass(frozen=True, slots=True)
class Content:
    """A message body: Telegram HTML and an optional inline keyboard."""

    html: str
    markup: InlineKeyboardMarkup | None = None

    def fingerprint(self) -> str:
        """What Telegram compares for "not modified": the text and every button (cheaply)."""
        if self.markup is None:
            return self.html
        buttons = "\x01".join(
            f"{b.text}\x02{b.callback_data or ''}\x02{b.url or ''}"
            for row in self.markup.inline_keyboard for b in row
        )
        rows = ",".join(str(len(row)) for row in self.markup.inline_keyboard)
        return f"{self.html}\x00{rows}\x00{buttons}"


@dataclass(frozen=True, slots=True)
class Sent:
    outcome: Outcome
    message_id: int | None = None
    retry_after: float = 0.0
    #: ``MOVED``: the id of the supergroup the chat became.
    moved_to: int | None = None


def _gone(error: BadRequest) -> bool:
    text = error.message.lower()
    return any(
        phrase in text
        for phrase in (
            "message to edit not found",
            "message can't be edited",
            "message to delete not found",
            "message identifier is not specified",
            "message can't be deleted",
            "chat not found",
        )
    )


def _digest(content: Content) -> bytes:
    """What tells one content from another, in 16 bytes rather than the whole text."""
    return hashlib.blake2b(content.fingerprint().encode(), digest_size=16).digest()


def _not_modified(error: BadRequest) -> bool:
    return "message is not modified" in error.message.lower()


class Outbox:
    """Sends, edits and deletes messages for the adapter, with the rules above."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        warnings.filterwarnings("ignore", message=_ADVICE, category=PTBUserWarning)
        self._shown: OrderedDict[tuple[int, int], bytes] = OrderedDict()
        #: Told ``(old, new)`` each time Telegram answers that a group now has another id.
        self.on_moved: Callable[[int, int], None] | None = None

    def _remember(self, chat_id: int, message_id: int, content: Content) -> None:
        key = (chat_id, message_id)
        self._shown[key] = _digest(content)
        self._shown.move_to_end(key)
        while len(self._shown) > memory.CAPS.message_digests:
            self._shown.popitem(last=False)

    def forget(self, chat_id: int, message_id: int) -> None:
        self._shown.pop((chat_id, message_id), None)

    def shows(self, chat_id: int, message_id: int, content: Content) -> bool:
        """Whether the message is known to show exactly ``content`` already."""
        return self._shown.get((chat_id, message_id)) == _digest(content)

    async def _call(self, method: str, params: dict[str, Any]) -> Any:
        """Call a Bot API method and take its result as plain JSON.

        ``Bot.send_message`` and ``Bot.edit_message_text`` turn every answer
        into a ``telegram.Message`` with its sender, chat, entities and
        buttons, and all the outbox reads of it is the message id: building
        those objects was about a quarter of the bot's CPU time per update,
        and most of the objects it allocated. ``Bot.do_api_request`` returns
        the JSON as it came, through the same path underneath (the bot's rate
        limiter if it has one, failures as ``TelegramError``). It advises using
        the named method instead, each time: that advice is ignored for the
        outbox's three methods alone (``_ADVICE``), every other warning shows.
        """
        return await self.bot.do_api_request(method, params)

    async def send(self, chat_id: int, content: Content, *, silent: bool = False,
                   reply_to: int | None = None) -> Sent:
        """Send a message, as a reply to ``reply_to`` when that one is still there."""

        async def call() -> int:
            params: dict[str, Any] = {
                "chat_id": chat_id,
                "text": content.html,
                "parse_mode": ParseMode.HTML,
                "reply_markup": content.markup,
                "disable_notification": silent,
                "link_preview_options": _NO_PREVIEW,
            }
            if reply_to is not None:
                params["reply_parameters"] = ReplyParameters(reply_to, allow_sending_without_reply=True)
            message = await self._call("sendMessage", params)
            return int(message["message_id"])

        # A send that timed out may have been carried out: do not repeat it at
        # once (a duplicate is worse than a later repair, which edits in place).
        sent = await self._attempt(chat_id, call, repeat_timeouts=False)
        if sent.outcome is Outcome.DONE and sent.message_id is not None:
            self._remember(chat_id, sent.message_id, content)
        return sent

    async def edit(self, chat_id: int, message_id: int, content: Content) -> Sent:
        if self.shows(chat_id, message_id, content):
            return Sent(Outcome.UNCHANGED, message_id)

        async def call() -> int:
            await self._call("editMessageText", {
                "chat_id": chat_id,
                "message_id": message_id,
                "text": content.html,
                "parse_mode": ParseMode.HTML,
                "reply_markup": content.markup,
                "link_preview_options": _NO_PREVIEW,
            })
            return message_id

        sent = await self._attempt(chat_id, call, repeat_timeouts=True)
        if sent.outcome.ok:
            self._remember(chat_id, message_id, content)
        elif sent.outcome in (Outcome.GONE, Outcome.BLOCKED, Outcome.MOVED):
            self.forget(chat_id, message_id)
        return sent

    async def send_document(self, chat_id: int, name: str, data: bytes, caption_html: str, *,
                            reply_to: int | None = None) -> Sent:
        """Upload a file (a match's record), under ``reply_to`` when it is still there."""

        async def call() -> int:
            reply = ReplyParameters(reply_to, allow_sending_without_reply=True) if reply_to else None
            message = await self.bot.send_document(
                chat_id, InputFile(data, filename=name), caption=caption_html, parse_mode=ParseMode.HTML,
                reply_parameters=reply, disable_content_type_detection=True)
            return message.message_id

        # Like a message, an upload that timed out may have arrived: not repeated at once.
        return await self._attempt(chat_id, call, repeat_timeouts=False)

    async def drop_keyboard(self, chat_id: int, message_id: int, *, keep: InlineKeyboardMarkup | None = None
                            ) -> Sent:
        """Take a message's buttons away (all but ``keep``), its text untouched."""
        self.forget(chat_id, message_id)

        async def call() -> int:
            params: dict[str, Any] = {"chat_id": chat_id, "message_id": message_id}
            if keep is not None:
                params["reply_markup"] = keep
            await self._call("editMessageReplyMarkup", params)
            return message_id

        return await self._attempt(chat_id, call, repeat_timeouts=True)

    async def delete(self, chat_id: int, message_id: int) -> Sent:
        self.forget(chat_id, message_id)

        async def call() -> int:
            await self.bot.delete_message(chat_id, message_id)
            return message_id

        return await self._attempt(chat_id, call, repeat_timeouts=True)

    async def _attempt(self, chat_id: int, call: Callable[[], Awaitable[int]], *,
                       repeat_timeouts: bool) -> Sent:
        for pause in (*_INLINE_RETRIES, None):
            try:
                try:
                    made = await call()
                finally:  # Telegram answered, done or refused: it counts the call against its limits
                    if not _unanswered():
                        note_call()
                return Sent(Outcome.DONE, made)
            except ChatMigrated as error:
                log.info("chat %d became the supergroup %d", chat_id, error.new_chat_id)
                if self.on_moved is not None:
                    self.on_moved(chat_id, error.new_chat_id)
                return Sent(Outcome.MOVED, moved_to=error.new_chat_id)
            except BadRequest as error:
                if _not_modified(error):
                    return Sent(Outcome.DONE)  # a call made all the same: it counts against the limits
                if _gone(error):
                    return Sent(Outcome.GONE)
                log.error("Telegram refused a call: %s", error.message)
                return Sent(Outcome.FAILED)
            except Forbidden:
                return Sent(Outcome.BLOCKED)
            except RetryAfter as error:
                # Over a flood limit after all: the dispatcher waits as long as Telegram asks.
                log.warning("Telegram asked to wait %.1f s", _seconds(error.retry_after))
                return Sent(Outcome.FAILED, retry_after=_seconds(error.retry_after))
            except TimedOut:
                if not repeat_timeouts or pause is None:
                    return Sent(Outcome.FAILED)
            except NetworkError:
                if pause is None:
                    return Sent(Outcome.FAILED)
            except TelegramError as error:
                log.error("Telegram error: %s", type(error).__name__)
                return Sent(Outcome.FAILED)
            await asyncio.sleep(pause)
        return Sent(Outcome.FAILED)


def _unanswered() -> bool:
    """Whether the exception being handled says Telegram did not take the call at all (a
    flood refusal, a network failure or a timeout) rather than answering it."""
    error = sys.exc_info()[1]
    return isinstance(error, (RetryAfter, NetworkError)) and not isinstance(error, (BadRequest, ChatMigrated))


def _seconds(duration: float | timedelta) -> float:
    """A duration from python-telegram-bot, a timedelta or (without PTB_TIMEDELTA) seconds."""
    return duration.total_seconds() if isinstance(duration, timedelta) else float(duration)
