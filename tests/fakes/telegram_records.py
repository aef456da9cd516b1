"""What the fake server remembers for tests to inspect: calls, texts, answers.

Kept apart from the Bot API methods so that assertions read what a player
would see (``visible_to``, ``texts_seen_by``) or what the bot did
(``calls_for``, ``response_time``) without knowing how the state is stored.
"""

from __future__ import annotations

from telegram import Update

from .telegram_models import (
    ApiCall,
    CallbackAnswer,
    CallbackQueryRecord,
    FakeChat,
    FakeMessage,
    FakeUsageError,
    FakeUser,
    JSONDict,
)
from .telegram_world import TelegramWorld, commands_key


class TelegramRecords(TelegramWorld):
    """The world plus the log of API calls, with read-only views for assertions."""

    def __init__(self, token: str, bot_username: str, bot_name: str) -> None:
        super().__init__(token, bot_username, bot_name)
        self.api_calls: list[ApiCall] = []
        self.unsupported: list[str] = []

    def check(self) -> None:
        """Fail if the bot used Bot API methods the fake does not know (see ``unsupported``)."""
        if self.unsupported:
            raise FakeUsageError(f"bot called methods the fake does not implement: {self.unsupported}")

    def calls(self, method: str | None = None) -> list[ApiCall]:
        """All API calls, or those of one method (case-insensitive), in order."""
        if method is None:
            return list(self.api_calls)
        return [call for call in self.api_calls if call.method.lower() == method.lower()]

    def calls_for(self, update: Update | int) -> list[ApiCall]:
        update_id = update.update_id if isinstance(update, Update) else update
        return [call for call in self.api_calls if call.update_id == update_id]

    def response_time(self, update: Update | int) -> float | None:
        """Seconds from delivering (or producing) the update until the last call it caused ended."""
        update_id = update.update_id if isinstance(update, Update) else update
        ends = [call.finished_at or call.at for call in self.calls_for(update_id)]
        if not ends:
            return None
        record = self.updates[update_id]
        return max(ends) - (record.delivered_at or record.created_at)

    def messages(self, chat: FakeChat, *, bot_only: bool = False) -> list[FakeMessage]:
        """Messages still in the chat, oldest first."""
        return [
            message
            for message in chat.messages.values()
            if not message.deleted and (message.from_bot or not bot_only)
        ]

    def last_message(self, chat: FakeChat) -> FakeMessage:
        """The bot's newest message still in the chat."""
        sent = self.messages(chat, bot_only=True)
        if not sent:
            raise FakeUsageError(f"the bot has no message in {chat}")
        return sent[-1]

    def texts(self, chat: FakeChat, *, bot_only: bool = True) -> list[str]:
        """Every text shown in the chat, edits and deleted messages included, in time order."""
        versions = [
            version
            for message in chat.messages.values()
            if message.from_bot or not bot_only
            for version in message.versions
        ]
        return [version.text for version in sorted(versions, key=lambda v: v.at)]

    def visible_to(self, user: FakeUser) -> list[FakeMessage]:
        """Messages the user can read right now, across all chats, in the order sent."""
        found = [
            message for chat in self.chats.values() if chat.can_see(user) for message in self.messages(chat)
        ]
        return sorted(found, key=lambda message: message.seq)

    def texts_seen_by(self, user: FakeUser) -> list[str]:
        """Every text the user was ever shown, including replaced versions: for leak checks."""
        return [
            text
            for chat in self.chats.values()
            if chat.can_see(user)
            for text in self.texts(chat, bot_only=False)
        ]

    def callback_answer(self, update: Update | str) -> CallbackAnswer | None:
        """How the bot answered the press carried by ``update`` (or that query id)."""
        if isinstance(update, Update):
            if update.callback_query is None:
                raise FakeUsageError(f"update {update.update_id} is not a button press")
            update = update.callback_query.id
        if update not in self.callback_queries:
            raise FakeUsageError(f"no button press with query id {update!r} was produced")
        return self.callback_queries[update].answer

    def unanswered_callback_queries(self) -> list[CallbackQueryRecord]:
        """Presses the bot never answered; the player's client keeps showing a spinner."""
        return [query for query in self.callback_queries.values() if query.answer is None]

    def pinned(self, chat: FakeChat) -> FakeMessage | None:
        return chat.messages[chat.pinned[-1]] if chat.pinned else None

    def my_commands(self, scope: JSONDict | None = None, language_code: str = "") -> list[tuple[str, str]]:
        """The command menu set for a scope and language, as (command, description)."""
        key = commands_key(scope, language_code)
        return [(c["command"], c["description"]) for c in self.commands.get(key, [])]
