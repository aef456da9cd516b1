"""Which match ``basra play`` plays: the saved one, saying so, or with ``--new`` a new one,
the saved one resigned through the table service first."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from bots.service import chat_id
from bots.terminal.__main__ import _local_name
from storage import SqliteStore, TableRecord
from tests.terminal.players import run


def open_record(tmp_path: Path) -> TableRecord | None:
    async def read() -> TableRecord | None:
        async with SqliteStore(tmp_path / "basra.sqlite3") as store:
            return await store.open_table_for_chat(chat_id("term", _local_name()))

    return asyncio.run(read())


def last_event(tmp_path: Path, table_id: str) -> str:
    async def read() -> str:
        async with SqliteStore(tmp_path / "basra.sqlite3") as store:
            return (await store.load_events(table_id))[-1].kind

    return asyncio.run(read())


def test_a_saved_match_is_said_to_go_on_with_how_to_start_afresh(tmp_path: Path) -> None:
    first = run(tmp_path, ["--lang", "en"], script=["q"])
    assert "saved match" not in first  # nothing was saved before
    again = run(tmp_path, ["--lang", "en"], script=["q"])
    assert re.search(r"Your saved match goes on: 2 players, level beginner, round 1, score 0–0\.", again)
    assert "To start a new match instead: basra play --new" in again
    assert "You asked for" not in again


def test_options_that_differ_from_the_saved_match_are_named(tmp_path: Path) -> None:
    run(tmp_path, ["--lang", "en"], script=["q"])
    saved = open_record(tmp_path)
    again = run(tmp_path, ["--lang", "en", "--players", "4", "--level", "expert"], script=["q"])
    assert "You asked for 4 players, level expert, but the saved match is 2 players, level beginner." in again
    assert "To start a new match instead: basra play --new --players 4 --level expert" in again
    assert "Team A" not in again  # the saved 1-v-1 match is what goes on
    now = open_record(tmp_path)
    assert saved is not None and now is not None and now.table_id == saved.table_id


def test_the_differences_are_said_in_arabic(tmp_path: Path) -> None:
    run(tmp_path, ["--lang", "ar"], script=["q"])
    again = run(tmp_path, ["--lang", "ar", "--players", "4"], script=["q"])
    assert "مباراتك المحفوظة مستمرة: لاعبان، مستوى مبتدئ، الجولة 1" in again
    assert "طلبت 4 لاعبين، مستوى مبتدئ، لكن المباراة المحفوظة لاعبان، مستوى مبتدئ." in again
    assert "basra play --new --players 4" in again


def test_new_resigns_the_saved_match_and_starts_another(tmp_path: Path) -> None:
    run(tmp_path, ["--lang", "en"], limit=6)  # three plays: the saved match is ahead of a new one
    saved = open_record(tmp_path)
    assert saved is not None
    fresh = run(tmp_path, ["--lang", "en", "--new", "--players", "4"], script=["q"])
    assert "Your saved match (2 players, level beginner, round 1, score 0–0) was resigned" in fresh
    assert "The match is over" not in fresh  # the old match's end is that one line
    assert "Team A" in fresh  # the new match is the one asked for
    now = open_record(tmp_path)
    assert now is not None and now.table_id != saved.table_id and len(now.seats) == 4

    async def old() -> TableRecord | None:
        async with SqliteStore(tmp_path / "basra.sqlite3") as store:
            return await store.get_table(saved.table_id)

    record = asyncio.run(old())
    assert record is not None and record.status == "finished"  # kept, and closed as resigned
    assert last_event(tmp_path, saved.table_id) == "resigned"
    goes_on = run(tmp_path, ["--lang", "en"], script=["q"])
    assert "Your saved match goes on: 4 players" in goes_on


def test_new_without_a_saved_match_just_starts_one(tmp_path: Path) -> None:
    screen = run(tmp_path, ["--lang", "en", "--new"], script=["q"])
    assert "saved match" not in screen
    assert "Your hand:" in screen
