"""The keys of the terminal table: typed ahead while the computer plays, they are dropped;
on an Arabic keyboard, hint and leave need no switch of layout."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bots.terminal.__main__ import play
from tests.terminal.players import CHOICE, Terminal, arguments, choose, run


def test_keys_at_h_and_q_on_an_arabic_keyboard_hint_and_leave(tmp_path: Path) -> None:
    # On an Arabic layout the keys of h and q type ا and ض.
    screen = run(tmp_path, ["--lang", "ar"], script=["ا", "ض"])
    assert "تلميح:" in screen
    assert screen.rstrip().endswith("المباراة محفوظة: شغّل الأمر نفسه مرة أخرى لتكمل.")


def test_the_letters_the_arabic_help_shows_hint_and_leave(tmp_path: Path) -> None:
    screen = run(tmp_path, ["--lang", "ar"], script=["ت", "خ"])
    help_line = screen.splitlines()[0]
    assert "ت أو h" in help_line and "خ أو q" in help_line, help_line
    assert "تلميح:" in screen
    assert "المباراة محفوظة" in screen


def test_latin_keys_work_in_arabic_and_capitals_too(tmp_path: Path) -> None:
    screen = run(tmp_path, ["--lang", "ar"], script=["H", "Q"])
    assert "تلميح:" in screen
    assert "المباراة محفوظة" in screen


async def test_keys_typed_while_the_computer_plays_are_ignored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    term = Terminal(monkeypatch)
    args = arguments(tmp_path, ["--lang", "en", "--name", "Amal"], delay=0.4)
    game = asyncio.create_task(play(args, term.keys, term.screen))
    try:
        for _ in range(2):  # at the start or after one play of ours, the computer thinks
            screen = await term.until(lambda text: "is thinking…" in text or "Your choice" in text)
            if "is thinking…" in screen:
                break
            term.type("1")
            screen = await term.until("Selected:")
            row = [line for line in screen.splitlines() if line.startswith("[1]")][-1]
            term.type(choose(CHOICE.findall(row)))
            await term.until("is thinking…")
        term.type("q1")  # a key to leave and a card, typed while the computer thinks
        await term.until(lambda text: term.last_line().startswith("Your choice"))
        await asyncio.sleep(0.2)
        assert not game.done()
        assert "Selected:" not in term.text()
        assert "The match is saved" not in term.text()
        term.type("1")  # typed at the prompt, a key counts
        await term.until("Selected:")
        term.type("q")
        assert await game == 0
        assert "The match is saved" in term.text()
    finally:
        game.cancel()
        term.close()


async def test_at_a_terminal_one_key_chooses_and_arabic_keys_hint_and_leave(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    term = Terminal(monkeypatch)
    args = arguments(tmp_path, ["--lang", "ar", "--name", "Amal"])  # asked nothing at the start
    game = asyncio.create_task(play(args, term.keys, term.screen))
    try:
        await term.until(lambda text: term.last_line().startswith("اختيارك"))
        term.type("٢")  # one key, no Enter: the second card is selected at once
        await term.until("اخترت:")
        term.type("ت")
        await term.until("تلميح:")
        term.type("ض")
        assert await game == 0
        assert "المباراة محفوظة" in term.text()
        assert term.echo_is_on()
    finally:
        game.cancel()
        term.close()
