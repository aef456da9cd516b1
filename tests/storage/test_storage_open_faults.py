"""A database file that cannot be used is one clear StorageError naming it, and every entry
point says it in one line with exit status 2 (``basra play`` here; the bots share the path)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from storage import SqliteStore, StorageError

ROOT = Path(__file__).resolve().parents[2]


def directory(tmp: Path) -> Path:
    (tmp / "dir.sqlite3").mkdir()
    return tmp / "dir.sqlite3"


def missing_folder(tmp: Path) -> Path:
    return tmp / "nope" / "basra.sqlite3"


def text_file(tmp: Path) -> Path:
    path = tmp / "text.sqlite3"
    path.write_text("not a database, only words " * 40)
    return path


def sqlite_file(tmp: Path) -> Path:
    path = tmp / "good.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("create table x(a)")
        conn.executemany("insert into x values (?)", [("a" * 1000,)] * 200)
    return path


def truncated(tmp: Path) -> Path:
    path = tmp / "truncated.sqlite3"
    path.write_bytes(sqlite_file(tmp).read_bytes()[:5000])
    return path


def corrupt(tmp: Path) -> Path:
    data = bytearray(sqlite_file(tmp).read_bytes())
    data[100:3100] = b"\xff" * 3000
    path = tmp / "corrupt.sqlite3"
    path.write_bytes(bytes(data))
    return path


async def newer(tmp: Path) -> Path:
    path = tmp / "newer.sqlite3"
    async with SqliteStore(path):
        pass
    with sqlite3.connect(path) as conn:
        conn.execute("pragma user_version = 99")
    return path


FAULTS: dict[str, tuple[Callable[[Path], Path], str]] = {
    "a directory": (directory, "is a directory"),
    "a missing folder": (missing_folder, "its folder does not exist"),
    "a text file": (text_file, "file is not a database"),
    "a truncated file": (truncated, "malformed"),
    "a corrupt file": (corrupt, "malformed"),
}


@pytest.mark.parametrize("fault", sorted(FAULTS))
async def test_an_unusable_file_is_one_storage_error_naming_it(fault: str, tmp_path: Path) -> None:
    make, cause = FAULTS[fault]
    path = make(tmp_path)
    with pytest.raises(StorageError, match=cause) as raised:
        await SqliteStore(path, exclusive=True).open()
    assert str(path) in str(raised.value)
    async with SqliteStore(tmp_path / "fine.sqlite3", exclusive=True):  # nothing is left held
        pass


async def test_a_schema_from_a_newer_program_is_refused(tmp_path: Path) -> None:
    path = await newer(tmp_path)
    with pytest.raises(StorageError, match="newer than this program"):
        await SqliteStore(path, exclusive=True).open()


@pytest.mark.parametrize("fault", ["a directory", "a corrupt file", "a missing folder"])
def test_basra_play_says_it_in_one_line(fault: str, tmp_path: Path) -> None:
    path = FAULTS[fault][0](tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "bots.terminal", "play", "--database", str(path)],
        input="q\n", capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("basra: ") and str(path) in lines[0], done.stderr
