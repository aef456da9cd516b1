"""What a button does, platform-neutral, and its compact payload form.

The renderer attaches an ``Action`` to every button; an adapter stores
``action.encode()`` in its own payload (Telegram ``callback_data``, at most 64
bytes; Discord ``custom_id``, at most 100) and gives ``Action.decode(payload)``
back to the matching service call. Payloads are untrusted: ``decode`` checks
the syntax (BadInput), the service checks the rest (seat, version, turn).

>>> a = Action("play", "a1b2c3d4e5f6", version=17, card="10D", plan=2)
>>> a.encode()
'b1|play|a1b2c3d4e5f6|17|10D|2'
>>> Action.decode(a.encode()) == a
True
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final, Literal, get_args

from core import Card

from ..service.errors import BadInput

#: join/leave/team/computer/start/cancel act on a lobby; card (preview a card),
#: plan (select a plan of the previewed card), play (confirm), back (leave the
#: preview), hand (show my hand), hint (what the computer would play: practice
#: only) act on a match; record (send a finished match's record file) and rematch
#: (the same players again) on its result; variant/clock/lang change chat settings
#: (``arg`` holds the value); erase (confirm ``/forget``) and keep (do not) act on the
#: presser, with ``arg`` the moment the question expires. The pairing pool's act on the
#: presser too: seek (look for an opponent now; ``arg`` "2v2": for two against two), unseek
#: (stop looking), wait (keep looking once the computer is offered), solo (play the computer
#: instead), invite (an invitation that brings a friend as partner to a 2-v-2 search), and
#: block (the others of the stranger match ``table_id`` are never paired with the presser
#: again).
#: Under and on a stranger match: again (wait in the pool for the opponent of the finished
#: 1-v-1 ``table_id``, who must press it too) and react (send the canned reaction ``arg``,
#: a key of ``bots.service.REACTIONS``, to the others at ``table_id``). top shows a
#: leaderboard in place of the one pressed under (``arg`` "online": the online ladder).
Verb = Literal[
    "join",
    "leave",
    "team",
    "computer",
    "uncomputer",
    "start",
    "cancel",
    "card",
    "plan",
    "play",
    "back",
    "hand",
    "hint",
    "resign",
    "record",
    "rematch",
    "variant",
    "clock",
    "lang",
    "erase",
    "keep",
    "seek",
    "unseek",
    "wait",
    "solo",
    "invite",
    "block",
    "again",
    "react",
    "top",
]
VERBS: Final[frozenset[str]] = frozenset(get_args(Verb))
#: The verbs of a lobby's buttons, of a hand's (a card, its plans, the confirm, back) and of
#: a settings panel's: every adapter routes a press by them.
LOBBY_VERBS: Final = frozenset({"join", "leave", "team", "computer", "uncomputer", "start", "cancel"})
HAND_VERBS: Final = frozenset({"card", "plan", "play", "back"})
SETTING_VERBS: Final = frozenset({"variant", "clock", "lang"})
ERASE_VERBS: Final = frozenset({"erase", "keep"})
#: The verbs of the pairing pool's buttons: none names anyone but the presser.
POOL_VERBS: Final = frozenset({"seek", "unseek", "wait", "solo", "invite", "block"})
#: The verbs of a stranger match's own buttons, for adapters that offer them: each names
#: the table and nobody's id.
STRANGER_VERBS: Final = frozenset({"again", "react"})
PREFIX: Final = "b1"
_TABLE_ID = re.compile(r"^[A-Za-z0-9_-]{0,40}$")
_ARG = re.compile(r"^[A-Za-z0-9 _.-]{0,20}$")


@dataclass(frozen=True, slots=True)
class Action:
    """``table_id`` is empty for settings actions (they act on the chat)."""

    verb: Verb
    table_id: str = ""
    version: int = 0
    card: str | None = None
    plan: int | None = None
    arg: str | None = None

    def encode(self) -> str:
        """``b1|verb|table|version|card|plan|arg`` without trailing empty fields; fits 64 bytes."""
        fields = (
            PREFIX,
            self.verb,
            self.table_id,
            str(self.version),
            self.card or "",
            "" if self.plan is None else str(self.plan),
            self.arg or "",
        )
        return "|".join(fields).rstrip("|")

    @property
    def team(self) -> int | None:
        """The team a lobby button names (0 = A, 1 = B): in its argument (``0``/``1``, or
        ``A``/``B``), else in its plan field; None if it names none.

        >>> Action("team", "t1", arg="B").team, Action("team", "t1", plan=0).team
        (1, 0)
        """
        for value in (self.arg, self.plan):
            text = "" if value is None else str(value)
            if text in ("0", "1"):
                return int(text)
            if text in ("A", "a", "B", "b"):
                return 0 if text in ("A", "a") else 1
        return None

    @classmethod
    def decode(cls, payload: str) -> Action:
        """The action a payload names; BadInput if it is not one this renderer made."""
        if not isinstance(payload, str) or len(payload) > 100:
            raise BadInput(f"bad payload {payload!r}")
        parts = payload.split("|")
        parts += [""] * (7 - len(parts))
        if len(parts) != 7 or parts[0] != PREFIX or parts[1] not in VERBS:
            raise BadInput(f"bad payload {payload!r}")
        _, verb, table_id, version, card, plan, arg = parts
        if not _TABLE_ID.match(table_id) or not is_number(version) or len(version) > 9:
            raise BadInput(f"bad payload {payload!r}")
        if card:
            try:
                card = Card.parse(card).code
            except ValueError:
                raise BadInput(f"bad card in payload {payload!r}") from None
        if plan and (not is_number(plan) or len(plan) > 3):
            raise BadInput(f"bad plan in payload {payload!r}")
        if not _ARG.match(arg):
            raise BadInput(f"bad argument in payload {payload!r}")
        return cls(
            verb,  # type: ignore[arg-type]
            table_id,
            int(version),
            card or None,
            int(plan) if plan else None,
            arg or None,
        )


ButtonStyle = Literal["primary", "secondary", "success", "danger"]


@dataclass(frozen=True, slots=True)
class Button:
    """A button: its label (already translated) and what pressing it does."""

    label: str
    action: Action
    style: ButtonStyle = "secondary"


def is_number(text: str) -> bool:
    """ASCII digits only: what the renderer writes. (``str.isdigit`` also takes "²", which
    ``int`` refuses, and "٣", which no button of ours carries.)"""
    return text.isascii() and text.isdigit()
