"""Buttons: the renderer's neutral buttons as Telegram inline keyboards, and deep links.

Callback data is the renderer's ``Action.encode()`` (``b1|play|<table>|<version>|10D|2``,
well under Telegram's 64 bytes). Deep links (``t.me/<bot>?start=<payload>``) open
the private chat with the bot; their payload is ``h<table>`` (show my hand),
``j<table>`` / ``j<table>_<team>`` (join that lobby), ``play`` (look for someone to
play now, as ``/play`` does) or ``i<token>`` (join the one who sent the link as their
partner: an invitation to the pool, whose token is random and names nobody).

>>> StartPayload.parse("jabc123def456_1")
StartPayload(kind='join', table_id='abc123def456', team=1)
>>> StartPayload("hand", "abc123def456").encode()
'habc123def456'
>>> StartPayload.parse(StartPayload("play").encode())
StartPayload(kind='play', table_id='', team=None)
>>> StartPayload.parse("iZx_4-abcdEFGH1234")
StartPayload(kind='invite', table_id='Zx_4-abcdEFGH1234', team=None)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Final, Literal

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from ..render import Button

MAX_CALLBACK_BYTES: Final = 64
_TABLE: Final = re.compile(r"^[A-Za-z0-9-]{1,40}$")
_PAYLOAD: Final = re.compile(r"^([hj])([A-Za-z0-9-]{1,40})(?:_([01]))?$")
_PLAY: Final = "play"
#: An invitation's payload: ``i`` and its token (Telegram allows 64 of [A-Za-z0-9_-]).
_INVITE: Final = re.compile(r"^i([A-Za-z0-9_-]{8,40})$")


def inline_button(button: Button) -> InlineKeyboardButton:
    data = button.action.encode()
    if len(data.encode()) > MAX_CALLBACK_BYTES:
        raise ValueError(f"callback data over {MAX_CALLBACK_BYTES} bytes for verb {button.action.verb}")
    return InlineKeyboardButton(button.label, callback_data=data)


def keyboard(
    rows: Sequence[Sequence[Button]],
    extra: Iterable[Sequence[InlineKeyboardButton]] = (),
) -> InlineKeyboardMarkup | None:
    """The inline keyboard for rendered rows plus Telegram-only rows; None when empty."""
    built = [[inline_button(b) for b in row] for row in rows if row]
    built += [list(row) for row in extra if row]
    return InlineKeyboardMarkup(built) if built else None


@dataclass(frozen=True, slots=True)
class StartPayload:
    """What a ``/start <payload>`` deep link asks for. An invitation's token is in
    ``table_id``."""

    kind: Literal["hand", "join", "play", "invite"]
    table_id: str = ""
    team: int | None = None

    def encode(self) -> str:
        if self.kind == "play":
            return _PLAY
        if self.kind == "invite":
            return "i" + self.table_id
        text = ("h" if self.kind == "hand" else "j") + self.table_id
        return text if self.team is None else f"{text}_{self.team}"

    @classmethod
    def parse(cls, text: str) -> StartPayload | None:
        if text.strip() == _PLAY:
            return cls("play")
        invite = _INVITE.match(text.strip())
        if invite is not None:
            return cls("invite", invite.group(1))
        match = _PAYLOAD.match(text.strip())
        if match is None:
            return None
        letter, table_id, team = match.groups()
        return cls("hand" if letter == "h" else "join", table_id, int(team) if team else None)


def deep_link(bot_username: str, payload: StartPayload) -> str:
    return f"https://t.me/{bot_username}?start={payload.encode()}"
