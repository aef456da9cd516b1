"""A practice match at the terminal: the table service's third adapter.

The terminal is one chat holding both the public table and the player's hand.
``TerminalPlatform`` keeps what the service said (the latest hand, the plays
of the round, finished rounds not yet looked at, the match's result);
``TerminalSession`` draws it as one screen and reads the player's keys. On
their turn the hand's buttons are numbered and a number presses one, so the
terminal offers exactly what the chat bots offer: a card shows what it would
take, a numbered plan selects, and only confirm plays.

A finished round's points stay on screen until Enter or Space is pressed (the
computer may go on meanwhile: its plays are shown after). Keys typed while
the computer plays are dropped when the turn comes back (``Keys.drain``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from ..i18n import Translator
from ..render import Action, hint_text, render_error
from ..service import (
    HandView,
    MatchResultView,
    Person,
    PlayDescription,
    RoundResultView,
    ServiceError,
    TableService,
    TableView,
)
from ..service.notices import Notice
from .board import Choice, final_board, hand_board, round_board
from .keys import Entry, Keys
from .screen import Frame, Screen
from .texts import CONTINUE, GOODBYE, KEYS, NOT_A_CHOICE, PROMPT


@dataclass(slots=True)
class FinishedRound:
    """A round's last table and its points, shown until Enter or Space is pressed."""

    table: TableView
    result: RoundResultView


@dataclass(slots=True)
class Plays:
    """The plays of the round being shown, by version, as the table saw them."""

    round_no: int = 0
    by_version: dict[int, PlayDescription] = field(default_factory=dict)

    def see(self, table: TableView) -> None:
        if table.round_no != self.round_no:
            if table.round_no < self.round_no:
                return  # a closed round's picture arriving with the next round's table
            self.round_no, self.by_version = table.round_no, {}
        if table.last_play is not None:
            self.by_version.setdefault(table.version, table.last_play)

    def last(self, count: int) -> list[PlayDescription]:
        return [self.by_version[v] for v in sorted(self.by_version)][-count:]


class TerminalPlatform:
    """Receives the service's notices for the terminal's chat and keeps what they say."""

    name = "term"
    owner = "term"

    def __init__(self, player_id: str) -> None:
        self.player_id = player_id
        self.hand: HandView | None = None
        self.plays = Plays()
        self.closing_plays: list[PlayDescription] = []
        self.rounds: list[tuple[FinishedRound, list[PlayDescription]]] = []
        self.result: MatchResultView | None = None
        self.table_id: str | None = None
        self.changed = asyncio.Event()
        self.on_change: Callable[[], None] | None = None
        self._closing: TableView | None = None

    def follow(self, table_id: str) -> None:
        """From now on, only this table counts: what was said of any other (the views the
        service sends of open tables as it starts, a saved match resigned) is forgotten."""
        self.table_id = table_id
        self.hand, self.plays, self.closing_plays = None, Plays(), []
        self.rounds, self.result, self._closing = [], None, None

    def see(self, hand: HandView) -> None:
        """The newest hand (a view answered by a press is older than a notice that overtook it)."""
        if hand.table_id != self.table_id:
            return
        if self.hand is None or hand.version >= self.hand.version:
            self.hand = hand
        self.plays.see(hand.table)

    async def deliver(self, notices: Sequence[Notice]) -> None:
        for notice in notices:
            if notice.table_id != self.table_id:
                continue
            if notice.kind == "table_updated":
                table = notice.table
                if table.round_close is not None:
                    self.plays.see(table)
                    self._closing = table
                    self.closing_plays = self.plays.last(table.players)
                else:
                    self.plays.see(table)
            elif notice.kind in ("hand_updated", "your_turn", "clock_warning"):
                if notice.player_id == self.player_id:
                    self.see(notice.hand)
            elif notice.kind == "round_ended":
                if self._closing is not None:
                    self.rounds.append((FinishedRound(self._closing, notice.result), self.closing_plays))
                    self._closing = None
            elif notice.kind == "match_ended":
                self.result = notice.result
        self.changed.set()
        if self.on_change is not None:
            self.on_change()

    def shown_plays(self, table: TableView) -> list[PlayDescription]:
        """The plays to list with ``table``: one per seat, the table's own last play last."""
        plays = self.plays.last(table.players) if table.round_no == self.plays.round_no else []
        if table.last_play is not None and (not plays or plays[-1] != table.last_play):
            plays = [*plays, table.last_play][-table.players :]
        return plays


