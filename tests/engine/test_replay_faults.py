"""``python -m core replay FILE`` on anything at all: a record replays, and
every other file is one line of at most 200 characters on standard error,
no traceback, status 2.

Most runs call ``core.__main__.main`` in this process; a few run the command
for real, for what only a process shows (``/dev/zero``, standard input, the
recursion limit of a fresh interpreter).
"""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import Card, Match
from core.__main__ import MAX_MESSAGE, MAX_RECORD_BYTES, main

ROOT = Path(__file__).resolve().parents[2]


def played(seed: int = 2, plays: int = 10) -> Match:
    match = Match.new(2, seed=seed)
    for _ in range(plays):
        assert match.to_move is not None
        match.play(match.to_move, match.hand(match.to_move)[0])
    return match


RECORD = played().to_record()


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("replay")


def replay(path: Path | str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["replay", str(path)])
    return status, out.getvalue(), err.getvalue()


def replay_bytes(folder: Path, data: bytes) -> tuple[int, str, str]:
    path = folder / "record.json"
    path.write_bytes(data)
    return replay(path)


def refused(status: int, out: str, err: str) -> str:
    """The one line a failure prints."""
    assert status == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    line = err[:-1]
    assert 0 < len(line) <= MAX_MESSAGE, line
    assert line.startswith("error: ") and "Traceback" not in line
    assert "failed:" not in line, line  # the catch-all for the engine's own faults
    return line


def replayed_or_refused(result: tuple[int, str, str]) -> None:
    status, out, err = result
    if status == 0:
        assert err == ""
        assert set(json.loads(out)) == {"scores", "winner", "round_no", "carry", "to_move", "floor", "rounds"}
    else:
        refused(status, out, err)


# -- each fault by name --------------------------------------------------------


def test_a_record_replays_as_before(folder: Path) -> None:
    status, out, err = replay_bytes(folder, json.dumps(RECORD).encode())
    assert (status, err) == (0, "")
    assert json.loads(out)["floor"] == [c.code for c in Match.from_record(RECORD).floor]


def test_bytes_that_are_not_utf8(folder: Path) -> None:
    line = refused(*replay_bytes(folder, b'{"format": "\xff"}'))
    assert line.endswith("record.json is not UTF-8 text (byte 0xff at offset 12)")


def test_a_file_over_the_limit_is_refused_unread(folder: Path) -> None:
    assert MAX_RECORD_BYTES == 1 << 20
    line = refused(*replay_bytes(folder, b" " * MAX_RECORD_BYTES + b"{}"))
    assert line.endswith("record.json is over 1,048,576 bytes (1 MiB), too big for a record")
    # Exactly the limit is read (and here, not a record).
    text = json.dumps(RECORD)
    refused(*replay_bytes(folder, (text + " " * (MAX_RECORD_BYTES - len(text) - 2) + "[]").encode()))
    status, _, _ = replay_bytes(folder, (text + " " * (MAX_RECORD_BYTES - len(text))).encode())
    assert status == 0


def test_json_nested_deeper_than_python_reads(folder: Path) -> None:
    line = refused(*replay_bytes(folder, b"[" * 100_000))
    assert line.endswith("record.json is JSON nested too deeply to be a record")
    line = refused(*replay_bytes(folder, b'{"format": ' + b"[" * 5_000 + b"]" * 5_000 + b"}"))
    assert "nested too deeply" in line


def test_a_record_holding_values_nested_as_deep_as_json_reads(folder: Path) -> None:
    deep = json.loads("[" * 200 + "]" * 200)
    for key in ("format", "players", "dealer", "rules", "decks", "plays", "seed"):
        refused(*replay_bytes(folder, json.dumps({**RECORD, key: deep}).encode()))
        refused(*replay_bytes(folder, json.dumps({**RECORD, key: [deep] * 52}).encode()))
    line = refused(*replay_bytes(folder, json.dumps({**RECORD, "plays": [deep]}).encode()))
    assert line == "error: play 1: [[[…]]] is not a play"


def test_a_number_longer_than_python_reads(folder: Path) -> None:
    line = refused(*replay_bytes(folder, b'{"players": ' + b"9" * 5_000 + b"}"))
    assert line.endswith("record.json holds a number of more than 4,300 digits")
    # Up to the limit it is read, and refused by the record's checks.
    line = refused(*replay_bytes(folder, json.dumps({**RECORD, "dealer": 10**4000}).encode()))
    assert line == "error: dealer must be a seat from 0 to 1, not <a 13288-bit number>"


def test_a_huge_plan_number(folder: Path) -> None:
    plays = [f"{RECORD['plays'][0]}/{'9' * 100_000}"]
    line = refused(*replay_bytes(folder, json.dumps({**RECORD, "plays": plays}).encode()))
    assert line.startswith(f"error: play 1 '{RECORD['plays'][0]}/999")
    assert line.endswith("': no such plan (100,000 digits)")
    # Leading zeros aside, a plan number is read as usual.
    match = Match.new(2, decks=RECORD["decks"])
    assert match.to_move is not None
    card = next(c for c in match.hand(match.to_move) if match.plans(c))
    plays = [f"{card.code}/{'0' * 50}1"]
    status, _, _ = replay_bytes(folder, json.dumps({**RECORD, "plays": plays}).encode())
    assert status == 0


