"""The Bot API methods the fake server understands, with the real server's checks.

Each method takes the call's decoded parameters and returns the ``result``
of a successful answer or raises ApiError with the server's wording. Method
names are matched case-insensitively, as the Bot API does.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any

from .telegram_keyboards import check_reply_markup
from .telegram_markup import format_text
from .telegram_models import (
    ApiError,
    CallbackAnswer,
    FakeChat,
    FakeDocument,
    FakeMessage,
    FakeUser,
    JSONDict,
    MessageVersion,
    Upload,
    bad_request,
)
from .telegram_world import TelegramWorld, commands_key

MAX_MESSAGE_LENGTH = 4096
MAX_CAPTION_LENGTH = 1024
MAX_UPLOAD_BYTES = 50 * 1024 * 1024
MAX_CALLBACK_ANSWER_LENGTH = 200
MAX_COMMANDS = 100
NOT_MODIFIED = (
    "message is not modified: specified new message content and reply markup of the new "
    "message are exactly the same as a current content and reply markup of the message"
)
QUERY_INVALID = "query is too old and response timeout expired or query ID is invalid"
CHAT_ACTIONS = frozenset(
    [
        "typing",
        "upload_photo",
        "record_video",
        "upload_video",
        "record_voice",
        "upload_voice",
        "upload_document",
        "choose_sticker",
        "find_location",
        "record_video_note",
        "upload_video_note",
    ]
)
_COMMAND = re.compile(r"^[a-z0-9_]{1,32}$")
_ADMIN_RIGHTS = [
    "can_be_edited",
    "is_anonymous",
    "can_manage_chat",
    "can_delete_messages",
    "can_manage_video_chats",
    "can_restrict_members",
    "can_promote_members",
    "can_change_info",
    "can_invite_users",
    "can_post_stories",
    "can_edit_stories",
    "can_delete_stories",
    "can_pin_messages",
]


def chat_member(user: FakeUser, status: str) -> JSONDict:
    """A ChatMember object; each status has its own required fields in the Bot API."""
    member: JSONDict = {"status": status, "user": user.to_api()}
    if status == "creator":
        member["is_anonymous"] = False
    elif status == "administrator":
        member.update(dict.fromkeys(_ADMIN_RIGHTS, False))
        member.update(can_delete_messages=True, can_pin_messages=True, can_manage_chat=True)
    elif status == "kicked":
        member["until_date"] = 0
    return member


class BotApiMethods:
    """Bot API methods over one TelegramWorld; ``handlers`` maps lower-case names to them."""

    def __init__(self, world: TelegramWorld) -> None:
        self.world = world
        self._updates_arrived: asyncio.Event | None = None
        self.handlers: dict[str, Callable[[JSONDict], Any]] = {
            name.lower(): getattr(self, name)
            for name in [
                "getMe",
                "getUpdates",
                "getWebhookInfo",
                "setWebhook",
                "deleteWebhook",
                "sendMessage",
                "sendDocument",
                "editMessageText",
                "editMessageReplyMarkup",
                "deleteMessage",
                "deleteMessages",
                "pinChatMessage",
                "unpinChatMessage",
                "unpinAllChatMessages",
                "answerCallbackQuery",
                "setMyCommands",
                "getMyCommands",
                "deleteMyCommands",
                "sendChatAction",
                "getChat",
                "getChatMember",
            ]
        }

    # --- updates and webhooks ------------------------------------------------

    def notify_updates(self) -> None:
        """Wake a long-polling getUpdates because something was queued."""
        if self._updates_arrived is not None:
            self._updates_arrived.set()

    async def getUpdates(self, params: JSONDict) -> list[JSONDict]:
        """Long polling: confirm updates below ``offset``, then wait up to ``timeout``."""
        if self.world.webhook_url:
            raise ApiError(
                409,
                "Conflict: can't use getUpdates method while webhook is active; use "
                "deleteWebhook to delete the webhook first",
            )
        pending = self.world.pending_updates
        offset = int(params.get("offset", 0))
        if offset < 0:
            del pending[: max(len(pending) + offset, 0)]
        elif offset:
            pending[:] = [update for update in pending if update["update_id"] >= offset]
        deadline = time.monotonic() + float(params.get("timeout", 0))
        if self._updates_arrived is None:
            self._updates_arrived = asyncio.Event()
        while not pending and (remaining := deadline - time.monotonic()) > 0:
            self._updates_arrived.clear()
            try:
                await asyncio.wait_for(self._updates_arrived.wait(), remaining)
            except TimeoutError:
                break
        return pending[: int(params.get("limit", 100))]

    def getMe(self, params: JSONDict) -> JSONDict:
        return {
            **self.world.bot_user.to_api(),
            "can_join_groups": True,
            "can_read_all_group_messages": False,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    def getWebhookInfo(self, params: JSONDict) -> JSONDict:
        return {
            "url": self.world.webhook_url,
            "has_custom_certificate": False,
            "pending_update_count": len(self.world.pending_updates),
        }

    def setWebhook(self, params: JSONDict) -> bool:
        self.world.webhook_url = str(params.get("url", ""))
        return True

    def deleteWebhook(self, params: JSONDict) -> bool:
        self.world.webhook_url = ""
        if params.get("drop_pending_updates"):
            self.world.pending_updates.clear()
        return True

    # --- messages --------------------------------------------------------------

    def _version(self, params: JSONDict, text: str | None, markup: JSONDict | None) -> MessageVersion:
        """Check text and keyboard like the server and build the message state they give."""
        if not text:
            raise bad_request("message text is empty")
        plain, entities = format_text(text, params.get("parse_mode"), params.get("entities"))
        if not plain:
            raise bad_request("message text is empty")
        if len(plain) > MAX_MESSAGE_LENGTH:
            raise bad_request("message is too long")
        return MessageVersion(
            plain,
            entities,
            markup,
            text,
            params.get("parse_mode"),
            time.perf_counter(),
            int(time.time()),
        )

    def _reply_target(self, chat: FakeChat, params: JSONDict) -> FakeMessage | None:
        reply = params.get("reply_parameters") or {}
        message_id = reply.get("message_id", params.get("reply_to_message_id"))
        if message_id is None:
            return None
        target = chat.messages.get(int(message_id))
        if target is None or target.deleted:
            if reply.get("allow_sending_without_reply"):
                return None
            raise bad_request("message to be replied not found")
        return target

    def sendMessage(self, params: JSONDict) -> JSONDict:
        chat = self.world.writable_chat(params.get("chat_id"))
        markup = check_reply_markup(params.get("reply_markup"), inline_only=False,
                                    private=chat.type == "private")
        version = self._version(params, params.get("text"), markup)
        reply_to = self._reply_target(chat, params)
        return self.world.post(chat, self.world.bot_user, version, reply_to).to_api()

    def sendDocument(self, params: JSONDict) -> JSONDict:
        """A file uploaded in the request (multipart), or one the server keeps, by file_id."""
        chat = self.world.writable_chat(params.get("chat_id"))
        document = self._document(params.get("document"))
        markup = check_reply_markup(params.get("reply_markup"), inline_only=False)
        caption = params.get("caption") or ""
        plain, entities = format_text(caption, params.get("parse_mode"), params.get("caption_entities"))
        if len(plain) > MAX_CAPTION_LENGTH:
            raise bad_request("message caption is too long")
        reply_to = self._reply_target(chat, params)
        mode = params.get("parse_mode")
        now = time.perf_counter()
        version = MessageVersion(plain, entities, markup, caption, mode, now, int(time.time()))
        message = self.world.post(chat, self.world.bot_user, version, reply_to)
        message.document = document
        return message.to_api()

    def _document(self, given: object) -> FakeDocument:
        if isinstance(given, Upload):
            if not given.data:
                raise bad_request("file must be non-empty")
            if len(given.data) > MAX_UPLOAD_BYTES:
                raise ApiError(413, "Request Entity Too Large")
            return self.world.keep_file(given)
        if isinstance(given, str) and given in self.world.files:
            return self.world.files[given]
        if given is None or given == "":
            raise bad_request("there is no document in the request")
        raise bad_request("wrong file identifier/HTTP URL specified")

    def _own_message(self, params: JSONDict) -> FakeMessage:
        if params.get("inline_message_id"):
            raise bad_request("MESSAGE_ID_INVALID")
        chat = self.world.writable_chat(params.get("chat_id"))
        message = self.world.message(chat, params.get("message_id"), "message to edit not found")
        if not message.from_bot:
            raise bad_request("message can't be edited")
        return message

    def _edit(self, message: FakeMessage, version: MessageVersion) -> JSONDict:
        if version.same_content(message.current):
            raise bad_request(NOT_MODIFIED)
        if not self.world.history:
            del message.versions[1:]  # the first version still dates the message
        message.versions.append(version)
        return message.to_api()

    def editMessageText(self, params: JSONDict) -> JSONDict:
        """Replace text; a missing reply_markup removes the keyboard, as in Telegram."""
        message = self._own_message(params)
        markup = check_reply_markup(params.get("reply_markup"), inline_only=True,
                                    private=message.chat.type == "private")
        return self._edit(message, self._version(params, params.get("text"), markup))

    def editMessageReplyMarkup(self, params: JSONDict) -> JSONDict:
        message = self._own_message(params)
        markup = check_reply_markup(params.get("reply_markup"), inline_only=True,
                                    private=message.chat.type == "private")
        current = message.current
        version = MessageVersion(
            current.text,
            current.entities,
            markup,
            current.source,
            current.parse_mode,
            time.perf_counter(),
            int(time.time()),
        )
        return self._edit(message, version)

    def _delete(self, chat: FakeChat, message: FakeMessage) -> None:
        if not message.from_bot and not self.world.bot_is_admin(chat):
            raise bad_request("message can't be deleted")
        message.deleted = True
        if message.message_id in chat.pinned:
            chat.pinned.remove(message.message_id)

    def deleteMessage(self, params: JSONDict) -> bool:
        chat = self.world.writable_chat(params.get("chat_id"))
        message_id = params.get("message_id")
        self._delete(chat, self.world.message(chat, message_id, "message to delete not found"))
        return True

    def deleteMessages(self, params: JSONDict) -> bool:
        """Deletes what it can and ignores the rest, like the server."""
        chat = self.world.writable_chat(params.get("chat_id"))
        for message_id in params.get("message_ids", []):
            message = chat.messages.get(int(message_id))
            if message is not None and not message.deleted:
                self._delete(chat, message)
        return True

    def _pin_rights(self, params: JSONDict) -> FakeChat:
        chat = self.world.writable_chat(params.get("chat_id"))
        if not self.world.bot_is_admin(chat):
            raise bad_request("not enough rights to manage pinned messages in the chat")
        return chat

    def pinChatMessage(self, params: JSONDict) -> bool:
        chat = self._pin_rights(params)
        message = self.world.message(chat, params.get("message_id"), "message to pin not found")
        if message.message_id in chat.pinned:
            chat.pinned.remove(message.message_id)
        chat.pinned.append(message.message_id)
        return True

    def unpinChatMessage(self, params: JSONDict) -> bool:
        """Unpins the given message, or the most recently pinned one."""
        chat = self._pin_rights(params)
        message_id = params.get("message_id")
        target = chat.pinned[-1] if message_id is None and chat.pinned else message_id
        if target is None or int(target) not in chat.pinned:
            raise bad_request("message to unpin not found")
        chat.pinned.remove(int(target))
        return True

    def unpinAllChatMessages(self, params: JSONDict) -> bool:
        self._pin_rights(params).pinned.clear()
        return True

    def sendChatAction(self, params: JSONDict) -> bool:
        chat = self.world.writable_chat(params.get("chat_id"))
        action = params.get("action")
        if action not in CHAT_ACTIONS:
            raise bad_request("wrong parameter action in request")
        chat.actions.append(action)
        return True

    # --- callback queries --------------------------------------------------------

    def answerCallbackQuery(self, params: JSONDict) -> bool:
        """Record the answer; a second answer or an unknown id fails like a stale query."""
        query = self.world.callback_queries.get(str(params.get("callback_query_id")))
        if query is None or query.answer is not None:
            raise bad_request(QUERY_INVALID)
        text = params.get("text")
        if text is not None and len(text) > MAX_CALLBACK_ANSWER_LENGTH:
            raise bad_request("MESSAGE_TOO_LONG")
        query.answer = CallbackAnswer(
            text, bool(params.get("show_alert", False)), params.get("url"), time.perf_counter()
        )
        return True

    # --- commands menu -------------------------------------------------------------

    def setMyCommands(self, params: JSONDict) -> bool:
        commands = params.get("commands")
        if not isinstance(commands, list) or len(commands) > MAX_COMMANDS:
            raise bad_request("BOT_COMMANDS_TOO_MUCH" if commands else "commands must be an Array")
        for command in commands:
            if not _COMMAND.match(str(command.get("command", ""))):
                raise bad_request("BOT_COMMAND_INVALID")
            if not 1 <= len(str(command.get("description", "")).strip()) <= 256:
                raise bad_request("BOT_COMMAND_DESCRIPTION_INVALID")
        key = commands_key(params.get("scope"), params.get("language_code"))
        self.world.commands[key] = [
            {"command": c["command"], "description": c["description"]} for c in commands
        ]
        return True

    def getMyCommands(self, params: JSONDict) -> list[JSONDict]:
        key = commands_key(params.get("scope"), params.get("language_code"))
        return list(self.world.commands.get(key, []))

    def deleteMyCommands(self, params: JSONDict) -> bool:
        key = commands_key(params.get("scope"), params.get("language_code"))
        self.world.commands.pop(key, None)
        return True

    # --- chats -----------------------------------------------------------------------

    def getChat(self, params: JSONDict) -> JSONDict:
        chat = self.world.chat(params.get("chat_id"))
        return {
            **chat.to_api(),
            "accent_color_id": 0,
            "max_reaction_count": 11,
            "accepted_gift_types": dict.fromkeys(
                (
                    "unlimited_gifts",
                    "limited_gifts",
                    "unique_gifts",
                    "premium_subscription",
                    "gifts_from_channels",
                ),
                False,
            ),
        }

    def getChatMember(self, params: JSONDict) -> JSONDict:
        chat = self.world.chat(params.get("chat_id"))
        user_id = int(params.get("user_id", 0))
        if user_id == self.world.bot_user.id:
            return chat_member(self.world.bot_user, chat.bot_status)
        user = self.world.users.get(user_id)
        if user is None:
            raise bad_request("PARTICIPANT_ID_INVALID")
        if chat.user is not None:
            return chat_member(user, "member" if chat.user.id == user_id else "left")
        return chat_member(user, chat.members.get(user_id, "left"))
