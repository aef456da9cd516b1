"""Tables belong to the bot that opened them: each bot's chats have one open table each, a
bot's resume moves only its own clocks, and tables from before owners are adopted once."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from storage import OpenTableExists, SqliteStore, Store, TableRecord
from storage.schema import load_migrations

NewTable = Callable[..., TableRecord]
ONE, OTHER = "tg:111", "tg:222"


async def test_two_bots_each_keep_an_open_table_in_one_chat(store: Store, new_table: NewTable) -> None:
    mine = await store.create_table(new_table(owner=ONE))
    theirs = await store.create_table(new_table(owner=OTHER))
    assert await store.open_table_for_chat(mine.chat_id, ONE) == mine
    assert await store.open_table_for_chat(mine.chat_id, OTHER) == theirs
    with pytest.raises(OpenTableExists):
        await store.create_table(new_table(owner=ONE))


async def test_the_schema_itself_refuses_a_second_open_table_of_one_bot(
    store: Store, new_table: NewTable
) -> None:
    first = await store.create_table(new_table(owner=ONE))
    closed = await store.create_table(new_table(owner=ONE, status="finished"))
    with pytest.raises(OpenTableExists):
        await store.update_table(closed.model_copy(update={"status": "lobby"}))
    assert await store.open_table_for_chat(first.chat_id, ONE) == first


async def test_resume_moves_only_the_clocks_of_the_bots_starting(
    store: Store, new_table: NewTable
) -> None:
    mine = await store.create_table(new_table(owner=ONE, deadline=1000.0))
    theirs = await store.create_table(new_table(owner=OTHER, deadline=1000.0))
    await store.note_alive(ONE, 500.0)
    assert await store.resume(ONE, 530.0, 531.0, [ONE]) == 30.0
    assert (await store.get_table(mine.table_id)).deadline == 1030.0  # type: ignore[union-attr]
    assert (await store.get_table(theirs.table_id)).deadline == 1000.0  # type: ignore[union-attr]


async def test_tables_without_an_owner_are_adopted_by_the_first_bot_of_their_platform(
    store: Store, new_table: NewTable
) -> None:
    legacy = await store.create_table(new_table())
    done = await store.create_table(new_table(status="finished"))
    elsewhere = await store.create_table(new_table(chat_id="dc:5", created_by="dc:7"))
    assert legacy.owner == ""
    await store.resume(ONE, time.time(), time.time() + 1, [ONE])
    await store.resume(OTHER, time.time(), time.time() + 1, [OTHER])
    assert (await store.get_table(legacy.table_id)).owner == ONE  # type: ignore[union-attr]
    assert (await store.get_table(done.table_id)).owner == ONE  # type: ignore[union-attr]
    assert (await store.get_table(elsewhere.table_id)).owner == ""  # type: ignore[union-attr]
    assert await store.open_table_for_chat(legacy.chat_id, OTHER) is None


def _schema_3_file(path: Path) -> None:
    """A file as the program left it before tables had owners, with an open lobby in it."""
    conn = sqlite3.connect(path, isolation_level=None)
    for migration in load_migrations()[:3]:
        for statement in migration.statements:
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {migration.version}")
    conn.execute(
        "INSERT INTO tables (table_id, chat_id, platform, status, mode, created_by, created_at,"
        " updated_at, seats, deadline) VALUES ('t1', 'tg:-5', 'tg', 'lobby', '1v1', 'tg:42', 1, 1,"
        " '[{\"player_id\": \"tg:42\", \"name\": \"Amr\", \"team\": 0}]', 2000.0)"
    )
    conn.execute("INSERT INTO service_clock (name, alive_at) VALUES ('tg', 1500.0)")
    conn.close()


@pytest.mark.sqlite_only
async def test_an_older_file_is_upgraded_and_its_tables_and_clock_carry_over(db_path: Path) -> None:
    _schema_3_file(db_path)
    async with SqliteStore(db_path) as store:
        before = await store.get_table("t1")
        assert before is not None and before.owner == ""
        # The first start under owners finds the clock its platform's service left.
        assert await store.resume(ONE, 1600.0, 1601.0, [ONE]) == 100.0
        after = await store.get_table("t1")
        assert after is not None and (after.owner, after.deadline) == (ONE, 2100.0)
        assert await store.last_alive(ONE) == 1601.0
