"""Records the fake Telegram server keeps: users, chats, messages, calls.

They are plain mutable dataclasses because the server changes them in place,
the way Telegram's own state changes under a running bot. Each record knows
how to render itself in the Bot API's JSON shape (``to_api``), so the server
answers with exactly what python-telegram-bot parses in production.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

JSONDict = dict[str, Any]
ChatType = Literal["private", "group", "supergroup"]
MemberStatus = Literal["creator", "administrator", "member", "left", "kicked"]


class FakeUsageError(AssertionError):
    """A test asked for something no real Telegram client could do.

    It derives from AssertionError so the test fails at the faulty step
    instead of the bot silently receiving an impossible update.
    """


class ApiError(Exception):
    """An error reply of the Bot API, turned into an HTTP answer by the server."""

    def __init__(self, error_code: int, description: str, parameters: JSONDict | None = None) -> None:
        super().__init__(description)
        self.error_code = error_code
        self.description = description
        self.parameters = parameters

    def payload(self) -> JSONDict:
        """The JSON body the real server sends with this error."""
        body: JSONDict = {
            "ok": False,
            "error_code": self.error_code,
            "description": self.description,
        }
        if self.parameters:
            body["parameters"] = self.parameters
        return body


def bad_request(reason: str, parameters: JSONDict | None = None) -> ApiError:
    """A 400 answer; Telegram prefixes every such description the same way."""
    return ApiError(400, f"Bad Request: {reason}", parameters)


def forbidden(reason: str) -> ApiError:
    """A 403 answer: the bot may not act in that chat (blocked, kicked, never started)."""
    return ApiError(403, f"Forbidden: {reason}")


def numeric_id(value: object) -> int | None:
    """A chat or user id sent as int or digit string; None for ``@username`` and junk."""
    text = str(value)
    return int(text) if text.lstrip("-").isdigit() else None


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, the unit of all Bot API entity offsets."""
    return len(text.encode("utf-16-le")) // 2


@dataclass
class FakeUser:
    """A Telegram account; ``started_bot`` means a private chat with the bot exists."""

    id: int
    first_name: str
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False
    started_bot: bool = False
    blocked_bot: bool = False

    def to_api(self) -> JSONDict:
        data: JSONDict = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.username:
            data["username"] = self.username
        if self.language_code:
            data["language_code"] = self.language_code
        return data

    def __str__(self) -> str:
        return f"{self.first_name} ({self.id})"


@dataclass(frozen=True)
class Button:
    """One inline keyboard button, reduced to what a player can see and press."""

    text: str
    callback_data: str | None = None
    url: str | None = None
    #: A Mini App button's address (``web_app.url``).
    web_app: str | None = None

    @classmethod
    def from_api(cls, data: JSONDict) -> Button:
        web_app = data.get("web_app")
        url = web_app.get("url") if isinstance(web_app, dict) else None
        return cls(data["text"], data.get("callback_data"), data.get("url"), url)


@dataclass(frozen=True)
class MessageVersion:
    """One state of a message; every edit appends a version, so history stays visible."""

    text: str
    entities: list[JSONDict]
    reply_markup: JSONDict | None
    source: str
    parse_mode: str | None
    at: float
    date: int

    @property
    def buttons(self) -> list[list[Button]]:
        rows = (self.reply_markup or {}).get("inline_keyboard", [])
        return [[Button.from_api(button) for button in row] for row in rows]

    def same_content(self, other: MessageVersion) -> bool:
        """What Telegram compares before refusing an edit as "not modified"."""
        return (self.text, self.entities, self.reply_markup) == (
            other.text,
            other.entities,
            other.reply_markup,
        )


@dataclass(frozen=True)
class Upload:
    """A file part of a multipart request, as the server receives it."""

    filename: str
    data: bytes
    mime_type: str | None = None


@dataclass(frozen=True)
class FakeDocument:
    """A file Telegram keeps: what a message shows of it, and its bytes for tests to read."""

    file_id: str
    file_unique_id: str
    file_name: str
    mime_type: str
    data: bytes

    def to_api(self) -> JSONDict:
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_name": self.file_name,
            "mime_type": self.mime_type,
            "file_size": len(self.data),
        }


