"""A database file that cannot be used is one clear StorageError naming it, and every entry
point says it in one line with exit status 2 (``basra play`` here; the bots share the path)."""

from __future__ import annotations

import os
import shutil
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


async def test_an_empty_path_is_named_as_such() -> None:
    with pytest.raises(StorageError, match="the database path is empty"):
        await SqliteStore("", exclusive=True).open()


async def test_a_schema_from_a_newer_program_is_refused(tmp_path: Path) -> None:
    path = await newer(tmp_path)
    with pytest.raises(StorageError, match="newer than this program") as raised:
        await SqliteStore(path, exclusive=True).open()
    assert str(path) in str(raised.value)


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


# -- read-only files, folders and filesystems ------------------------------------------

#: Root writes through file modes; without these capabilities it meets them as anyone does.
AS_ANYONE = ["setpriv", "--bounding-set", "-dac_override,-dac_read_search", "--"] if os.geteuid() == 0 else []


async def a_database(folder: Path) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / "basra.sqlite3"
    async with SqliteStore(path):
        pass
    return path


def basra_play(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*AS_ANYONE, sys.executable, "-m", "bots.terminal", "play", "--database", str(path)],
        input="q\n", capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )


def one_line(done: subprocess.CompletedProcess[str], path: Path, cause: str) -> None:
    assert done.returncode == 2, done.stderr
    # (an engine run from changed sources warns first)
    lines = [line for line in done.stderr.splitlines() if line.startswith("basra")]
    assert lines == [f"basra: cannot use {str(path)!r}: {cause}"], done.stderr


async def test_a_read_only_file_or_folder_is_one_line(tmp_path: Path) -> None:
    if os.geteuid() == 0 and shutil.which("setpriv") is None:
        pytest.skip("running as root without setpriv: file modes do not stop root")
    file = await a_database(tmp_path / "file")
    file.chmod(0o444)
    inside = await a_database(tmp_path / "folder")
    inside.parent.chmod(0o555)
    try:
        one_line(basra_play(file), file, "the file is read-only")
        one_line(basra_play(inside), inside, "its folder is read-only")
        new = inside.with_name("new.sqlite3")
        one_line(basra_play(new), new, "its folder is read-only")
    finally:
        inside.parent.chmod(0o755)
    assert file.read_bytes()[:16] == b"SQLite format 3\x00"  # and nothing was changed


async def test_a_read_only_filesystem_is_one_line(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("mounting a small filesystem needs root")
    mount = tmp_path / "ro"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", str(mount)], check=False).returncode:
        pytest.skip("this machine does not allow mounting a tmpfs")
    try:
        path = await a_database(mount)
        subprocess.run(["mount", "-o", "remount,ro", str(mount)], check=True)
        for database in (path, mount / "new.sqlite3"):
            done = subprocess.run(
                [sys.executable, "-m", "bots.terminal", "play", "--database", str(database)],
                input="q\n", capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
            )
            cause = "the file is read-only" if database == path else "its folder is read-only"
            one_line(done, database, cause)
            with pytest.raises(StorageError, match=cause):
                await SqliteStore(database, exclusive=True).open()
    finally:
        subprocess.run(["umount", str(mount)], check=False)
