"""Inline keyboards checked the way the server checks them.

Edits accept only inline keyboards; every button needs exactly one action, and
callback_data must be 1-64 bytes, the limit bots most often trip over when
they pack game state into a button. A ``web_app`` button (a Mini App) is allowed
only in private chats, and its address must be ``https``.
"""

from __future__ import annotations

import re
from typing import Any

from .telegram_models import JSONDict, bad_request

MAX_CALLBACK_DATA_BYTES = 64
_INLINE_BUTTON_KINDS = (
    "url",
    "callback_data",
    "web_app",
    "login_url",
    "switch_inline_query",
    "switch_inline_query_current_chat",
    "switch_inline_query_chosen_chat",
    "copy_text",
    "callback_game",
    "pay",
)
_BUTTON_URL = re.compile(r"^(?:(?:https?|tg)://\S+|[\w-]+(?:\.[\w-]+)+(?:/\S*)?)$")


def check_reply_markup(markup: Any, *, inline_only: bool, private: bool = True) -> JSONDict | None:
    """Validate a reply_markup like the server does and return it unchanged.

    Edits accept only inline keyboards; buttons need exactly one action and
    callback_data must be 1-64 bytes, the limit bots most often trip over.
    """
    if markup is None:
        return None
    if not isinstance(markup, dict):
        raise bad_request("can't parse reply keyboard markup JSON object")
    if "inline_keyboard" not in markup:
        if inline_only:
            raise bad_request("inline keyboard expected")
        return markup
    rows = markup["inline_keyboard"]
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise bad_request('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array of Arrays')
    for row in rows:
        for button in row:
            _check_inline_button(button, private)
    return markup


def _check_inline_button(button: Any, private: bool) -> None:
    if not isinstance(button, dict):
        raise bad_request("can't parse inline keyboard button: InlineKeyboardButton must be an Object")
    if not str(button.get("text", "")).strip():
        raise bad_request("can't parse inline keyboard button: Text must be non-empty")
    kinds = [kind for kind in _INLINE_BUTTON_KINDS if kind in button]
    if not kinds:
        raise bad_request(
            "can't parse inline keyboard button: Text buttons are unallowed in the inline keyboard"
        )
    if len(kinds) > 1:
        raise bad_request(f"can't parse inline keyboard button: {', '.join(kinds)} are mutually exclusive")
    data = button.get("callback_data")
    if data is not None and not 1 <= len(str(data).encode()) <= MAX_CALLBACK_DATA_BYTES:
        raise bad_request("BUTTON_DATA_INVALID")
    url = button.get("url")
    if url is not None and not _BUTTON_URL.match(str(url)):
        raise bad_request("BUTTON_URL_INVALID")
    if "web_app" in button:
        if not private:
            raise bad_request("BUTTON_TYPE_INVALID")
        web_app = button["web_app"]
        address = web_app.get("url") if isinstance(web_app, dict) else None
        if not isinstance(address, str) or not address.startswith("https://") or len(address) <= 8:
            raise bad_request("BUTTON_URL_INVALID")