@dataclass(eq=False)
class TerminalSession:
    """One person playing one practice match at the terminal."""

    service: TableService
    platform: TerminalPlatform
    person: Person
    keys: Keys
    screen: Screen
    t: Translator
    #: Above every screen: what was said at the start (until the first answer), then the keys.
    head: tuple[str, ...] = ()
    notes: tuple[str, ...] = field(default=(), init=False)
    prompt: str | None = field(default=None, init=False)
    typed: str = field(default="", init=False)
    choices: list[Choice] = field(default_factory=list, init=False)

    def __post_init__(self) -> None:
        self.head = (*self.head, self.t.gettext(KEYS))

    # -- the screen ----------------------------------------------------------------

    def frame(self) -> Frame:
        """What the screen holds now: a finished round until it is looked at, else the hand."""
        p, t = self.platform, self.t
        self.choices = []
        if p.rounds:
            (finished, plays), last = p.rounds[0], len(p.rounds) == 1
            match = p.result if last and finished.result.match_over else None
            board = round_board(t, finished.table, finished.result, plays, match)
        elif p.hand is None:
            return Frame(self.head, notes=self.notes)
        elif p.result is not None:
            board = final_board(t, p.hand, p.shown_plays(p.hand.table), p.result)
        else:
            board, self.choices = hand_board(t, p.hand, p.shown_plays(p.hand.table))
        return Frame(self.head, board, self.notes, self.prompt)

    def draw(self) -> None:
        self.screen.show(self.frame(), self.typed)

    def _typed(self, text: str) -> None:
        self.typed = text
        self.draw()

    async def _ask(self, prompt: str, choices: int | None) -> Entry:
        self.prompt, self.typed = prompt, ""
        self.draw()
        self.screen.ask(prompt)
        answer = await self.keys.read(choices, self._typed)
        self.screen.answered(answer.text)
        self.prompt, self.typed = None, ""
        self.head = ()  # the start-up notices have been read
        return answer

    def _leave(self) -> None:
        self.notes = (self.t.gettext(GOODBYE),)
        self.draw()

    # -- the match -----------------------------------------------------------------

    async def run(self, table_id: str) -> None:
        p = self.platform
        p.follow(table_id)
        p.see(await self.service.hand(table_id, self.person.player_id))
        p.on_change = self.draw
        try:
            await self._play()
        finally:
            p.on_change = None
            self.screen.close()

    async def _play(self) -> None:
        p = self.platform
        waited = True  # keys typed before the first prompt were not typed at it
        while True:
            p.changed.clear()
            if p.rounds:
                finished, _ = p.rounds[0]
                if p.result is not None and finished.result.match_over and len(p.rounds) == 1:
                    self.draw()
                    return
                self.keys.drain()
                answer = await self._ask(self.t.gettext(CONTINUE), None)
                p.rounds.pop(0)
                if answer.kind in ("quit", "end"):
                    self._leave()
                    return
                waited = True  # the computer may have played meanwhile
                continue
            hand = p.hand
            if p.result is not None or hand is None or not hand.table.running:
                self.draw()
                return
            if not hand.your_turn:
                self.draw()
                await p.changed.wait()
                waited = True
                continue
            if waited:
                self.keys.drain()
                waited = False
            self.draw()
            answer = await self._ask(self.t.gettext(PROMPT), len(self.choices))
            choices, self.notes = self.choices, ()
            if answer.kind in ("quit", "end"):
                self._leave()
                return
            if answer.kind == "hint":
                await self._hint(hand)
            elif answer.kind == "number" and 1 <= answer.number <= len(choices):
                await self._press(choices[answer.number - 1].action, hand)
            elif answer.text:
                self.notes = (self.t.gettext(NOT_A_CHOICE, text=answer.text),)

    async def _press(self, action: Action, hand: HandView) -> None:
        """One button: the same service calls the chat bots make."""
        pid = self.person.player_id
        service, see = self.service, self.platform.see
        try:
            if action.verb == "card" and action.card:
                see(await service.preview(action.table_id, pid, action.card))
            elif action.verb == "plan" and action.card:
                see(await service.preview(action.table_id, pid, action.card, action.plan))
            elif action.verb == "back":
                see(await service.hand(action.table_id, pid))
            elif action.verb == "play" and action.card:
                see(await service.play(action.table_id, pid, action.version, action.card, action.plan))
            elif action.verb == "hint":
                await self._hint(hand)
            elif action.verb == "resign":
                await service.resign(action.table_id, pid)
        except ServiceError as error:
            self.notes = (render_error(error, self.t).plain(),)
            see(await service.hand(hand.table_id, pid))

    async def _hint(self, hand: HandView) -> None:
        """What the computer would play here, and why; its card is left selected."""
        try:
            view = await self.service.hint(hand.table_id, self.person.player_id)
        except ServiceError as error:
            self.notes = (render_error(error, self.t).plain(),)
            return
        self.notes = (hint_text(view, self.t),)
        self.platform.see(view.hand)
