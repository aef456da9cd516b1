"""The state of the fake Telegram: who exists, which chats, which messages.

Tests arrange the world here (users, groups, who started or blocked the bot);
the Bot API methods read and change it through the lookups below, which
raise the same errors the real server gives for missing or forbidden chats.
"""

from __future__ import annotations

import itertools
import json
import mimetypes
import time
from collections.abc import Iterable

from .telegram_models import (
    CallbackQueryRecord,
    FakeChat,
    FakeDocument,
    FakeMessage,
    FakeUsageError,
    FakeUser,
    IncomingUpdate,
    JSONDict,
    MemberStatus,
    MessageVersion,
    Upload,
    bad_request,
    forbidden,
    numeric_id,
)

DEFAULT_TOKEN = "123456789:TEST-fake-telegram-token"
_PRESENT = ("creator", "administrator", "member")


class TelegramWorld:
    """Users, chats and messages, plus the bot's own settings on the server."""

    def __init__(self, token: str, bot_username: str, bot_name: str) -> None:
        bot_id, _, _ = token.partition(":")
        if not bot_id.isdigit():
            raise ValueError(f"token {token!r} must start with the bot id, like '123:abc'")
        self.token = token
        self.bot_user = FakeUser(int(bot_id), bot_name, bot_username, is_bot=True)
        self.users: dict[int, FakeUser] = {}
        self.chats: dict[int, FakeChat] = {}
        self.callback_queries: dict[str, CallbackQueryRecord] = {}
        self.commands: dict[tuple[str, str], list[JSONDict]] = {}
        self.webhook_url = ""
        #: Files the bot uploaded, by file_id (a later send may name one instead of uploading).
        self.files: dict[str, FakeDocument] = {}
        #: Keep every call's parameters and answer, every update's payload and every earlier
        #: version of each message, for tests to read back (see ``FakeTelegram``).
        self.history = True
        self.pending_updates: list[JSONDict] = []
        self.updates: dict[int, IncomingUpdate] = {}
        self._user_ids = itertools.count(1001)
        self._group_ids = itertools.count(1)
        self._update_ids = itertools.count(1)
        self._query_ids = itertools.count(1)
        self._seq = itertools.count(1)

    # --- arranging the world -------------------------------------------------

    def add_user(
        self,
        first_name: str,
        *,
        username: str | None = None,
        language_code: str | None = "en",
        user_id: int | None = None,
    ) -> FakeUser:
        """A person who exists but has not started the bot yet."""
        user = FakeUser(user_id or next(self._user_ids), first_name, username, language_code)
        if user.id in self.users:
            raise FakeUsageError(f"user id {user.id} already exists")
        self.users[user.id] = user
        return user

    def add_group(
        self,
        title: str,
        members: Iterable[FakeUser] = (),
        *,
        supergroup: bool = True,
        bot_status: MemberStatus = "member",
        username: str | None = None,
    ) -> FakeChat:
        """A group the bot is in; the first member, if any, owns it."""
        number = next(self._group_ids)
        chat_id = -1_000_000_000_000 - number if supergroup else -100_000 - number
        chat = FakeChat(
            chat_id,
            "supergroup" if supergroup else "group",
            title=title,
            username=username,
            bot_status=bot_status,
        )
        for index, user in enumerate(members):
            chat.members[user.id] = "creator" if index == 0 else "member"
        self.chats[chat.id] = chat
        return chat

    def private_chat(self, user: FakeUser) -> FakeChat:
        """The user's chat with the bot; opening it means the user started the bot."""
        user.started_bot = True
        chat = self.chats.get(user.id)
        if chat is None:
            chat = FakeChat(user.id, "private", user=user)
            self.chats[user.id] = chat
        return chat

    def join(self, user: FakeUser, group: FakeChat, status: MemberStatus = "member") -> None:
        """Put a user into a group (or change their status there)."""
        if group.is_private:
            raise FakeUsageError(f"{group} is a private chat")
        group.members[user.id] = status

    def leave(self, user: FakeUser, group: FakeChat) -> None:
        group.members[user.id] = "left"

    def block_bot(self, user: FakeUser) -> None:
        """The user blocks the bot: sending to them now fails with 403."""
        user.blocked_bot = True

    def set_bot_status(self, group: FakeChat, status: MemberStatus) -> None:
        """Promote, remove or kick the bot in a group."""
        group.bot_status = status

    def upgrade_to_supergroup(self, group: FakeChat) -> FakeChat:
        """Telegram moves a group to a new id on upgrade; the old id answers "migrated"."""
        if group.type != "group":
            raise FakeUsageError(f"{group} is not a basic group")
        upgraded = self.add_group(group.title or "", supergroup=True, bot_status=group.bot_status)
        upgraded.members = dict(group.members)
        group.migrated_to = upgraded.id
        return upgraded

    # --- lookups used by the Bot API methods ---------------------------------

    def chat(self, chat_id: int | str | None) -> FakeChat:
        """The chat the id names; 400 "chat not found" as on the server otherwise."""
        if isinstance(chat_id, str) and chat_id.startswith("@"):
            for chat in self.chats.values():
                if chat.username and chat.username.lower() == chat_id[1:].lower():
                    return chat
            raise bad_request("chat not found")
        try:
            found = self.chats.get(int(chat_id))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise bad_request("chat_id is empty" if chat_id is None else "chat not found") from None
        if found is None:
            raise bad_request("chat not found")
        return found

    def writable_chat(self, chat_id: int | str | None) -> FakeChat:
        """The chat, if the bot may post there; otherwise the server's 400 or 403."""
        user = self.users.get(numeric_id(chat_id) or 0)
        if user is not None and not user.started_bot:
            raise forbidden("bot can't initiate conversation with a user")
        chat = self.chat(chat_id)
        if chat.migrated_to is not None:
            raise bad_request(
                "group chat was upgraded to a supergroup chat",
                {"migrate_to_chat_id": chat.migrated_to},
            )
        if chat.user is not None and chat.user.blocked_bot:
            raise forbidden("bot was blocked by the user")
        kind = "supergroup chat" if chat.type == "supergroup" else "group chat"
        if chat.bot_status == "kicked":
            raise forbidden(f"bot was kicked from the {kind}")
        if not chat.is_private and chat.bot_status not in _PRESENT:
            raise forbidden(f"bot is not a member of the {kind}")
        return chat

    def bot_is_admin(self, chat: FakeChat) -> bool:
        return chat.is_private or chat.bot_status in ("creator", "administrator")

    def message(self, chat: FakeChat, message_id: object, missing: str) -> FakeMessage:
        """A live message of the chat, or 400 with the method's own ``missing`` wording."""
        try:
            found = chat.messages.get(int(message_id))  # type: ignore[call-overload]
        except (TypeError, ValueError):
            raise bad_request("message identifier is not specified") from None
        if found is None or found.deleted:
            raise bad_request(missing)
        return found

    def post(
        self,
        chat: FakeChat,
        sender: FakeUser,
        version: MessageVersion,
        reply_to: FakeMessage | None = None,
    ) -> FakeMessage:
        """Store a new message with the chat's next message id."""
        message = FakeMessage(chat, chat.next_message_id, sender, [version], next(self._seq), reply_to)
        chat.next_message_id += 1
        chat.messages[message.message_id] = message
        return message

    def keep_file(self, upload: Upload) -> FakeDocument:
        """Store an uploaded file under a new file_id, as the server does."""
        number = len(self.files) + 1
        mime = upload.mime_type or mimetypes.guess_type(upload.filename)[0] or "application/octet-stream"
        document = FakeDocument(f"BQACAgFAKE{number:06d}", f"AgADFAKE{number:06d}", upload.filename, mime,
                                upload.data)
        self.files[document.file_id] = document
        return document

    def new_update(self, payload: JSONDict) -> IncomingUpdate:
        """Number an update the way the server does (strictly increasing ids)."""
        update_id = next(self._update_ids)
        update = IncomingUpdate(update_id, {"update_id": update_id, **payload}, time.perf_counter())
        self.updates[update_id] = update
        return update

    def new_query_id(self) -> str:
        return str(4_000_000_000_000_000 + next(self._query_ids))


def commands_key(scope: JSONDict | None, language_code: str | None) -> tuple[str, str]:
    """Commands are stored per (scope, language); ids in a scope compare as numbers."""
    normalized = dict(scope or {"type": "default"})
    for field in ("chat_id", "user_id"):
        if (number := numeric_id(normalized.get(field))) is not None:
            normalized[field] = number
    return json.dumps(normalized, sort_keys=True), language_code or ""
