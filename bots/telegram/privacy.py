"""``/privacy``, ``/forget`` and its Erase / Cancel buttons, and commands the bot does not know.

``/forget`` asks once, in private only: a question in a group could be answered by anyone,
and Erase erases whoever presses it. A command the bot does not have gets one line pointing
to ``/help``: always in private, in a group only when it names this bot (``/poker@ThisBot``),
since a bare ``/poker`` there may be meant for another bot.
"""

from __future__ import annotations

import time

from telegram import CallbackQuery, Message
from telegram.constants import ChatType

from ..render import Action
from ..render.actions import ERASE_VERBS
from ..render.privacy import answer_erase, render_forget_confirm, render_privacy, unknown_command_text
from ..service import BadInput, Person, raw_id
from .contents import escape
from .outbox import Content
from .presses import Presses


class Privacy(Presses):
    """What the bot keeps, erasing it, and the answer to an unknown command."""

    async def privacy(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        t = await self.language(chat, person)
        await self.reply(message, render_privacy(t, self.service.keep_finished_days, "/forget"))

    async def forget(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        t = await self.language(chat, person)
        if not await self.in_private(message, t, t.gettext(
                "Your data is erased in private chat with me: open it and send /forget.")):
            return
        await self.reply(message, render_forget_confirm(t, time.time()))

    def addressed(self, message: Message) -> bool:
        """Whether a command is for this bot: any in private, in a group only ``/cmd@ThisBot``."""
        if message.chat.type == ChatType.PRIVATE:
            return True
        word = (message.text or "").split(maxsplit=1)[0] if message.text else ""
        _, at, bot = word.partition("@")
        return bool(at) and bot.lower() == (self.delivery.bot_username or "").lower()

    async def unknown_command(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        t = await self.language(chat, person)
        await self.reply_text(message, unknown_command_text(t, "/help"))

    async def _press(self, query: CallbackQuery, message: Message | None, person: Person,
                     chat: str | None) -> bool:
        action = Action.decode(query.data or "")
        if action.verb not in ERASE_VERBS:
            return await super()._press(query, message, person, chat)
        if message is None or message.chat.type != ChatType.PRIVATE or str(message.chat_id) != raw_id(
            person.player_id
        ):
            raise BadInput("an erase button outside the presser's private chat")
        t = await self.language(chat, person)
        text = await answer_erase(action, t, "/forget", lambda: self.service.forget(person.player_id))
        self.delivery.edit(message.chat_id, message.message_id, Content(escape(text), None))
        return False

