"""What the command and press handlers share: who is speaking, in which language, and replies.

Replies are writes like any other (``Delivery.post``): planned within the chat's
flood limit, ahead of table refreshes, and sent again after a flood error or a
dropped connection.
"""

from __future__ import annotations

import html
import logging
import time
from typing import Any

from telegram import InlineKeyboardButton, Message, User
from telegram.constants import ChatType
from telegram.ext import CallbackContext

from ..i18n import Translator, translator, user_text
from ..metrics import Metrics
from ..render import Rendered
from ..service import (
    Person,
    TableService,
    player_id,
)
from .contents import content_of
from .delivery import Delivery
from .keyboards import keyboard
from .outbox import Content, Outcome

log = logging.getLogger(__name__)
Context = CallbackContext[Any, Any, Any, Any]
ALERT_LIMIT = 200
#: Commands that only inform: in a group their answers wait behind table writes, and one
#: person's repeat within ``REPEAT_WINDOW`` seconds is not answered again.
INFORMATIONAL = frozenset({"help", "rules", "score", "top", "settings", "privacy"})
REPEAT_WINDOW = 60.0
REPEATS_KEPT = 1000  # past this many, the expired ones are dropped


def person_of(user: User) -> Person:
    name = user.full_name.strip() or (user.username or str(user.id))
    return Person(player_id("tg", user.id), name[:64], user.language_code)


def short(text: str) -> str:
    """A callback answer fits Telegram's 200 characters."""
    text = " ".join(text.split())
    return text if len(text) <= ALERT_LIMIT else text[: ALERT_LIMIT - 1] + "…"


def command_of(message: Message) -> str:
    """The command a message starts with, without its slash and ``@bot``: ``help``."""
    text = message.text or ""
    if not text.startswith("/"):
        return ""
    return text[1:].split(maxsplit=1)[0].partition("@")[0].lower() if len(text) > 1 else ""


def is_private_message(message: Message) -> bool:
    return message.chat.type == ChatType.PRIVATE


def _escape(text: str) -> str:
    return html.escape(text, quote=False)


class Replies:
    """The parts of the handlers that talk back."""

    def __init__(self, delivery: Delivery, metrics: Metrics | None = None) -> None:
        self.delivery = delivery
        #: Errors by kind and press answer times (``bots.metrics``).
        self.metrics = metrics if metrics is not None else Metrics()
        #: When each person last asked each group an informational command (``repeated``).
        self._asked: dict[tuple[int, str, str], float] = {}

    @property
    def service(self) -> TableService:
        return self.delivery.service

    async def language(self, chat: str | None, person: Person) -> Translator:
        return translator(await self.service.language(chat, person))

    async def reply(self, message: Message, rendered: Rendered | Content, *,
                    reply_to: int | None = None) -> None:
        """Answer a command, under ``reply_to`` (another message it points to) when given.
        In a group, the answer to a command that only informs lets a table write ready at the
        same moment go first (``Delivery.post``'s ``aside``)."""
        content = rendered if isinstance(rendered, Content) else content_of(rendered)
        aside = not is_private_message(message) and command_of(message) in INFORMATIONAL
        self.delivery.post(message.chat_id, content, key=("reply", message.chat_id, message.message_id),
                           reply_to=reply_to, aside=aside)

    def repeated(self, message: Message, person: Person) -> bool:
        """Whether ``person`` asked this group the same informational command less than
        ``REPEAT_WINDOW`` seconds ago: the answer is still there, and is not sent again
        (one person cannot spend a group's budget, which its tables share, on repeats)."""
        command = command_of(message)
        if is_private_message(message) or command not in INFORMATIONAL:
            return False
        now = time.monotonic()
        asked = self._asked
        if len(asked) > REPEATS_KEPT:
            for key in [k for k, at in asked.items() if now - at >= REPEAT_WINDOW]:
                del asked[key]
        # /top and /top online are two boards: a person may ask for each.
        board = command == "top" and "online" in (message.text or "").lower().split()[1:]
        key = (message.chat_id, person.player_id, f"{command} online" if board else command)
        last = asked.get(key)
        if last is not None and now - last < REPEAT_WINDOW:
            return True
        asked[key] = now
        return False

    async def reply_text(self, message: Message, text: str,
                         buttons: list[list[InlineKeyboardButton]] | None = None) -> None:
        await self.reply(message, Content(_escape(text), keyboard((), buttons or [])))

    async def in_private(self, message: Message, t: Translator, elsewhere: str) -> bool:
        """Whether ``message`` came in a private chat; from anywhere else it is answered with
        ``elsewhere`` (what to do in private) and a button that opens the chat with the bot."""
        if is_private_message(message):
            return True
        link = InlineKeyboardButton(t.gettext("Open the bot"), url=f"https://t.me/{self.delivery.bot_username}")
        await self.reply_text(message, elsewhere, [[link]])
        return False

    async def probe(self, message: Message, person: Person, t: Translator) -> bool:
        """Make sure the bot can write to ``person`` in private; if not, say so in the group."""
        user = int(person.player_id.partition(":")[2])
        if user in self.delivery.reachable:
            return True
        content = Content(_escape(t.gettext(
            "You are at the table in {group}. Your cards will come here.",
            group=user_text(message.chat.title or ""))))
        sent = await self.delivery.call(user, lambda: self.delivery.outbox.send(user, content, silent=True))
        if sent.outcome.ok:
            self.delivery.reachable.add(user)
            return True
        if sent.outcome is Outcome.BLOCKED:
            self.delivery.unreachable.add(user)
        return False

