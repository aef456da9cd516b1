"""What the terminal shows a person and asks of them: no bidirectional isolates (a terminal
draws them as boxes, or nothing), a name asked for rather than the login's, and a round's
points that only Enter or Space dismisses, so a number typed for the next hand does not."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

from bots.i18n import translator
from bots.terminal.__main__ import _local_name, play
from bots.terminal.texts import CONTINUE
from tests.terminal.players import Player, Terminal, arguments, run
from tests.terminal.test_terminal_screen import play_a_turn, prompt_shown

ISOLATES = "\u2066\u2067\u2068\u2069"


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_nothing_printed_holds_a_bidirectional_isolate(tmp_path: Path, lang: str) -> None:
    screen = run(tmp_path, ["--lang", lang])  # a whole match, to its result
    assert "♣" in screen and not any(mark in screen for mark in ISOLATES)
    run(tmp_path, ["--lang", lang], script=["q"])
    again = run(tmp_path, ["--lang", lang], script=["q"])  # the saved match's notice, a command in it
    assert "basra play --new" in again and not any(mark in again for mark in ISOLATES)


async def test_on_a_terminal_nothing_drawn_holds_an_isolate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    term = Terminal(monkeypatch)
    args = arguments(tmp_path, ["--lang", "ar", "--name", "أمل"])
    game = asyncio.create_task(play(args, term.keys, term.screen))
    try:
        await play_a_turn(term, "ar")
        term.type("q")
        assert await game == 0
        assert "♣" in term.written or "♦" in term.written
        assert not any(mark in term.written for mark in ISOLATES)
    finally:
        game.cancel()
        term.close()


async def test_a_new_match_at_a_terminal_asks_a_name_the_login_first_then_the_last_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    login = _local_name()
    term = Terminal(monkeypatch)
    game = asyncio.create_task(play(arguments(tmp_path, ["--lang", "en"]), term.keys, term.screen))
    try:
        await term.until(f"Your name at the table [{login}]:")
        term.type("Amal Saeed\n")
        screen = await term.until(prompt_shown())
        assert "Amal Saeed" in screen and f"{login} " not in screen
        term.type("q")
        assert await game == 0
    finally:
        game.cancel()
        term.close()
    # The saved match goes on: its seat has a name, so nothing is asked.
    term = Terminal(monkeypatch)
    game = asyncio.create_task(play(arguments(tmp_path, ["--lang", "en"]), term.keys, term.screen))
    try:
        screen = await term.until(prompt_shown())
        assert "Your name at the table" not in screen and "Amal Saeed" in screen
        term.type("q")
        assert await game == 0
    finally:
        game.cancel()
        term.close()
    # A new match asks again, with the name used last time: Enter keeps it.
    term = Terminal(monkeypatch)
    game = asyncio.create_task(play(arguments(tmp_path, ["--lang", "en", "--new"]), term.keys, term.screen))
    try:
        await term.until("Your name at the table [Amal Saeed]:")
        term.type("\n")
        screen = await term.until(prompt_shown())
        assert "Amal Saeed" in screen
        term.type("q")
        assert await game == 0
    finally:
        game.cancel()
        term.close()
    # Without a terminal nothing is asked, and the name used last time stays.
    out = io.StringIO()
    assert await play(arguments(tmp_path, ["--lang", "en", "--new"]), Player(out, "en", ["q"]), out) == 0
    assert "Your name at the table" not in out.getvalue() and "Amal Saeed" in out.getvalue()


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_number_typed_at_a_round_s_points_leaves_them_on_screen(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    term = Terminal(monkeypatch, rows=60)
    args = arguments(tmp_path, ["--lang", lang, "--name", "Amal"])
    game = asyncio.create_task(play(args, term.keys, term.screen))
    t = translator(lang)
    points = t.gettext("Round {round} is over", round=1)
    go_on = t.gettext(CONTINUE)
    try:
        screen = ""
        while points not in screen:
            screen = await play_a_turn(term, lang)
        await term.until(lambda text: term.last_line().startswith(go_on))
        term.type("1")  # meant for the next hand
        term.type("h")
        await asyncio.sleep(0.3)
        assert points in term.text() and term.last_line().startswith(go_on)
        term.type("\r")  # Enter goes on
        await term.until(lambda text: points not in text)
        term.type("q")
        assert await game == 0
    finally:
        game.cancel()
        term.close()
