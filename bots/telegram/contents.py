"""Small shared pieces of the outbound half: rendered views as Telegram contents, and the
outbox's results as the dispatcher's outcomes."""

from __future__ import annotations

import html

from ..outbound import FAILED, SENT, SKIPPED, Outcome, Retry
from ..render import Rendered
from .keyboards import keyboard
from .outbox import Content, Sent
from .outbox import Outcome as Result


def content_of(rendered: Rendered) -> Content:
    return Content(rendered.text.html(), keyboard(rendered.buttons))


def outcome_of(sent: Sent) -> Outcome:
    """The dispatcher's view of an outbox result: a refusal for now (flood, network) is
    tried again, after the pause Telegram asked for."""
    if sent.outcome is Result.DONE:
        return SENT
    if sent.outcome is Result.UNCHANGED:
        return SKIPPED
    if sent.outcome is Result.FAILED:
        return Retry(sent.retry_after)
    return FAILED


def escape(text: str) -> str:
    return html.escape(text, quote=False)
