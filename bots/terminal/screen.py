"""Showing the terminal table: drawn in place on a terminal, printed plainly elsewhere.

A ``Frame`` is everything on screen: notices at the top, the board (table,
hand, a round's summary) with its numbered choices, messages under it and
the prompt. On a terminal, ``LiveScreen`` redraws the frame in place with
rich's ``Live``, so the screen always holds one table and nothing scrolls
away. Anywhere else (a pipe, a file, the tests) ``PlainScreen`` prints what
changed, once, with no escape codes: a new board in full, a new message
alone, the prompt when an answer is awaited, and the answer after it.

Both leave out the bidirectional isolates the chats need around card runs,
scores and names (``bots.i18n.bidi``): a terminal that does not implement
them draws each as a box, or nothing, and none reorders text by them anyway.

>>> terminal_text("Your hand: \u20666♣ 10♣\u2069")
'Your hand: 6♣ 10♣'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Protocol, TextIO

from rich.console import Console, ConsoleOptions, RenderResult
from rich.live import Live
from rich.segment import Segment
from rich.text import Text as RichText

from ..render import Text

CURSOR = "▌"
#: U+2066..U+2069: left-to-right, right-to-left and first-strong isolates, and their end.
_ISOLATES: Final = dict.fromkeys(range(0x2066, 0x206A))


def terminal_text(text: str) -> str:
    """``text`` as a terminal shows it: without bidirectional isolates."""
    return text.translate(_ISOLATES)


@dataclass(frozen=True, slots=True)
class Frame:
    head: tuple[str, ...] = ()
    board: Text = field(default_factory=lambda: Text(()))
    notes: tuple[str, ...] = ()
    prompt: str | None = None


class Screen(Protocol):
    def show(self, frame: Frame, typed: str = "") -> None: ...

    def ask(self, prompt: str) -> None:
        """An answer is awaited now."""

    def answered(self, text: str) -> None:
        """The answer that was read."""

    def close(self) -> None: ...


class PlainScreen:
    """Prints each change once: for pipes, files and tests."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.last = Frame()
        self.started = False

    def _print(self, *lines: str) -> None:
        for line in lines:
            print(terminal_text(line), file=self.out)

    def show(self, frame: Frame, typed: str = "") -> None:
        last, self.last = self.last, frame
        new_board = frame.board != last.board
        if frame.head != last.head and frame.head:
            self._print(*frame.head)
        if new_board and frame.board.lines:
            if self.started:
                self._print("")
            self._print(frame.board.plain())
            self.started = True
        if new_board:
            self._print(*frame.notes)
        elif frame.notes != last.notes:
            kept = len(last.notes) if frame.notes[: len(last.notes)] == last.notes else 0
            self._print(*frame.notes[kept:])
        self.out.flush()

    def ask(self, prompt: str) -> None:
        print(terminal_text(prompt), end=" ", file=self.out, flush=True)

    def answered(self, text: str) -> None:
        print(terminal_text(text), file=self.out, flush=True)

    def close(self) -> None:
        self.out.flush()


class _Bottom:
    """Lines that keep to the terminal's height: when the frame is taller, its top goes
    (the title, the score) and the hand, choices and prompt stay in sight."""

    def __init__(self, text: RichText) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines = console.render_lines(self.text, options.update(height=None), pad=False)
        room = max(1, console.size.height - 1)
        for number, line in enumerate(lines[-room:]):
            if number:
                yield Segment.line()
            yield from line


def rich_text(frame: Frame, typed: str) -> RichText:
    text = RichText()

    def line(content: str = "", style: str = "") -> None:
        if text:
            text.append("\n")
        text.append(terminal_text(content), style)

    for notice in frame.head:
        line(notice, "bold")
    for board_line in frame.board.lines:
        line()
        for span in board_line.spans:
            text.append(terminal_text(span.text), "bold" if span.bold else "")
    for note in frame.notes:
        line(note)
    if frame.prompt is not None:
        line(frame.prompt + " ", "bold")
        text.append(typed + CURSOR)
    return text


class LiveScreen:
    """Redraws the frame in place on a terminal; the last frame stays when it closes."""

    def __init__(self, console: Console) -> None:
        self.live = Live(console=console, auto_refresh=False, redirect_stdout=False, vertical_overflow="crop")
        self.live.start()
        self.shown: tuple[Frame, str] | None = None

    def show(self, frame: Frame, typed: str = "") -> None:
        if self.shown == (frame, typed):
            return
        self.shown = (frame, typed)
        self.live.update(_Bottom(rich_text(frame, typed)), refresh=True)

    def ask(self, prompt: str) -> None:
        """The prompt is part of the frame."""

    def answered(self, text: str) -> None:
        """The answer shows as the next frame."""

    def close(self) -> None:
        if self.shown is not None:
            frame, _ = self.shown
            self.live.update(_Bottom(rich_text(Frame(frame.head, frame.board, frame.notes), "")))
        self.live.stop()


def screen_for(out: TextIO) -> Screen:
    """``LiveScreen`` on a terminal that can move its cursor, ``PlainScreen`` anywhere else
    (a pipe, a file, ``TERM=dumb``)."""
    console = Console(file=out, highlight=False, markup=False, emoji=False)
    if console.is_terminal and not console.is_dumb_terminal:
        return LiveScreen(console)
    return PlainScreen(out)
