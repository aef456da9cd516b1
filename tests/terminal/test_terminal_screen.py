"""How the terminal table shows itself: redrawn in place on a terminal, printed once per
change anywhere else, and a round's points kept in sight until a key is pressed."""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from bots.i18n import translator
from bots.terminal.__main__ import play
from bots.terminal.texts import CONTINUE, PROMPT
from tests.terminal.players import CHOICE, Player, Terminal, arguments, choose, run

CARD = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")


def boards(screen: str) -> list[str]:
    """The boards printed, each from its title line to the next, prompts and answers left out."""
    parts = re.split(r"(?m)^(?=Basra · round )", screen)[1:]
    return [re.sub(r"(?m)^Your choice .*\n?", "", part).strip() for part in parts]


def test_without_a_terminal_each_change_is_printed_once_and_plainly(tmp_path: Path) -> None:
    screen = run(tmp_path, ["--lang", "en"])
    assert "\x1b" not in screen  # no escape codes in a pipe or a file
    printed = boards(screen)
    assert len(printed) > 40
    assert all(a != b for a, b in itertools.pairwise(printed))


def prompt_shown(lang: str = "en") -> Callable[[str], bool]:
    prompt = translator(lang).gettext(PROMPT)
    return lambda text: bool(text) and text.splitlines()[-1].startswith(prompt)


def hand_line(text: str) -> str:
    return next((line for line in text.splitlines() if line.startswith(("Your hand:", "ورقك:"))), "")


async def play_a_turn(term: Terminal, lang: str = "en") -> str:
    """Press the first card, confirm it, and wait for the next turn (or a round's points)."""
    ready = prompt_shown(lang)
    go_on = translator(lang).gettext(CONTINUE)
    screen = await term.until(ready)
    before = hand_line(screen)
    term.type("1")
    screen = await term.until(lambda text: "Selected:" in text or "اخترت:" in text)
    row = [line for line in screen.splitlines() if line.startswith("[1]")][-1]
    term.type(choose(CHOICE.findall(row)))
    return await term.until(
        lambda text: go_on in text or (ready(text) and "Selected:" not in text and hand_line(text) != before)
    )


async def test_on_a_terminal_the_table_is_redrawn_in_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    term = Terminal(monkeypatch, rows=40)
    args = arguments(tmp_path, ["--lang", "en", "--name", "Amal"])  # asked nothing at the start
    game = asyncio.create_task(play(args, term.keys, term.screen))
    try:
        for _ in range(4):
            screen = await play_a_turn(term)
        # Four turns printed one after the other would fill the 40 lines several times over.
        assert screen.count("Basra · round") == 1
        assert screen.count("Your hand:") == 1
        assert screen.splitlines()[-1].startswith("Your choice")
        assert "\x1b[1A" in term.written  # drawn again over itself, not below
        term.type("q")
        assert await game == 0
        assert "The match is saved" in term.last_line()
        assert term.echo_is_on()  # the terminal is left as it was found
    finally:
        game.cancel()
        term.close()


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_round_s_points_stay_on_screen_until_a_key_is_pressed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str
) -> None:
    term = Terminal(monkeypatch, rows=60)
    args = arguments(tmp_path, ["--lang", lang, "--name", "Amal"])  # asked nothing at the start
    game = asyncio.create_task(play(args, term.keys, term.screen))
    t = translator(lang)
    points = t.gettext("Round {round} is over", round=1)
    go_on = t.gettext(CONTINUE)
    try:
        screen = ""
        while points not in screen:
            screen = await play_a_turn(term, lang)
        await asyncio.sleep(0.3)  # the computer may play on in round 2 meanwhile
        assert term.text() == screen
        assert term.last_line().startswith(go_on)
        assert t.gettext("Basra · round {round}", round=2) not in screen
        term.type(" ")
        screen = await term.until(lambda text: points not in text)
        assert t.gettext("Basra · round {round}", round=2) in screen
        term.type("q")
        assert await game == 0
    finally:
        game.cancel()
        term.close()


def test_without_a_terminal_a_round_s_points_wait_for_an_answer(tmp_path: Path) -> None:
    seen: list[Player] = []

    def keep(player: Player) -> None:
        player.wait_at_pause = 0.2
        seen.append(player)

    screen = run(tmp_path, ["--lang", "en"], player=keep)
    pauses = seen[0].pauses
    assert pauses
    for number, paused in enumerate(pauses, 1):
        # Nothing was printed while the points waited, though the computer may have played on.
        last = paused[paused.rindex("Basra · round") :]
        assert f"Round {number} is over" in last
        assert paused.endswith("Press Enter or Space to go on (q to leave). ")
    assert screen.count("Press Enter or Space to go on") == len(pauses)


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_an_empty_hand_is_not_listed(tmp_path: Path, lang: str) -> None:
    # Between this seat's last card of a deal and the next deal the hand is
    # empty: the board leaves the line out rather than list nothing.
    screen = run(tmp_path, ["--lang", lang])
    hands = [line for line in screen.splitlines() if line.startswith(("Your hand:", "ورقك:"))]
    assert hands
    assert all(CARD.search(line.partition(":")[2]) for line in hands)
