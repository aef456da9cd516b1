"""The sizes what a bot process keeps stops at are settings (``BASRA_KEEP_*``,
``BASRA_SQLITE_CACHE_KB``): read from the environment, applied everywhere at once, and
held to by the dispatcher, the message references and SQLite's page cache."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from bots import memory
from bots.outbound import SENT, Dispatcher, Limit, Outcome, Write
from bots.outbound.refs import MessageRefs
from bots.settings import BasraSettings
from storage import schema

QUICK = Limit(1000, 0.01)


@pytest.fixture(autouse=True)
def default_caps() -> Iterator[None]:
    yield
    memory.configure(memory.Caps())


async def sent() -> Outcome:
    return SENT


def test_the_caps_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    assert BasraSettings(_env_file=None).caps() == memory.Caps()
    monkeypatch.setenv("BASRA_KEEP_TABLE_REFS", "16")
    monkeypatch.setenv("BASRA_KEEP_WRITE_STAMPS", "300")
    monkeypatch.setenv("BASRA_KEEP_MESSAGE_DIGESTS", "200")
    monkeypatch.setenv("BASRA_KEEP_RETIRED_HANDS", "100")
    monkeypatch.setenv("BASRA_SQLITE_CACHE_KB", "256")
    caps = BasraSettings(_env_file=None).caps()
    assert caps == memory.Caps(table_refs=16, write_stamps=300, message_digests=200,
                               retired_hands=100, sqlite_cache_kb=256)


async def test_the_dispatcher_remembers_the_states_of_the_last_messages_written_only() -> None:
    memory.configure(memory.Caps(write_stamps=3))
    dispatcher = Dispatcher(lambda chat: QUICK)
    for n in range(5):  # messages 0 to 4, each at state 7
        assert dispatcher.put(Write(key=("table", n), chat="group", run=sent, stamp=(7,)))
        assert await dispatcher.idle(5.0)
    # An older state of one of the last three written is refused; message 0's is forgotten.
    assert not dispatcher.put(Write(key=("table", 4), chat="group", run=sent, stamp=(6,)))
    assert dispatcher.put(Write(key=("table", 0), chat="group", run=sent, stamp=(6,)))
    assert await dispatcher.idle(5.0)
    assert dispatcher.counts["stale"] == 1


class Rows:
    def __init__(self) -> None:
        self.rows: dict[str, dict[str, object]] = {}

    async def message_refs(self, table_id: str) -> dict[str, object]:
        return dict(self.rows.get(table_id, {}))

    async def keep_refs(self, table_id: str, refs: object) -> None:
        assert isinstance(refs, dict)
        self.rows.setdefault(table_id, {}).update(refs)


async def test_the_references_of_as_many_tables_as_set_are_kept() -> None:
    memory.configure(memory.Caps(table_refs=4))
    refs = MessageRefs(Rows())
    for n in range(10):
        await refs.of(f"t{n}")
        refs.keep(f"t{n}", "table", [-100, n, 1])
        await asyncio.sleep(0)
    await refs.flush()
    await refs.of("t9")
    assert [n for n in range(10) if refs.known(f"t{n}") is not None] == [6, 7, 8, 9]


async def cache_size(path: Path) -> object:
    """``PRAGMA cache_size`` of a new connection to ``path``."""
    conn = await schema.connect(path, 5.0)
    try:
        async with conn.execute("PRAGMA cache_size") as cursor:
            row = await cursor.fetchone()
    finally:
        await conn.close()
    assert row is not None
    return row[0]


async def test_sqlites_page_cache_is_the_size_set(tmp_path: Path) -> None:
    memory.configure(memory.Caps(sqlite_cache_kb=256))
    assert await cache_size(tmp_path / "caps.sqlite3") == -256
    memory.configure(memory.Caps())
    assert await cache_size(tmp_path / "caps.sqlite3") == -2000
