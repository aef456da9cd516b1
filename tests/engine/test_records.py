"""Match records (basra-record/1) and ``python -m core replay FILE``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core import BasraError, Card, Match, Rules
from core.errors import RecordError

from .helpers import codes, new_match, play_match, play_round

ROOT = Path(__file__).resolve().parents[2]
QUIET = "KC KD KH KS"


def played_match(seed: int = 1, plays: int = 30, players: int = 2, rules: Rules | None = None) -> Match:
    match = Match.new(players, rules, seed=seed)
    for _ in range(plays):
        assert match.to_move is not None
        seat = match.to_move
        card = match.hand(seat)[-1]
        plans = match.plans(card)
        match.play(seat, card, len(plans) if plans else None)
    return match


def test_a_record_holds_format_players_dealer_decks_and_plays() -> None:
    match = played_match()
    record = match.to_record()
    assert list(record) == ["format", "players", "dealer", "decks", "plays"]
    assert record["format"] == "basra-record/1"
    assert record["players"] == 2
    assert record["dealer"] == 0
    assert len(record["decks"]) == 1 and len(record["decks"][0]) == 52
    assert sorted(record["decks"][0]) == sorted(c.code for c in Card.deck())
    assert len(record["plays"]) == 30
    json.dumps(record)


def test_a_record_names_only_the_rules_that_differ_from_the_defaults() -> None:
    assert "rules" not in Match.new(2, seed=1).to_record()
    record = Match.new(2, Rules(target=100, optional_capture=True), seed=1).to_record()
    assert record["rules"] == {"target": 100, "optional_capture": True}
    assert Match.from_record(record).rules == Rules(target=100, optional_capture=True)


def test_a_play_is_the_card_with_slash_n_when_the_plan_is_not_plan_1() -> None:
    match = new_match([QUIET, "6C 2D 9D 5D"], "AH 2H 3S 4D")
    match.play(1, "6C", 2)
    match.play(0, "KC")
    match.play(1, "9D")
    assert match.to_record()["plays"] == ["6C/2", "KC", "9D"]
    again = Match.from_record(match.to_record())
    assert again.floor == match.floor
    assert codes(again.floor) == ["AH", "3S", "KC", "9D"]


def test_plan_1_may_be_written_out() -> None:
    match = new_match([QUIET, "6C 2D 9D 5D"], "AH 2H 3S 4D")
    record = match.to_record()
    record["plays"] = ["6C/1"]
    assert codes(Match.from_record(record).floor) == ["4D"]


def test_the_record_of_each_round_holds_its_deck() -> None:
    match = Match.new(2, seed=8)
    play_round(match)
    play_round(match)
    record = match.to_record()
    assert len(record["decks"]) == 3
    assert len(record["plays"]) == 96


def same_state(a: Match, b: Match) -> None:
    assert a.to_record() == b.to_record()
    assert (a.scores, a.winner, a.round_no, a.carry, a.to_move) == (b.scores, b.winner, b.round_no,
                                                                     b.carry, b.to_move)
    assert a.floor == b.floor and a.stock_count == b.stock_count and a.piles == b.piles
    for seat in range(a.players):
        assert a.hand(seat) == b.hand(seat)
        assert a.view(seat) == b.view(seat)
    assert a.rounds == b.rounds


@pytest.mark.parametrize("players", [2, 4])
def test_a_replayed_record_equals_the_live_match(players: int) -> None:
    match = played_match(seed=3, plays=70, players=players)
    same_state(Match.from_record(match.to_record()), match)
    finished = Match.new(players, seed=3)
    play_match(finished)
    same_state(Match.from_record(json.loads(json.dumps(finished.to_record()))), finished)


def test_a_record_without_rules_plays_by_the_defaults() -> None:
    record = Match.new(2, seed=1).to_record()
    assert Match.from_record(record).rules == Rules()


@pytest.mark.parametrize(
    ("change", "words"),
    [
        ({"format": "basra-record/2"}, ["format"]),
        ({"format": None}, ["format"]),
        ({"players": 3}, ["players"]),
        ({"decks": []}, ["decks"]),
        ({"plays": "5H"}, ["plays"]),
        ({"rules": {"target": 0}}, ["target"]),
        ({"rules": {"jokers": True}}, ["jokers"]),
        ({"dealer": 7}, ["dealer"]),
    ],
)
def test_a_broken_record_is_refused_with_a_clear_message(change: dict[str, Any], words: list[str]) -> None:
    record = Match.new(2, seed=1).to_record() | change
    with pytest.raises(RecordError) as info:
        Match.from_record(record)
    assert all(word in str(info.value) for word in words)
    assert isinstance(info.value, BasraError)


def test_a_bad_play_is_refused_naming_the_play_and_its_number() -> None:
    match = played_match(plays=5)
    record = match.to_record()
    record["plays"][3] = "ZZ"
    with pytest.raises(RecordError, match=r"play 4 'ZZ'"):
        Match.from_record(record)
    record["plays"][3] = "7Q"
    with pytest.raises(RecordError, match=r"play 4"):
        Match.from_record(record)


def test_an_illegal_play_in_a_record_is_refused_naming_the_play() -> None:
    match = played_match(plays=5)
    record = match.to_record()
    seat = match.to_move
    assert seat is not None
    foreign = match.hand(1 - seat)[0]
    record["plays"].append(foreign.code)
    with pytest.raises(RecordError, match=rf"play 6 '{foreign.code}'.*not in hand"):
        Match.from_record(record)


# -- python -m core replay ---------------------------------------------------


def run_replay(
    tmp_path: Path, content: str | None, name: str = "match.json"
) -> subprocess.CompletedProcess[str]:
    path = tmp_path / name
    if content is not None:
        path.write_text(content, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "core", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_replay_prints_the_state_of_the_match_as_json(tmp_path: Path) -> None:
    match = Match.new(2, seed=5)
    play_round(match)
    for _ in range(3):
        assert match.to_move is not None
        match.play(match.to_move, match.hand(match.to_move)[0])
    result = run_replay(tmp_path, json.dumps(match.to_record()))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert list(out) == ["scores", "winner", "round_no", "carry", "to_move", "floor", "rounds"]
    assert out["scores"] == list(match.scores)
    assert out["winner"] is None
    assert out["round_no"] == 2
    assert out["carry"] == match.carry
    assert out["to_move"] == match.to_move
    assert out["floor"] == codes(match.floor)
    (summary,) = out["rounds"]
    assert list(summary) == ["cards", "basras", "points"]
    first = match.rounds[0]
    assert summary == {"cards": list(first.cards), "basras": list(first.basras), "points": list(first.points)}


def test_replay_of_a_finished_match_names_the_winner(tmp_path: Path) -> None:
    match = Match.new(4, seed=5)
    play_match(match)
    result = run_replay(tmp_path, json.dumps(match.to_record()))
    assert result.returncode == 0, result.stderr
    out = json.loads(result.stdout)
    assert out["winner"] == match.winner
    assert out["to_move"] is None
    assert out["scores"] == list(match.scores)
    assert len(out["rounds"]) == len(match.rounds)


def broken(tmp_path: Path, content: str | None) -> str:
    result = run_replay(tmp_path, content)
    assert result.returncode == 2
    assert result.stdout == ""
    assert "Traceback" not in result.stderr
    assert result.stderr.strip()
    return result.stderr


def record_text(**change: Any) -> str:
    match = Match.new(2, seed=1)
    for _ in range(4):
        assert match.to_move is not None
        match.play(match.to_move, match.hand(match.to_move)[0])
    return json.dumps(match.to_record() | change)


def test_replay_of_a_bad_card_names_the_play(tmp_path: Path) -> None:
    record = json.loads(record_text())
    record["plays"][2] = "1X"
    message = broken(tmp_path, json.dumps(record))
    assert "play 3" in message and "1X" in message


def test_replay_of_an_illegal_play_names_the_play(tmp_path: Path) -> None:
    record = json.loads(record_text())
    match = Match.from_record(record)
    seat = match.to_move
    assert seat is not None
    other = match.hand(1 - seat)[0].code
    record["plays"].append(other)
    message = broken(tmp_path, json.dumps(record))
    assert "play 5" in message and other in message


def test_replay_of_a_play_with_no_such_plan_names_the_play(tmp_path: Path) -> None:
    record = json.loads(record_text())
    record["plays"][0] += "/9"
    message = broken(tmp_path, json.dumps(record))
    assert "play 1" in message and "/9" in message


def test_replay_of_a_bad_plan_number_names_the_play(tmp_path: Path) -> None:
    record = json.loads(record_text())
    record["plays"][1] += "/x"
    message = broken(tmp_path, json.dumps(record))
    assert "play 2" in message


def test_replay_of_a_wrong_format_says_so(tmp_path: Path) -> None:
    message = broken(tmp_path, record_text(format="pgn"))
    assert "format" in message


def test_replay_of_a_bad_deck_card_says_so(tmp_path: Path) -> None:
    record = json.loads(record_text())
    record["decks"][0][5] = "XX"
    message = broken(tmp_path, json.dumps(record))
    assert "deck 1" in message and "XX" in message


def test_replay_of_a_text_that_is_not_json_says_so(tmp_path: Path) -> None:
    message = broken(tmp_path, "{not json")
    assert "JSON" in message


def test_replay_of_json_that_is_not_a_record_says_so(tmp_path: Path) -> None:
    broken(tmp_path, "[1, 2, 3]")
    broken(tmp_path, '"basra"')


def test_replay_of_a_missing_file_says_so(tmp_path: Path) -> None:
    message = broken(tmp_path, None)
    assert "match.json" in message


def test_replay_of_plays_after_the_match_is_over_names_the_play(tmp_path: Path) -> None:
    match = Match.new(2, seed=5)
    play_match(match)
    record = match.to_record()
    record["plays"].append("AC")
    message = broken(tmp_path, json.dumps(record))
    assert f"play {len(record['plays'])}" in message and "over" in message


def test_replay_of_a_deck_that_is_not_a_list_says_so(tmp_path: Path) -> None:
    message = broken(tmp_path, record_text(decks=[5]))
    assert "deck 1" in message


def test_replay_of_a_player_count_that_is_not_a_whole_number_says_so(tmp_path: Path) -> None:
    message = broken(tmp_path, record_text(players=2.0))
    assert "players" in message


def test_replay_of_a_play_with_an_empty_plan_number_names_the_play(tmp_path: Path) -> None:
    record = json.loads(record_text())
    record["plays"][0] += "/"
    message = broken(tmp_path, json.dumps(record))
    assert "play 1" in message


def test_replay_reads_standard_input_for_a_dash() -> None:
    match = Match.new(2, seed=9)
    result = subprocess.run(
        [sys.executable, "-m", "core", "replay", "-"],
        cwd=ROOT,
        input=json.dumps(match.to_record()),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["floor"] == codes(match.floor)


def test_a_play_in_a_round_the_record_has_no_deck_for_is_refused() -> None:
    match = Match.new(2, seed=9)
    play_round(match)
    assert match.to_move is not None
    match.play(match.to_move, match.hand(match.to_move)[0])
    record = match.to_record()
    record["decks"] = record["decks"][:1]
    with pytest.raises(RecordError, match=rf"play {len(record['plays'])}.*round 2"):
        Match.from_record(record)
