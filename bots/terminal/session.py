"""A practice match at the terminal: the table service's third adapter.

The terminal is one chat holding both the public table and the player's hand.
Notices are printed as they come; when it is the player's turn the hand is
shown with its buttons numbered, and a number presses that button, so the
terminal offers exactly what the chat bots offer: a card shows what it would
take, a numbered plan selects, and only confirm plays.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TextIO

from ..i18n import Translator
from ..i18n.markers import N_
from ..render import (
    Action,
    Button,
    Rendered,
    hint_text,
    render_error,
    render_hand,
    render_notice,
)
from ..service import (
    HandView,
    Person,
    ServiceError,
    TableService,
    TableView,
)
from ..service.notices import Notice

PROMPT = N_("Your choice (a number; h for a hint, q to leave):")
KEYS = N_("Type the number of a button. h: a hint. q: leave (the match waits for you).")
NOT_A_CHOICE = N_("“{text}” is not one of the numbers shown.")
GOODBYE = N_("The match is saved: run the same command again to go on.")


class TerminalPlatform:
    """Prints the notices of the terminal's table; remembers the latest hand."""

    name = "term"
    owner = "term"

    def __init__(self, out: TextIO, player_id: str) -> None:
        self.out = out
        self.player_id = player_id
        self.hand: HandView | None = None
        self.turn = asyncio.Event()
        self.over = False
        self._shown_table = -1

    async def deliver(self, notices: Sequence[Notice]) -> None:
        for notice in notices:
            kind = notice.kind
            if kind in ("hand_updated", "your_turn", "clock_warning"):
                self.hand = notice.hand  # type: ignore[union-attr]
                if self.hand.your_turn:
                    self.turn.set()
                continue
            if kind == "table_updated":
                table: TableView = notice.table  # type: ignore[union-attr]
                if table.version == self._shown_table or self._mine(table):
                    # The hand, shown next, holds the table too.
                    continue
                self._shown_table = table.version
            if kind in ("lobby_updated", "lobby_closed"):
                continue
            self.show(render_notice(notice), numbered=False)
            if kind == "match_ended":
                self.over = True
                self.turn.set()

    def _mine(self, table: TableView) -> bool:
        if table.to_move is None or not table.running:
            return False
        return table.seats[table.to_move].player_id == self.player_id

    def show(self, rendered: Rendered, *, numbered: bool) -> list[Button]:
        """Print a message; with ``numbered``, its buttons as numbered choices."""
        print(rendered.plain(), file=self.out)
        buttons = [b for row in rendered.buttons for b in row if b.action.verb != "hand"]
        if numbered and buttons:
            print("  ".join(f"[{i}] {b.label}" for i, b in enumerate(buttons, 1)), file=self.out)
        print(file=self.out, flush=True)
        return buttons


class TerminalSession:
    """One person playing one practice match at the terminal."""

    def __init__(
        self,
        service: TableService,
        platform: TerminalPlatform,
        person: Person,
        lines: TextIO,
        t: Translator,
    ) -> None:
        self.service = service
        self.platform = platform
        self.person = person
        self.lines = lines
        self.t = t

    async def run(self, table_id: str) -> None:
        pid = self.person.player_id
        hand = await self.service.hand(table_id, pid)
        self.platform.hand = hand
        if hand.your_turn:
            self.platform.turn.set()
        print(self.t.gettext(KEYS), file=self.platform.out, flush=True)
        while True:
            await self.platform.turn.wait()
            if self.platform.over or not self.platform.hand or not self.platform.hand.table.running:
                return
            hand = self.platform.hand
            buttons = self.platform.show(render_hand(hand, self.t), numbered=True)
            line = await self._read()
            if line is None or line.lower() == "q":
                print(self.t.gettext(GOODBYE), file=self.platform.out, flush=True)
                return
            if line.lower() == "h":
                await self._hint(hand)
                continue  # the hand comes back with the hinted card selected
            if not line.isdecimal() or not 1 <= int(line) <= len(buttons):
                print(self.t.gettext(NOT_A_CHOICE, text=line), file=self.platform.out, flush=True)
                continue
            self.platform.turn.clear()
            await self._press(buttons[int(line) - 1].action, hand)
            if self.platform.hand is not None and self.platform.hand.your_turn:
                self.platform.turn.set()

    async def _read(self) -> str | None:
        print(self.t.gettext(PROMPT), end=" ", file=self.platform.out, flush=True)
        line = await asyncio.get_running_loop().run_in_executor(None, self.lines.readline)
        if not line:
            return None
        return line.strip()

    async def _press(self, action: Action, hand: HandView) -> None:
        """One button: the same service calls the chat bots make."""
        pid = self.person.player_id
        try:
            if action.verb == "card" and action.card:
                self.platform.hand = await self.service.preview(action.table_id, pid, action.card)
            elif action.verb == "plan" and action.card:
                self.platform.hand = await self.service.preview(
                    action.table_id, pid, action.card, action.plan
                )
            elif action.verb == "back":
                self.platform.hand = await self.service.hand(action.table_id, pid)
            elif action.verb == "play" and action.card:
                self.platform.hand = await self.service.play(
                    action.table_id, pid, action.version, action.card, action.plan
                )
            elif action.verb == "hint":
                await self._hint(hand)
            elif action.verb == "resign":
                await self.service.resign(action.table_id, pid)
        except ServiceError as error:
            self.platform.show(render_error(error, self.t), numbered=False)
            self.platform.hand = await self.service.hand(hand.table_id, pid)

    async def _hint(self, hand: HandView) -> None:
        """What the computer would play here, and why; its card is left selected."""
        try:
            view = await self.service.hint(hand.table_id, self.person.player_id)
        except ServiceError as error:
            self.platform.show(render_error(error, self.t), numbered=False)
            return
        self.platform.hand = view.hand
        print(hint_text(view, self.t), file=self.platform.out, flush=True)

