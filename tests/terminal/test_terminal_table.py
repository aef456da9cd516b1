"""The terminal table (``basra play``), driven through its input and output streams."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bots.i18n import translator
from tests.terminal.players import run, seeded

#: Seed 248 deals the player (to move first) 4♣ 7♠ K♣ 9♦ to a floor of A♣ 3♦ 5♣ 6♣: the 9♦
#: takes A♣ 3♦ 5♣ or 3♦ 6♣.
TWO_PLANS = 248


def test_a_whole_match_against_the_computer_is_played_to_its_result(tmp_path: Path) -> None:
    screen = run(tmp_path, ["--lang", "en"])
    assert "Your hand:" in screen
    result = screen[screen.rindex("Practice against the computer: nothing counted.") - 400 :]
    assert re.search(r"(?m)^[^:\n]+: (win|loss)", result), result


def test_a_card_is_previewed_before_it_is_played(tmp_path: Path) -> None:
    screen = run(tmp_path, ["--lang", "en"], script=["1", "q"])
    first_hand = screen.index("Your hand:")
    preview = screen.index("Selected:", first_hand)
    assert "[1] Play" in screen[preview:] or "[1] " in screen[preview:]
    assert " played " not in screen[preview:].split("Your choice")[1]


def test_bad_input_is_explained_alone_and_changes_nothing(tmp_path: Path) -> None:
    screen = run(tmp_path, ["--lang", "en"], script=["seven", "99", "²", "q"])
    assert "“seven” is not one of the numbers shown." in screen
    assert "“99” is not one of the numbers shown." in screen
    assert "“²” is not one of the numbers shown." in screen
    refused = screen[screen.index("“seven”") :]
    assert "Your hand:" not in refused  # the table is not printed again for a refusal
    assert len(set(re.findall(r"Your hand: (.*)", screen))) == 1


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
    after = screen[screen.index("Hint:") - 300 :]
    assert "Selected:" in after


def test_arabic_indic_digits_choose_like_ascii_ones(tmp_path: Path) -> None:
    screen = run(tmp_path, ["--lang", "ar"], script=["١", "q"])
    assert "اخترت:" in screen  # "١" selected the first card, as "1" does


@pytest.mark.parametrize(
    ("lang", "first", "second"),
    [("en", "[1] A♣ + 3♦ + 5♣", "[2] 3♦ + 6♣"), ("ar", "[1] A♣ + 3♦ + 5♣", "[2] 3♦ + 6♣")],
)
def test_each_plan_s_choice_shows_what_it_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str, first: str, second: str
) -> None:
    seeded(monkeypatch, TWO_PLANS)
    screen = run(tmp_path, ["--lang", lang], script=["4", "q"])  # 9♦ is the fourth card
    choices = screen[screen.rindex("\n[1]") :].splitlines()[1]
    assert choices.startswith(f"{first}  {second}  [3] "), choices


def test_the_cards_taken_this_round_are_counted_as_the_round_goes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeded(monkeypatch, TWO_PLANS)
    screen = run(tmp_path, ["--lang", "en", "--name", "Mona"], script=["4", "2", "3", "q"])  # 9♦ takes 3♦ 6♣
    counts = re.findall(r"Taken this round: Mona (\d+) cards? · Computer \(beginner\) (\d+) cards?", screen)
    assert counts[0] == ("0", "0")
    assert ("3", "0") in counts  # the 9♦ and the two cards it took
    assert "0–0" in screen  # the match score itself moves only when a round is scored


@pytest.mark.parametrize("lang", ["en", "ar"])
def test_the_match_over_line_comes_after_the_last_round_s_points(tmp_path: Path, lang: str) -> None:
    screen = run(tmp_path, ["--lang", lang])
    words = {
        "en": ("Round ", "The match is over", "End of the round: its points are below."),
        "ar": ("انتهت الجولة ", "انتهت المباراة", "انتهت الجولة: نقاطها أدناه."),
    }[lang]
    round_over, match_over, points_below = words
    last_board = screen[screen.rindex("\n\n", 0, screen.rindex(points_below)) :]
    assert last_board.index(points_below) < last_board.rindex(round_over) < last_board.index(match_over)
    assert last_board.count(match_over) == 1, last_board
    assert "الرسالة التالية" not in screen  # "in the next message" is for chats
    # No seat's "0 cards" left in hand above the cards each side took.
    none = translator(lang).ngettext("{n} card", "{n} cards", 0)
    assert not re.search(rf"(?m)^· .*: {none}$", last_board), last_board
    assert re.search(rf"(?m)^· .*: {none}$", screen)  # as every table of a round's last deal has


def test_the_cards_and_basras_taken_are_joined_in_the_table_s_language(tmp_path: Path) -> None:
    screen = run(tmp_path, ["--lang", "ar"])
    taken = [line for line in screen.splitlines() if line.startswith("المأخوذ في هذه الجولة")]
    with_basras = [line for line in taken if "باصر" in line]
    assert with_basras and all("، " in line for line in with_basras)
    assert not any(", " in line for line in taken)
