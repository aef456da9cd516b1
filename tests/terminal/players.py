"""Playing ``basra play`` through its streams, as a person reading the screen would.

``run`` gives the table a scripted ``Player`` for standard input (lines, the
way a pipe gives them) and a string for its output. ``Terminal`` is a
pseudo-terminal instead: the table reads single keys from it and draws on it;
what a person would see is read back with pyte, a terminal emulator.
"""

from __future__ import annotations

import argparse
import asyncio
import codecs
import fcntl
import io
import os
import random
import re
import struct
import termios
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyte
import pytest

from bots.i18n import translator
from bots.service import TableService
from bots.terminal import __main__ as terminal
from bots.terminal.texts import CONTINUE, PROMPT

CHOICE = re.compile(r"\[(\d+)\] ([^\[\n]+)")
PLAY = ("Play", "العب")
#: Zero-width isolates (U+2066..U+2069) around card runs: a terminal shows nothing for
#: them, but pyte 0.8 loses the rest of the line after one, so they are left out of its feed.
ISOLATES = dict.fromkeys(range(0x2066, 0x206A))


def arguments(tmp_path: Path, argv: list[str], delay: float = 0) -> argparse.Namespace:
    return terminal.parser().parse_args(
        ["play", "--database", str(tmp_path / "basra.sqlite3"), "--delay", str(delay), *argv]
    )


def seeded(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Deal from a seeded shuffle: the same cards at every run (``TableService``'s ``rng``)."""

    def service(*args: Any, **kwargs: Any) -> TableService:
        return TableService(*args, rng=random.Random(seed), **kwargs)

    monkeypatch.setattr(terminal, "TableService", service)


def choose(choices: list[tuple[str, str]]) -> str:
    """Confirm when offered, else the first choice."""
    return next((number for number, label in choices if label.startswith(PLAY)), choices[0][0])


class Player(io.StringIO):
    """Standard input for the table: ``script`` lines first, then plays like someone who
    presses the first card and confirms it, and goes on after each round's points.

    ``pauses`` keeps the screen as it was each time the round's points waited for a key."""

    def __init__(self, out: io.StringIO, lang: str, script: list[str] | None = None, limit: int = 2000):
        super().__init__()
        self.out = out
        self.script = list(script or [])
        self.limit = limit
        self.answers = 0
        t = translator(lang)
        self.prompt = t.gettext(PROMPT)
        self.go_on = t.gettext(CONTINUE)
        self.pauses: list[str] = []
        self.wait_at_pause = 0.0

    def readline(self, size: int | None = -1) -> str:
        self.answers += 1
        if self.answers > self.limit:
            return ""
        screen = self.out.getvalue()
        if screen.endswith(self.go_on + " "):
            time.sleep(self.wait_at_pause)  # the computer may play on meanwhile
            self.pauses.append(self.out.getvalue())
            if not self.script:
                return "\n"
        if self.script:
            return self.script.pop(0) + "\n"
        last = screen[screen.rfind("\n[") :]
        choices = CHOICE.findall(last)
        return (choose(choices) if choices else "q") + "\n"


def run(
    tmp_path: Path,
    argv: list[str],
    script: list[str] | None = None,
    limit: int = 2000,
    player: Callable[[Player], None] | None = None,
) -> str:
    """What the table printed, playing with ``script`` (then as ``Player`` does)."""
    args = arguments(tmp_path, argv)
    out = io.StringIO()
    reader = Player(out, args.lang or "ar", script, limit)
    if player is not None:
        player(reader)
    code = asyncio.run(terminal.play(args, reader, out))
    assert code == 0
    return out.getvalue()


class Terminal:
    """A pseudo-terminal for the table: ``type`` presses keys, ``text`` is what it shows."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, columns: int = 100, rows: int = 40) -> None:
        monkeypatch.setenv("TERM", "xterm-256color")
        monkeypatch.setenv("COLUMNS", str(columns))
        monkeypatch.setenv("LINES", str(rows))
        self.master, self.slave = os.openpty()
        fcntl.ioctl(self.slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, 0, 0))
        self.keys = open(self.slave, encoding="utf-8", closefd=False)  # noqa: SIM115
        self.screen = open(self.slave, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
        self.emulator = pyte.Screen(columns, rows)
        self.stream = pyte.Stream(self.emulator)
        self.written = ""
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")()
        while True:
            try:
                data = os.read(self.master, 65536)
            except OSError:
                return
            if not data:
                return
            text = decoder.decode(data)
            with self._lock:
                self.written += text
                self.stream.feed(text.translate(ISOLATES))

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def text(self) -> str:
        with self._lock:
            lines = [line.rstrip() for line in self.emulator.display]
        return "\n".join(lines).rstrip()

    def last_line(self) -> str:
        lines = self.text().splitlines()
        return lines[-1] if lines else ""

    async def until(self, ready: Callable[[str], bool] | str, timeout: float = 10) -> str:
        """The screen once ``ready`` holds for it (or once it shows the text ``ready``)."""
        test = (lambda text: ready in text) if isinstance(ready, str) else ready
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.text()
            if test(text):
                return text
            await asyncio.sleep(0.01)
        raise AssertionError(f"the screen never got there; it shows:\n{self.text()}")

    def echo_is_on(self) -> bool:
        return bool(termios.tcgetattr(self.slave)[3] & termios.ECHO)

    def close(self) -> None:
        self.keys.close()
        self.screen.close()
        os.close(self.slave)
        os.close(self.master)
        self._reader.join(timeout=2)