def test_text_that_is_not_json(folder: Path) -> None:
    line = refused(*replay_bytes(folder, b"{not json"))
    assert line.endswith("record.json is not JSON: Expecting property name enclosed in double quotes: "
                         "line 1 column 2 (char 1)")


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "pgn"}, "error: unknown record format 'pgn' (expected 'basra-record/1')"),
        ({"players": 3}, "error: 'players' must be 2 or 4, not 3"),
        ({"decks": [5]}, "error: deck 1: must be a list of 52 cards, not 5"),
        ({"plays": ["ZZ"]}, "error: play 1 'ZZ': illegal play 'ZZ': not a card"),
        ({"seed": [1]}, "error: seed must be a string or a number of up to 100 digits, not [1]"),
        ({"rules": {"target": 0}},
         "error: bad rules: target must be a whole number from 1 to 1,000,000, not 0"),
    ],
)
def test_a_record_the_rules_refuse(folder: Path, change: dict[str, Any], message: str) -> None:
    assert refused(*replay_bytes(folder, json.dumps({**RECORD, **change}).encode())) == message


def test_values_of_megabytes_are_cut_in_the_message(folder: Path) -> None:
    big = "x" * 900_000
    for change in ({"format": big}, {"plays": [big]}, {"rules": {big: 1}}, {"decks": [[big]]}):
        refused(*replay_bytes(folder, json.dumps({**RECORD, **change}).encode()))


def test_a_file_that_cannot_be_read(folder: Path) -> None:
    assert refused(*replay(folder / "missing.json")).endswith("missing.json: No such file or directory")
    assert refused(*replay(folder)).endswith(": Is a directory")
    refused(*replay("bad\0name"))
    refused(*replay(str(folder / ("x" * 5000))))


def test_a_long_file_name_is_cut_to_its_end(folder: Path) -> None:
    deep = folder / ("d" * 200)
    deep.mkdir(exist_ok=True)
    line = refused(*replay(deep / "match.json"))
    assert "match.json" in line and "…" in line


def test_standard_input_has_the_same_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"[" * (MAX_RECORD_BYTES + 5))))
    line = refused(*replay("-"))
    assert line == "error: standard input is over 1,048,576 bytes (1 MiB), too big for a record"
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(json.dumps(RECORD).encode())))
    assert replay("-")[0] == 0
    monkeypatch.setattr(sys, "stdin", io.StringIO("\udcff"))  # a text stream with no bytes under it
    assert "not UTF-8" in refused(*replay("-"))


def test_usage_errors_are_one_line_too(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in ([], ["replay"], ["replay", "a", "b"], ["play"]):
        with pytest.raises(SystemExit) as done:
            main(argv)
        assert done.value.code == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and len(err) <= MAX_MESSAGE + 1 and "error:" in err


# -- random files ----------------------------------------------------------------


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=64) | st.text(max_size=40).map(str.encode))
def test_any_bytes_replay_or_are_one_line(folder: Path, data: bytes) -> None:
    replayed_or_refused(replay_bytes(folder, data))


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8)
    | st.sampled_from([c.code for c in Card.deck()] + ["basra-record/1", "5S/1", "5S/" + "9" * 5000]),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from([*RECORD, "rules", "seed", "target"]) | st.text(max_size=5), inner, max_size=5
    ),
    max_leaves=20,
)


@settings(max_examples=80, deadline=None)
@given(json_values)
def test_any_json_replays_or_is_one_line(folder: Path, value: object) -> None:
    replayed_or_refused(replay_bytes(folder, json.dumps(value).encode()))


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_a_record_with_a_field_changed_replays_or_is_one_line(folder: Path, data: st.DataObject) -> None:
    record: dict[str, Any] = json.loads(json.dumps(RECORD))
    key = data.draw(st.sampled_from([*RECORD, "rules", "seed"]))
    where = data.draw(st.sampled_from(["whole", "item"]))
    if where == "item" and isinstance(record.get(key), list) and record[key]:
        items = record[key]
        items[data.draw(st.integers(0, len(items) - 1))] = data.draw(json_values)
    else:
        record[key] = data.draw(json_values)
    text = json.dumps(record)
    if data.draw(st.booleans()):  # cut short, or with bytes that are not UTF-8 somewhere
        cut = data.draw(st.integers(0, len(text)))
        raw = text.encode()[:cut] + data.draw(st.sampled_from([b"", b"\xff", b"\xc3", b"]"]))
    else:
        raw = text.encode()
    replayed_or_refused(replay_bytes(folder, raw))


# -- the command itself ------------------------------------------------------------


def run(args: list[str], stdin: Any = None, input: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "core", "replay", *args],
        cwd=ROOT, stdin=stdin, input=input, capture_output=True, timeout=60,
    )


def one_line(result: subprocess.CompletedProcess[bytes]) -> str:
    assert result.returncode == 2
    assert result.stdout == b""
    err = result.stderr.decode()
    assert err.count("\n") == 1 and "Traceback" not in err, err
    assert len(err) - 1 <= MAX_MESSAGE
    return err.strip()


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_the_command_on_dev_zero_reads_a_mebibyte_and_stops() -> None:
    assert one_line(run(["/dev/zero"])) == (
        "error: /dev/zero is over 1,048,576 bytes (1 MiB), too big for a record"
    )
    with open("/dev/zero", "rb") as zeros:
        assert one_line(run(["-"], stdin=zeros)) == (
            "error: standard input is over 1,048,576 bytes (1 MiB), too big for a record"
        )


def test_the_command_on_deep_nesting_and_a_huge_number(folder: Path) -> None:
    (folder / "deep.json").write_bytes(b"[" * 500_000)
    line = one_line(run([str(folder / "deep.json")]))
    assert line.endswith("deep.json is JSON nested too deeply to be a record")
    assert one_line(run(["-"], input=b"9" * 10_000)) == (
        "error: standard input holds a number of more than 4,300 digits"
    )
