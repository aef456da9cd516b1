"""``python -m core replay FILE --plays``: a record told play by play, in English or Arabic."""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
from pathlib import Path

import pytest

from core import Match
from core.__main__ import main
from core.cards import SUIT_SYMBOLS

from .helpers import play_match

LRI, PDI = "\u2066", "\u2069"
CARD = re.compile(r"(?:10|[2-9AJQK])[♣♦♥♠]")
PLAYED = re.compile(r"^  (\d+)\. ")


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(["replay", *argv])
        except SystemExit as exit:  # a usage error
            status = int(exit.code or 0)
    return status, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def finished() -> Match:
    match = Match.new(2, seed=11)
    play_match(match)
    return match


def saved(tmp_path: Path, match: Match) -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(match.to_record()), encoding="utf-8")
    return str(path)


def test_every_play_of_the_record_is_told_in_order_round_by_round(tmp_path: Path, finished: Match) -> None:
    status, out, err = run(saved(tmp_path, finished), "--plays")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "Basra · 2 players · to 121"
    told = [line for line in lines if PLAYED.match(line)]
    assert len(told) == len(finished.plays)
    # Each told play names the card the record holds, in the record's order.
    for line, play in zip(told, finished.plays, strict=True):
        code = play.partition("/")[0]
        symbol = code[:-1] + SUIT_SYMBOLS[code[-1]]
        assert re.search(rf"played {re.escape(symbol)}[;. ]", line), (line, play)
    headers = [line for line in lines if line.startswith("Round ") and "dealer" in line]
    assert len(headers) == len(finished.rounds)
    winner = f"Seat {finished.winner + 1}" if finished.winner is not None else "?"
    assert lines[-1] == f"{winner} won the match, {finished.scores[0]}–{finished.scores[1]}."


def test_a_round_is_scored_with_its_points_and_the_running_score(tmp_path: Path, finished: Match) -> None:
    _, out, _ = run(saved(tmp_path, finished), "--plays")
    scored = [line for line in out.splitlines() if " is over: " in line]
    assert len(scored) == len(finished.rounds)
    first = finished.rounds[0]
    assert scored[0].startswith(
        f"Round 1 is over: Seat 1 {first.points[0]} points, Seat 2 {first.points[1]} "
        f"(cards {first.cards[0]}–{first.cards[1]}, basras {first.basras[0]}–{first.basras[1]})."
    )
    assert scored[-1].endswith(f"Score: {finished.scores[0]}–{finished.scores[1]}")


def test_in_arabic_every_run_of_cards_and_every_score_is_isolated(tmp_path: Path, finished: Match) -> None:
    status, out, err = run(saved(tmp_path, finished), "--plays", "--lang", "ar")
    assert (status, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "باصرة · لاعبان · حتى 121"
    assert len([line for line in lines if PLAYED.match(line)]) == len(finished.plays)
    outside = re.sub(f"{LRI}[^{LRI}{PDI}]*{PDI}", "", out)
    assert not CARD.search(outside), "a card outside an isolate"
    assert not re.search(r"\d+–\d+", outside), "a score outside an isolate"
    assert out.count(LRI) == out.count(PDI)
    assert lines[-1].startswith(f"فاز المقعد {finished.winner + 1 if finished.winner is not None else 0}")


def test_a_two_against_two_match_names_its_teams(tmp_path: Path) -> None:
    match = Match.new(4, seed=5)
    play_match(match)
    _, out, _ = run(saved(tmp_path, match), "--plays")
    lines = out.splitlines()
    assert lines[:2] == ["Basra · 4 players · to 121", "Team A: seats 1 and 3 · Team B: seats 2 and 4"]
    assert lines[-1].startswith(f"Team {'AB'[match.winner or 0]} won the match")


def test_a_record_cut_short_says_where_it_ends(tmp_path: Path) -> None:
    match = Match.new(2, seed=3)
    for _ in range(7):
        assert match.to_move is not None
        match.play(match.to_move, match.hand(match.to_move)[0])
    _, out, _ = run(saved(tmp_path, match), "--plays")
    assert out.splitlines()[-1] == (
        "The record ends in round 1 at 0–0: the match was not played to its end."
    )


def test_a_refused_record_is_one_line_and_status_2_with_plays_too(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"format": "pgn"}', encoding="utf-8")
    status, out, err = run(str(path), "--plays", "--lang", "ar")
    assert (status, out) == (2, "")
    assert err == "error: unknown record format 'pgn' (expected 'basra-record/1')\n"


def test_an_unknown_language_is_a_usage_error_of_one_line() -> None:
    status, out, err = run("-", "--plays", "--lang", "fr")
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1 and "invalid choice: 'fr'" in err


def test_a_reader_that_stops_early_gets_no_traceback(
    tmp_path: Path, finished: Match, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--plays | head -2``: the pipe is closed before the play by play is written."""
    path = saved(tmp_path, finished)
    read_end, write_end = os.pipe()
    os.close(read_end)
    with open(write_end, "w", encoding="utf-8") as closed_pipe:
        monkeypatch.setattr(sys, "stdout", closed_pipe)
        assert main(["replay", path, "--plays"]) == 0
        monkeypatch.undo()
    assert capsys.readouterr().err == ""
