"""What the player types at the terminal table, and reading it.

Two readers, chosen by what standard input is:

- ``LineKeys``: lines, one answer each (a pipe, a file, the tests' scripts).
  Nothing is thrown away: a script is read exactly as written.
- ``TtyKeys``: a terminal, read key by key without echo (cbreak), so a digit
  chooses at once when no longer number is on offer, and keys typed while it
  was not the player's turn (the computer playing) are flushed unread.

Both understand the same keys. ``h``/``q`` are also taken where an Arabic
keyboard puts them (``ا``/``ض``) and as the letters the Arabic help shows
(``ت`` تلميح, ``خ`` خروج), so nobody has to switch layouts to play.

>>> entry("H"), entry("ض"), entry(" ١ ").number, entry("²").kind
(Entry(kind='hint', text='H'), Entry(kind='quit', text='ض'), 1, 'other')
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import termios
import tty
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Final, Literal, Protocol, Self, TextIO

#: Keys (and words) asking for a hint: Latin h, the Arabic layout's key for h (ا, أ with
#: shift), and ت, the first letter of تلميح, which the Arabic help shows.
HINT_KEYS: Final = frozenset({"h", "hint", "ا", "أ", "ت", "تلميح"})
#: Keys (and words) to leave: q, the Arabic layout's key for q (ض), and خ (خروج).
QUIT_KEYS: Final = frozenset({"q", "quit", "ض", "خ", "خروج"})
_ENTER: Final = frozenset("\r\n")
#: What dismisses a screen waiting to be read (a round's points): Enter or Space, so that a
#: number meant for the next hand, typed a moment early, does not dismiss it unseen.
_GO_ON: Final = frozenset("\r\n ")
_ERASE: Final = frozenset("\x7f\b")
_END_OF_INPUT: Final = "\x04"  # Ctrl-D, as at a shell prompt

EntryKind = Literal["number", "hint", "quit", "other", "end"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One answer: a number, a hint or quit key, anything else (``text``), or the end of input."""

    kind: EntryKind
    text: str = ""

    @property
    def number(self) -> int:
        return int(self.text) if self.kind == "number" else 0


def entry(text: str) -> Entry:
    """What a typed answer asks for. Decimal digits of any script count (``١`` is 1), other
    digit-like characters (``²``) do not."""
    text = text.strip()
    key = text.casefold()
    if key in HINT_KEYS:
        return Entry("hint", text)
    if key in QUIT_KEYS:
        return Entry("quit", text)
    if text.isdecimal():
        return Entry("number", text)
    return Entry("other", text)


class Keys(Protocol):
    """Where answers come from. ``choices`` is how many numbers are on offer (None: any
    key will do); ``typed`` is told what has been typed so far, to show it."""

    async def read(self, choices: int | None, typed: Callable[[str], None]) -> Entry: ...

    def drain(self) -> None:
        """Forget whatever was typed before now."""


class LineKeys:
    """Answers as lines of a stream that is not a terminal."""

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        return None

    async def read(self, choices: int | None, typed: Callable[[str], None]) -> Entry:
        line = await asyncio.get_running_loop().run_in_executor(None, self.stream.readline)
        return entry(line) if line else Entry("end")

    def drain(self) -> None:
        """Nothing to drop: a piped script was written ahead on purpose."""


class TtyKeys:
    """Single keys from a terminal in cbreak mode (no echo, no line editing), restored on exit.

    A digit answers at once when no longer number is on offer (``3`` of 5 choices);
    otherwise Enter ends the number. Where no number is on offer (a round's points), only
    Enter or Space goes on and a quit key leaves; other keys are ignored. Backspace takes
    back a digit; arrows and other escape sequences are ignored; Ctrl-D leaves like the end
    of a piped script.
    """

    def __init__(self, stream: TextIO) -> None:
        self.fd = stream.fileno()
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._saved: list[Any] | None = None
        self._ended = False

    async def __aenter__(self) -> Self:
        self._saved = termios.tcgetattr(self.fd)
        tty.setcbreak(self.fd)
        asyncio.get_running_loop().add_reader(self.fd, self._readable)
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        asyncio.get_running_loop().remove_reader(self.fd)
        if self._saved is not None:  # keys typed at the very end stay out of the shell too
            with contextlib.suppress(termios.error):
                termios.tcsetattr(self.fd, termios.TCSAFLUSH, self._saved)

    def _readable(self) -> None:
        try:
            data = os.read(self.fd, 1024)
        except OSError:
            data = b""
        if not data:
            asyncio.get_running_loop().remove_reader(self.fd)
            self._ended = True
            self._queue.put_nowait(None)
            return
        if data.startswith(b"\x1b"):  # an arrow or function key arrives as one whole sequence
            return
        for key in self._decoder.decode(data):
            self._queue.put_nowait(key)

    def drain(self) -> None:
        with contextlib.suppress(termios.error):
            termios.tcflush(self.fd, termios.TCIFLUSH)
        while not self._queue.empty():
            self._queue.get_nowait()
        self._decoder.reset()
        if self._ended:
            self._queue.put_nowait(None)

    async def read(self, choices: int | None, typed: Callable[[str], None]) -> Entry:
        number = ""
        while True:
            key = await self._queue.get()
            if key is None or key == _END_OF_INPUT:
                self._ended = True
                self._queue.put_nowait(None)  # every later read ends too
                return Entry("end")
            if choices is None:
                if key in _GO_ON:
                    return Entry("other")
                if entry(key).kind == "quit":
                    return entry(key)
                continue  # any other key leaves the screen as it is
            if key in _ENTER:
                if number:
                    return entry(number)
            elif key in _ERASE:
                number = number[:-1]
                typed(number)
            elif key.isdecimal():
                number += key
                typed(number)
                if int(number) == 0 or int(number) * 10 > choices:
                    return entry(number)
            elif key.isprintable() and not key.isspace():
                typed("")
                return entry(key)
