"""``Store.changes``: every process on a shared database hears each new version or status
of a table that another process wrote, and not its own; a store of one process hears
nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import asyncpg
import pytest

from storage import Store, TableRecord, open_store


async def heard_within(heard: list[str | None], count: int, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if len(heard) >= count:
            return
        await asyncio.sleep(0.02)


async def test_a_new_version_or_status_is_heard_by_every_process(
    store: Store, database: str, new_table: Callable[..., TableRecord]
) -> None:
    table = await store.create_table(new_table())
    heard: list[str | None] = []
    own: list[str | None] = []
    async with (
        open_store(database, announce=True) as writer,
        open_store(database) as other,
        other.changes(heard.append),
        writer.changes(own.append),
    ):
        await store.append_events(table.table_id, 0, [{"kind": "play"}])  # not announced
        written = await writer.append_events(table.table_id, 1, [{"kind": "play"}])
        await writer.keep_refs(table.table_id, {"table": [1, 2]})  # delivery's rows: not the table
        warned = written.model_copy(update={"warned": True})
        written = await writer.update_table(warned)  # neither version nor status: not announced
        await writer.update_table(written.model_copy(update={"status": "finished"}))
        await heard_within(heard, 2)
        await asyncio.sleep(0.2)  # and nothing more comes
    if store.shared:
        assert heard == [table.table_id, table.table_id]
    else:
        assert heard == []  # one process knows what it changed itself
    assert own == []  # and so does the writer


async def test_another_schema_s_tables_are_not_heard(
    postgres_schema: str, another_postgres_schema: str, new_table: Callable[..., TableRecord]
) -> None:
    heard: list[str | None] = []
    async with (
        open_store(postgres_schema, announce=True) as store,
        open_store(another_postgres_schema) as elsewhere,
        elsewhere.changes(heard.append),
    ):
        table = await store.create_table(new_table())
        await store.append_events(table.table_id, 0, [{"kind": "play"}])
        await asyncio.sleep(0.3)
    assert heard == []


async def test_a_lost_listening_connection_is_opened_again_and_says_changes_went_unheard(
    postgres_schema: str, new_table: Callable[..., TableRecord]
) -> None:
    heard: list[str | None] = []
    async with (
        open_store(postgres_schema, announce=True) as store,
        open_store(postgres_schema) as listener,
        listener.changes(heard.append),
    ):
        table = await store.create_table(new_table())
        conn = await asyncpg.connect(postgres_schema)
        try:
            killed = await conn.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE query LIKE 'LISTEN %basra_tables%' AND pid <> pg_backend_pid()"
            )
        finally:
            await conn.close()
        assert killed >= 1
        await heard_within(heard, 1)
        assert heard == [None]  # listening again: what happened meanwhile went unheard
        await store.append_events(table.table_id, 0, [{"kind": "play"}])
        await heard_within(heard, 2)
    assert heard == [None, table.table_id]


async def test_a_stranger_match_is_heard_whatever_its_writer_announces_its_warning_too(
    store: Store, database: str, new_table: Callable[..., TableRecord]
) -> None:
    table = await store.create_table(new_table(chat_id="tg:pool-abc"))
    heard: list[str | None] = []
    async with (
        open_store(database) as writer,  # it asked for nothing to be announced
        open_store(database) as other,
        other.changes(heard.append),
    ):
        written = await writer.append_events(table.table_id, 0, [{"kind": "play"}])
        await writer.update_table(written.model_copy(update={"warned": True}))  # the clock's warning
        await heard_within(heard, 2)
        await asyncio.sleep(0.2)
    assert heard == ([table.table_id, table.table_id] if store.shared else [])


async def test_words_announced_are_heard_by_the_other_processes_listening_for_them(
    database: str,
) -> None:
    words: list[tuple[str, str]] = []
    changes: list[str | None] = []
    own: list[tuple[str, str]] = []
    async with (
        open_store(database) as speaker,
        open_store(database) as other,
        other.changes(changes.append, lambda table_id, said: words.append((table_id, said))),
        speaker.changes(lambda _: None, lambda table_id, said: own.append((table_id, said))),
    ):
        await speaker.announce("t1", "react 0 good_game")
        await speaker.announce("t2", "")
        for _ in range(250):
            if len(words) >= 2 or not speaker.shared:
                break
            await asyncio.sleep(0.02)
        with pytest.raises(ValueError):
            await speaker.announce("t1", "x" * 1001)
    if speaker.shared:
        assert words == [("t1", "react 0 good_game"), ("t2", "")]
    else:
        assert words == []  # one process: nobody else to tell
    assert changes == [] and own == []
