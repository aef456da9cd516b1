"""Small shared pieces of the outbound half: chat ids, the order of writes in a chat,
rendered views as Telegram contents, and the outbox's results as the dispatcher's outcomes."""

from __future__ import annotations

import html

from ..outbound import FAILED, REFUSED, SENT, SKIPPED, Outcome, Retry
from ..render import Rendered
from ..service import is_pool_chat, raw_id
from .keyboards import keyboard
from .outbox import Content, Sent
from .outbox import Outcome as Result

#: Write order within a chat: what someone waits for first, then replies and lines, then
#: refreshes, then answers that only inform (``/help`` in a group: a table ready to go never
#: waits behind them), tidying last.
FIRST, REPLY, TABLE, ASIDE, TIDY = 0, 1, 2, 3, 4


def chat_number(namespaced: str) -> int:
    """The Telegram chat (or user) id inside a service id: ``"tg:-100123"`` → -100123. A
    stranger match's chat id (``is_pool_chat``) names no Telegram chat: ValueError."""
    if is_pool_chat(namespaced):
        raise ValueError("a stranger match has no Telegram chat")
    return int(raw_id(namespaced))


def is_private(chat_id: str) -> bool:
    """Whether a table's chat is a private chat (a practice match's)."""
    return chat_number(chat_id) > 0


def in_group(chat_id: str) -> bool:
    """Whether a table's chat is a group (a stranger match's is no chat at all)."""
    return not is_pool_chat(chat_id) and chat_number(chat_id) < 0


def content_of(rendered: Rendered) -> Content:
    return Content(rendered.text.html(), keyboard(rendered.buttons))


def outcome_of(sent: Sent) -> Outcome:
    """The dispatcher's view of an outbox result: a refusal for now (flood, network) is
    tried again, after the pause Telegram asked for; a message gone (deleted, or not the
    bot's to edit) is refused for good, and the call counts against the budget all the same."""
    if sent.outcome is Result.DONE:
        return SENT
    if sent.outcome is Result.UNCHANGED:
        return SKIPPED
    if sent.outcome is Result.FAILED:
        return Retry(sent.retry_after)
    if sent.outcome is Result.GONE:
        return REFUSED
    return FAILED


def escape(text: str) -> str:
    return html.escape(text, quote=False)
