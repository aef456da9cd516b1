"""``basra backup``: a copy of the database taken while a match is played on it, and its one line."""

from __future__ import annotations

import asyncio
import io
import random
import re
import sqlite3
from pathlib import Path

import pytest

from bots.service import ManualClock, TableService
from bots.terminal import __main__ as terminal
from storage import SqliteStore, StorageError
from tests.service.helpers import ALICE, BADR, GROUP, QUIET, FakePlatform, play_turn

COPIES = 4


def backup(database: Path, *argv: str) -> tuple[int, str, str]:
    args = terminal.parser().parse_args(["backup", *argv, "--database", str(database)])
    out, err = io.StringIO(), io.StringIO()
    code = terminal.backup_database(args, out, err)
    return code, out.getvalue(), err.getvalue()


async def test_a_copy_taken_during_a_match_opens_and_holds_every_acknowledged_play(tmp_path: Path) -> None:
    database = tmp_path / "basra.sqlite3"
    copies: list[tuple[Path, int]] = []
    platform, clock = FakePlatform(), ManualClock()
    async with (
        SqliteStore(database, exclusive=True) as store,  # as a bot holds it
        TableService(store, [platform], clock=clock, config=QUIET, rng=random.Random(5)) as service,
    ):
        lobby = await service.new_lobby(GROUP, ALICE)
        await service.join(lobby.table_id, BADR)
        table_id = (await service.start_match(lobby.table_id, ALICE)).table_id

        async def play() -> None:
            table = await service.table(table_id)
            assert table.running and table.to_move is not None
            mover = table.seats[table.to_move].player_id
            assert mover is not None
            await play_turn(service, table_id, mover)  # acknowledged once it returns

        for n in range(COPIES):
            await play()
            acknowledged = (await service.table(table_id)).version
            dest = tmp_path / f"copy-{n}.sqlite3"
            copying = asyncio.create_task(asyncio.to_thread(backup, database, str(dest), "--lang", "en"))
            while not copying.done():  # the match goes on meanwhile
                await play()
            code, out, err = await copying
            assert (code, err) == (0, ""), err
            assert out.startswith(f"Backed up {database} to {dest} (")
            copies.append((dest, acknowledged))
        live = await store.load_events(table_id)
    assert live[-1].version > copies[-1][1]  # plays were made while the copies were taken
    for dest, acknowledged in copies:
        async with SqliteStore(dest) as copy:
            table = await copy.get_table(table_id)
            events = await copy.load_events(table_id)
        # One committed state: the table row and its events agree, and nothing acknowledged is missing.
        assert table is not None and table.version == events[-1].version >= acknowledged
        assert events == live[: len(events)]


async def create(database: Path) -> None:
    async with SqliteStore(database):
        pass


def test_the_copy_is_refused_over_an_existing_file_unless_asked(tmp_path: Path) -> None:
    database = tmp_path / "basra.sqlite3"
    assert backup(database, str(tmp_path / "copy.sqlite3"), "--lang", "en") == (
        2, "", f"There is no database at {database}: give its path with --database or BASRA_DATABASE.\n",
    )
    assert not database.exists()  # asking created nothing
    asyncio.run(create(database))
    dest = tmp_path / "copy.sqlite3"
    dest.write_bytes(b"an older copy")
    code, out, err = backup(database, str(dest), "--lang", "en")
    assert (code, out) == (1, "") and dest.read_bytes() == b"an older copy"
    assert err == f"{dest} exists already: name another file, or add --overwrite to replace it.\n"
    code, out, err = backup(database, str(dest), "--overwrite", "--lang", "ar")
    assert (code, err) == (0, "") and out.count("\n") == 1 and re.search(r"[\u0600-\u06FF]", out)
    with sqlite3.connect(dest) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    conn.close()


def test_a_folder_gets_a_copy_named_for_its_time_readable_by_whom_the_file_is(tmp_path: Path) -> None:
    database = tmp_path / "basra.sqlite3"
    asyncio.run(create(database))
    database.chmod(0o640)
    folder = tmp_path / "backups"
    folder.mkdir()
    code, out, _ = backup(database, str(folder), "--lang", "en")
    [written] = list(folder.iterdir())
    assert code == 0 and re.fullmatch(r"basra-\d{8}-\d{6}\.sqlite3", written.name) and written.name in out
    assert written.stat().st_mode & 0o777 == 0o640
    # A folder named with a final / that is not there is not taken for a file name.
    with pytest.raises(StorageError, match="its folder does not exist"):
        backup(database, f"{tmp_path / 'missing'}/", "--lang", "en")
    assert not (tmp_path / "missing").exists()


def test_a_damaged_database_gives_no_copy_and_says_why(tmp_path: Path) -> None:
    database = tmp_path / "basra.sqlite3"
    with sqlite3.connect(database, isolation_level=None) as conn:
        conn.execute("CREATE TABLE t (x, y)")
        conn.execute("CREATE INDEX i ON t (x)")
        conn.executemany("INSERT INTO t VALUES (?, ?)", [(n, -n) for n in range(10)])
        conn.execute("PRAGMA writable_schema = ON")  # the index no longer matches its rows
        conn.execute("UPDATE sqlite_schema SET sql = 'CREATE INDEX i ON t (y)' WHERE name = 'i'")
    conn.close()
    code, out, err = backup(database, str(tmp_path / "copy.sqlite3"), "--lang", "en")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith(f"The copy of {database} fails SQLite's integrity check (row ")
    assert err.endswith("), so it was not kept: the database itself may be damaged.\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["basra.sqlite3"]


BIDI_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


@pytest.mark.parametrize(
    ("environ", "arabic"),
    [
        ({}, False),  # cron's environment: no locale at all
        ({"LANG": "C.UTF-8"}, False),
        ({"LANG": "de_DE.UTF-8"}, False),
        ({"LANG": "ar_EG.UTF-8"}, True),
        ({"LANG": "ar_EG.UTF-8", "LC_MESSAGES": "en_GB.UTF-8"}, False),
        ({"LANG": "en_US.UTF-8", "LC_ALL": "ar_SA.UTF-8"}, True),
    ],
)
def test_an_operator_is_answered_in_the_locales_language_with_the_paths_as_they_are(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, environ: dict[str, str], arabic: bool
) -> None:
    """Not the games' language (BASRA_LANGUAGE is Arabic by default): the operator's, and
    the paths byte for byte, without the isolates a chat needs around them."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG", "BASRA_LANGUAGE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    database = tmp_path / "basra.sqlite3"
    asyncio.run(create(database))
    dest = tmp_path / "copy.sqlite3"
    args = terminal.parser().parse_args(["backup", str(dest), "--database", str(database)])
    out, err = io.StringIO(), io.StringIO()
    assert terminal.backup_database(args, out, err) == 0 and err.getvalue() == ""
    line = out.getvalue()
    assert f" {database} " in line and f" {dest} " in line and not BIDI_CONTROLS.search(line)
    assert bool(re.search(r"[\u0600-\u06FF]", line)) == arabic
    if not arabic:
        assert line.startswith(f"Backed up {database} to {dest} (")


def test_the_language_asked_for_wins_over_the_locale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LC_ALL", "ar_EG.UTF-8")
    database = tmp_path / "basra.sqlite3"
    code, _, err = backup(database, str(tmp_path / "copy.sqlite3"), "--lang", "en")
    assert code == 2 and err.startswith(f"There is no database at {database}: ")
