"""Writes queued together share one commit, and a refused one is undone alone."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from storage import SqliteStore, TableRecord, VersionConflict

NewTable = Callable[..., TableRecord]


async def test_concurrent_appends_commit_together_and_a_stale_one_fails_alone(
    db_path: Path, new_table: NewTable
) -> None:
    async with SqliteStore(db_path) as store:
        tables = [await store.create_table(new_table(chat_id=f"tg:-{n}")) for n in range(20)]
        appends = [store.append_events(t.table_id, 0, [{"kind": "x", "n": 1}]) for t in tables]
        stale = store.append_events(tables[3].table_id, 0, [{"kind": "x", "n": 2}])
        results = await asyncio.gather(*appends, stale, return_exceptions=True)
    assert isinstance(results[-1], VersionConflict)
    assert all(isinstance(r, TableRecord) and r.version == 1 for r in results[:-1])
    async with SqliteStore(db_path) as store:
        for table in tables:
            events = await store.load_events(table.table_id)
            assert [(e.version, e.data["n"]) for e in events] == [(1, 1)]


async def test_a_failed_write_in_a_group_leaves_the_others_whole(db_path: Path, new_table: NewTable) -> None:
    async with SqliteStore(db_path) as store:
        first = await store.create_table(new_table(chat_id="tg:-1"))
        writes = [
            store.append_events(first.table_id, 0, [{"kind": "a"}, {"kind": "b"}]),
            store.create_table(new_table(chat_id="tg:-1")),  # a second open table in one chat
            store.create_table(new_table(chat_id="tg:-2")),
        ]
        done = await asyncio.gather(*writes, return_exceptions=True)
        assert isinstance(done[0], TableRecord) and done[0].version == 2
        assert isinstance(done[1], Exception)
        assert isinstance(done[2], TableRecord)
        with pytest.raises(VersionConflict):
            await store.append_events(first.table_id, 1, [{"kind": "c"}])
        assert len(await store.load_events(first.table_id)) == 2


async def test_a_closed_store_leaves_no_thread_of_its_own_behind(db_path: Path, new_table: NewTable) -> None:
    async with SqliteStore(db_path) as store:
        table = await store.create_table(new_table())
        await store.append_events(table.table_id, 0, [{"kind": "x"}])
        assert any(t.name.startswith("basra-sqlite-writer") for t in threading.enumerate())
    assert not any(t.name.startswith("basra-sqlite-writer") for t in threading.enumerate())
    async with SqliteStore(db_path) as store:  # and opened again, it writes again
        assert (await store.append_events(table.table_id, 1, [{"kind": "y"}])).version == 2


async def test_a_read_waits_for_work_left_running_in_the_writers_thread_by_a_cancelled_caller(
    db_path: Path, new_table: NewTable
) -> None:
    async with SqliteStore(db_path) as store:
        table = await store.create_table(new_table())
        running, finish = threading.Event(), threading.Event()

        def hold(db: sqlite3.Connection) -> None:
            running.set()
            finish.wait(10)

        async def holder() -> None:
            async with store._lock:
                await store._writer.in_thread(hold)

        task = asyncio.create_task(holder())
        assert await asyncio.to_thread(running.wait, 10)
        task.cancel()
        read = asyncio.create_task(store.get_table(table.table_id))
        await asyncio.sleep(0.1)
        assert not read.done()  # the connection is still in use in the writer's thread
        finish.set()
        assert await read == table
        assert task.cancelled()
