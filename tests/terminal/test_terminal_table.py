"""The terminal table (``basra play``), driven through its input and output streams."""

from __future__ import annotations

import argparse
import asyncio
import io
import re
from pathlib import Path

import pytest

from bots.terminal.__main__ import parser, play

CHOICE = re.compile(r"\[(\d+)\] ([^\[\n]+)")


class Player(io.StringIO):
    """Answers the prompts like a person reading the screen: it presses the
    first card, then confirms; ``script`` lines are typed first."""

    def __init__(self, out: io.StringIO, script: list[str] | None = None, limit: int = 2000) -> None:
        super().__init__()
        self.out = out
        self.script = list(script or [])
        self.limit = limit
        self.answers = 0

    def readline(self, size: int | None = -1) -> str:
        self.answers += 1
        if self.answers > self.limit:
            return ""
        if self.script:
            return self.script.pop(0) + "\n"
        screen = self.out.getvalue()
        last = screen[screen.rfind("\n[") :]
        choices = CHOICE.findall(last)
        for number, label in choices:
            if label.startswith(("Play", "العب")):
                return number + "\n"
        return (choices[0][0] if choices else "q") + "\n"


def run(tmp_path: Path, argv: list[str], script: list[str] | None = None, limit: int = 2000) -> str:
    args: argparse.Namespace = parser().parse_args(
        ["play", "--database", str(tmp_path / "basra.sqlite3"), "--delay", "0", *argv]
    )
    out = io.StringIO()
    code = asyncio.run(play(args, Player(out, script, limit), out))
    assert code == 0
    return out.getvalue()


def test_a_whole_match_against_the_computer_is_played_to_its_result(tmp_path: Path) -> None:
    screen = run(tmp_path, ["--lang", "en"])
    assert "Your hand:" in screen
    result = screen[screen.rindex("Practice against the computer: nothing counted.") - 400 :]
    assert re.search(r"⁨[^⁩]+⁩: (win|loss)", result), result


def test_a_card_is_previewed_before_it_is_played(tmp_path: Path) -> None:
    screen = run(tmp_path, ["--lang", "en"], script=["1", "q"])
    first_hand = screen.index("Your hand:")
    preview = screen.index("Selected:", first_hand)
    assert "[1] Play" in screen[preview:] or "[1] " in screen[preview:]
    assert " played " not in screen[preview:].split("Your choice")[1]


def test_bad_input_is_explained_and_changes_nothing(tmp_path: Path) -> None:
    screen = run(tmp_path, ["--lang", "en"], script=["seven", "99", "²", "q"])
    assert "“seven” is not one of the numbers shown." in screen
    assert "“99” is not one of the numbers shown." in screen
    assert "“²” is not one of the numbers shown." in screen
    hands = re.findall(r"Your hand: (.*)", screen)
    assert len(set(hands)) == 1


def test_leaving_keeps_the_match_and_the_same_command_goes_on(tmp_path: Path) -> None:
    first = run(tmp_path, ["--lang", "en"], script=["q"])
    hand = re.findall(r"Your hand: (.*)", first)[-1]
    assert "run the same command again" in first
    again = run(tmp_path, ["--lang", "en"], script=["q"])
    assert re.findall(r"Your hand: (.*)", again)[0] == hand


def test_the_table_speaks_arabic(tmp_path: Path) -> None:
    screen = run(tmp_path, ["--lang", "ar"], script=["q"])
    assert "الأرض" in screen
    assert "Your hand" not in screen


@pytest.mark.parametrize("level", ["strong", "expert"])
def test_every_level_and_four_seats_can_be_played(tmp_path: Path, level: str) -> None:
    screen = run(tmp_path, ["--lang", "en", "--level", level, "--players", "4"], limit=12)
    assert screen.count("Your hand:") >= 3


def test_a_hint_names_a_card_and_leaves_it_selected(tmp_path: Path) -> None:
    screen = run(tmp_path, ["--lang", "en"], script=["h", "q"])
    after = screen[screen.index("Hint:") :]
    assert "Selected:" in after


def test_arabic_indic_digits_choose_like_ascii_ones(tmp_path: Path) -> None:
    screen = run(tmp_path, ["--lang", "ar"], script=["١", "q"])
    assert "اخترت:" in screen  # "١" selected the first card, as "1" does
