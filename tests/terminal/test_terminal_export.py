"""``basra export``: the terminal's last finished match as a record file, through its streams."""

from __future__ import annotations

import asyncio
import io
import json
import os
from pathlib import Path

import pytest

from bots.service import chat_id
from bots.terminal import __main__ as terminal
from core import Match
from storage import SqliteStore
from tests.terminal.players import run


def export(tmp_path: Path, *argv: str) -> tuple[int, str, str]:
    args = terminal.parser().parse_args(["export", "--database", str(tmp_path / "basra.sqlite3"), *argv])
    out, err = io.StringIO(), io.StringIO()
    code = asyncio.run(terminal.export_record(args, out, err))
    return code, out.getvalue(), err.getvalue()


def final_scores(tmp_path: Path) -> list[int]:
    """The scores the finished match's result holds, as the table service stored them."""

    async def read() -> list[int]:
        async with SqliteStore(tmp_path / "basra.sqlite3") as store:
            table = await store.last_finished_table(chat_id("term", terminal._local_name()), "term")
            assert table is not None and table.result is not None
            return list(table.result["scores"])

    return asyncio.run(read())


def test_with_no_finished_match_it_says_how_to_play_one(tmp_path: Path) -> None:
    assert export(tmp_path, "--lang", "en") == (
        1, "", "No match has finished here yet, so there is no record to write. Play one with basra play.\n"
    )
    assert not (tmp_path / "basra.sqlite3").exists()  # asking created nothing
    run(tmp_path, ["--lang", "en"], script=["q"])  # a match is saved, not finished
    code, out, err = export(tmp_path, "--lang", "ar", "-o", "-")
    assert (code, out) == (1, "") and "basra play" in err and "لا" in err


def test_a_finished_match_is_written_to_standard_output(tmp_path: Path) -> None:
    run(tmp_path, ["--lang", "en"])
    code, out, err = export(tmp_path, "--output", "-")
    assert (code, err) == (0, "")
    record = json.loads(out)
    assert record["format"] == "basra-record/1"
    assert list(Match.from_record(record).scores) == final_scores(tmp_path)


def test_by_default_the_file_is_named_as_the_bots_name_it_and_said_where(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    run(tmp_path, ["--lang", "en"])
    folder = tmp_path / "here"
    folder.mkdir()
    monkeypatch.chdir(folder)
    code, out, err = export(tmp_path, "--lang", "en")
    (written,) = os.listdir(folder)
    assert (code, err) == (0, "") and written.startswith("basra-") and written.endswith(".json")
    assert out.startswith("The record of the match of ") and written in out
    assert f"python -m core replay {written} --plays" in out
    record = json.loads((folder / written).read_text(encoding="utf-8"))
    assert list(Match.from_record(record).scores) == final_scores(tmp_path)
    # A folder that cannot take it is said in one line.
    code, out, err = export(tmp_path, "--lang", "en", "-o", str(tmp_path / "missing" / "x.json"))
    assert (code, out) == (2, "") and err.startswith("The record could not be written to ")
    assert err.count("\n") == 1
