"""One process per database file: an exclusive store refuses a second holder, and the lock
goes with its process however that process ends."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from storage import DatabaseInUse, SqliteStore, StorageError

HOLD = """
import asyncio, sys
from storage import SqliteStore
async def main():
    async with SqliteStore(sys.argv[1], exclusive=True):
        print("holding", flush=True)
        await asyncio.sleep(60)
asyncio.run(main())
"""


async def test_a_second_exclusive_store_on_the_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "basra.sqlite3"
    async with SqliteStore(path, exclusive=True):
        second = SqliteStore(path, exclusive=True)
        held_by_me = rf"in use by another Basra process \(pid {os.getpid()}\)"
        with pytest.raises(DatabaseInUse, match=held_by_me) as refused:
            await second.open()
        assert "several processes on one database" in str(refused.value)
        assert "PostgreSQL" in str(refused.value) and "\n" not in str(refused.value)
        async with SqliteStore(path):  # a reader that does not ask for the file is let in
            pass
    async with SqliteStore(path, exclusive=True):  # free again once closed
        pass


async def test_the_lock_goes_with_a_killed_process(tmp_path: Path) -> None:
    path = tmp_path / "basra.sqlite3"
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdout=subprocess.PIPE, text=True,
                              cwd=Path(__file__).resolve().parents[2])
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "holding"
        with pytest.raises(DatabaseInUse, match=rf"pid {holder.pid}"):
            await SqliteStore(path, exclusive=True).open()
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait()
    async with SqliteStore(path, exclusive=True):
        pass


async def test_a_lock_that_cannot_be_made_is_a_storage_error(tmp_path: Path) -> None:
    with pytest.raises(StorageError, match="cannot open"):
        await SqliteStore(tmp_path / "missing" / "basra.sqlite3", exclusive=True).open()