@dataclass(eq=False)
class FakeMessage:
    """A message in a chat: its versions (edits) and whether it was deleted.

    ``seq`` orders messages across all chats, so a player's view can be read
    in the order things happened.
    """

    chat: FakeChat
    message_id: int
    sender: FakeUser
    versions: list[MessageVersion]
    seq: int
    reply_to: FakeMessage | None = None
    deleted: bool = False
    #: Who Telegram shows as the author when it is a chat: the group itself for an
    #: anonymous admin, a channel for its posts in a linked discussion group.
    sender_chat: FakeChat | None = None
    #: A file the message carries; its text is then the caption (possibly empty).
    document: FakeDocument | None = None
    #: For a forwarded copy: the message it copies (its author is the ``forward_origin``).
    forwarded: FakeMessage | None = None

    @property
    def current(self) -> MessageVersion:
        return self.versions[-1]

    @property
    def text(self) -> str:
        return self.current.text

    @property
    def entities(self) -> list[JSONDict]:
        return self.current.entities

    @property
    def reply_markup(self) -> JSONDict | None:
        return self.current.reply_markup

    @property
    def buttons(self) -> list[list[Button]]:
        return self.current.buttons

    @property
    def edited(self) -> bool:
        return len(self.versions) > 1

    @property
    def from_bot(self) -> bool:
        return self.sender.is_bot

    def button_texts(self) -> list[str]:
        """Labels of the current inline keyboard, row by row, flattened."""
        return [button.text for row in self.buttons for button in row]

    def button_data(self) -> list[str]:
        """callback_data of the current inline keyboard (URL buttons have none)."""
        return [b.callback_data for row in self.buttons for b in row if b.callback_data]

    def find_button(self, label_or_data: str) -> Button:
        """The one button whose label or callback_data is ``label_or_data``."""
        matches = [
            button
            for row in self.buttons
            for button in row
            if label_or_data in (button.text, button.callback_data)
        ]
        if not matches:
            raise FakeUsageError(
                f"no button {label_or_data!r} on message {self.message_id} in chat "
                f"{self.chat.id}; it has {self.button_texts()}"
            )
        if len(set(matches)) > 1:
            raise FakeUsageError(f"button {label_or_data!r} is ambiguous: {matches}")
        return matches[0]

    def to_api(self, *, with_reply: bool = True) -> JSONDict:
        """The Message object as the Bot API returns and delivers it."""
        version = self.current
        data: JSONDict = {
            "message_id": self.message_id,
            "date": self.versions[0].date,
            "chat": self.chat.to_api(),
            "from": self.sender.to_api(),
        }
        if self.document is not None:
            data["document"] = self.document.to_api()
            if version.text:
                data["caption"] = version.text
            if version.entities:
                data["caption_entities"] = version.entities
        else:
            data["text"] = version.text
            if version.entities:
                data["entities"] = version.entities
        if self.sender_chat is not None:
            data["sender_chat"] = self.sender_chat.to_api()
        if self.forwarded is not None:
            data["forward_origin"] = {"type": "user", "date": self.forwarded.versions[0].date,
                                      "sender_user": self.forwarded.sender.to_api()}
        if version.reply_markup and "inline_keyboard" in version.reply_markup:
            data["reply_markup"] = version.reply_markup
        if self.edited:
            data["edit_date"] = version.date
        if with_reply and self.reply_to is not None:
            data["reply_to_message"] = self.reply_to.to_api(with_reply=False)
        return data


@dataclass(eq=False)
class FakeChat:
    """A private chat, group or supergroup with its members and messages.

    For a private chat ``user`` is the person on the other side and the chat id
    equals the user id, as in Telegram.
    """

    id: int
    type: ChatType
    title: str | None = None
    username: str | None = None
    user: FakeUser | None = None
    members: dict[int, MemberStatus] = field(default_factory=dict)
    bot_status: MemberStatus = "member"
    messages: dict[int, FakeMessage] = field(default_factory=dict)
    next_message_id: int = 1
    pinned: list[int] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    migrated_to: int | None = None

    @property
    def is_private(self) -> bool:
        return self.type == "private"

    def can_see(self, user: FakeUser) -> bool:
        """Whether ``user`` reads this chat: its private partner or a current member."""
        if self.user is not None:
            return self.user.id == user.id
        return self.members.get(user.id) in ("creator", "administrator", "member")

    def to_api(self) -> JSONDict:
        data: JSONDict = {"id": self.id, "type": self.type}
        if self.user is not None:
            data["first_name"] = self.user.first_name
            if self.user.username:
                data["username"] = self.user.username
        else:
            data["title"] = self.title
            if self.username:
                data["username"] = self.username
        return data

    def __str__(self) -> str:
        return f"{self.type} {self.title or self.user} ({self.id})"


@dataclass
class ApiCall:
    """One Bot API request the bot made, with its answer and when it happened.

    ``update_id`` names the update being handled when the call was made, which
    lets a benchmark measure the time from an update to the bot's last reply;
    ``at`` and ``finished_at`` are ``time.perf_counter`` readings.
    """

    method: str
    params: JSONDict
    at: float
    update_id: int | None
    status: int = 200
    response: JSONDict = field(default_factory=dict)
    finished_at: float | None = None

    @property
    def ok(self) -> bool:
        return self.status == 200


@dataclass(frozen=True)
class CallbackAnswer:
    """What answerCallbackQuery showed: a toast, an alert, or nothing."""

    text: str | None
    show_alert: bool
    url: str | None
    at: float


@dataclass
class CallbackQueryRecord:
    """A button press the server delivered, and the bot's answer to it if any."""

    id: str
    user: FakeUser
    message: FakeMessage
    data: str
    update_id: int
    answer: CallbackAnswer | None = None


@dataclass
class IncomingUpdate:
    """An update produced for the bot; times are ``time.perf_counter`` readings."""

    update_id: int
    data: JSONDict
    created_at: float
    delivered_at: float | None = None
