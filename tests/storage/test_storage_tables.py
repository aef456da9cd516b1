"""Lobbies and matches: one row each, one open per chat, no write from a stale copy."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from storage import (
    DamagedRow,
    NotFound,
    OpenTableExists,
    Seat,
    SqliteStore,
    Store,
    TableRecord,
    VersionConflict,
    open_store,
)

NewTable = Callable[..., TableRecord]


async def test_a_table_reads_back_whole_after_the_store_is_reopened(
    database: str, new_table: NewTable
) -> None:
    table = new_table(
        chat_id="dc:456",
        mode="2v2",
        created_by="dc:7",
        seats=(
            Seat(player_id="dc:7", name="سارة", team=0),
            Seat(computer="expert", team=1),
            Seat(player_id="dc:8", name="Omar ♠", team=0),
        ),
        rules={"target": 100, "seven_diamonds_basra": "count"},
        header={"players": ["dc:7", "expert", "dc:8"], "dealer": 2, "seed": 12345},
        deadline=1_700_000_120.5,
    )
    async with open_store(database) as store:
        created = await store.create_table(table)
    async with open_store(database) as store:
        loaded = await store.get_table(table.table_id)
    assert loaded == created
    assert loaded.platform == "dc"
    assert loaded.seats[1].computer == "expert"
    assert loaded.seats[0].name == "سارة"
    assert loaded.header == {"players": ["dc:7", "expert", "dc:8"], "dealer": 2, "seed": 12345}
    assert (loaded.version, loaded.revision, loaded.deadline) == (0, 0, 1_700_000_120.5)


async def test_a_missing_table_reads_as_none_and_cannot_be_updated(
    store: Store, new_table: NewTable
) -> None:
    assert await store.get_table("no-such-table") is None
    with pytest.raises(NotFound):
        await store.update_table(new_table())


async def test_a_chat_has_at_most_one_open_table(store: Store, new_table: NewTable) -> None:
    lobby = await store.create_table(new_table())
    with pytest.raises(OpenTableExists, match=lobby.table_id):
        await store.create_table(new_table(created_by="tg:43"))
    other_chat = await store.create_table(new_table(chat_id="tg:-100999"))

    assert await store.open_table_for_chat("tg:-100123") == lobby
    assert await store.open_table_for_chat("tg:-100999") == other_chat

    await store.update_table(lobby.model_copy(update={"status": "cancelled"}))
    assert await store.open_table_for_chat("tg:-100123") is None
    second = await store.create_table(new_table(created_by="tg:43"))
    assert await store.open_table_for_chat("tg:-100123") == second


async def test_a_closed_table_cannot_reopen_beside_an_open_one(
    store: Store, new_table: NewTable
) -> None:
    first = await store.create_table(new_table())
    first = await store.update_table(first.model_copy(update={"status": "expired"}))
    second = await store.create_table(new_table())
    with pytest.raises(OpenTableExists):
        await store.update_table(first.model_copy(update={"status": "lobby"}))
    assert (await store.get_table(first.table_id)).status == "expired"
    assert await store.open_table_for_chat(first.chat_id) == second


@pytest.mark.sqlite_only
async def test_the_database_itself_refuses_a_second_open_table(db_path: Path, new_table: NewTable) -> None:
    async with SqliteStore(db_path) as store:
        lobby = await store.create_table(new_table())
    with sqlite3.connect(db_path) as conn, pytest.raises(sqlite3.IntegrityError, match="chat_id"):
        conn.execute(
            "INSERT INTO tables (table_id, chat_id, platform, status, mode, created_by,"
            " created_at, updated_at) VALUES ('t2', ?, 'tg', 'running', '1v1', 'x', 0, 0)",
            (lobby.chat_id,),
        )


async def test_lobbies_opened_at_once_in_one_chat_leave_exactly_one(
    database: str, new_table: NewTable
) -> None:
    async with open_store(database) as one, open_store(database) as two:
        attempts = [(one if i % 2 else two).create_table(new_table(created_by=f"tg:{i}")) for i in range(20)]
        outcomes = await asyncio.gather(*attempts, return_exceptions=True)
        winners = [o for o in outcomes if isinstance(o, TableRecord)]
        assert len(winners) == 1
        assert all(isinstance(o, OpenTableExists) for o in outcomes if o is not winners[0])
        assert await one.open_tables() == winners


async def test_a_doubled_create_is_refused(store: Store, new_table: NewTable) -> None:
    table = new_table()
    created = await store.create_table(table)
    closed = await store.update_table(created.model_copy(update={"status": "finished"}))
    with pytest.raises(VersionConflict, match="already exists"):
        await store.create_table(table)
    assert await store.get_table(table.table_id) == closed


async def test_an_update_from_a_stale_copy_is_refused_and_changes_nothing(
    store: Store, new_table: NewTable
) -> None:
    lobby = await store.create_table(new_table())
    joined = await store.update_table(
        lobby.model_copy(update={"seats": (*lobby.seats, Seat(player_id="tg:43", name="Mona"))})
    )
    assert joined.revision == lobby.revision + 1
    with pytest.raises(VersionConflict, match="revision"):
        await store.update_table(lobby.model_copy(update={"warned": True}))
    assert await store.get_table(lobby.table_id) == joined
    assert [s.player_id for s in joined.seats] == ["tg:42", "tg:43"]


async def test_an_update_cannot_move_the_event_version(store: Store, new_table: NewTable) -> None:
    lobby = await store.create_table(new_table())
    updated = await store.update_table(lobby.model_copy(update={"version": 7, "warned": True}))
    assert (updated.version, updated.warned) == (0, True)


async def test_start_up_finds_every_lobby_and_running_match_and_only_those(
    store: Store, new_table: NewTable
) -> None:
    lobby = await store.create_table(new_table(chat_id="tg:1"))
    running = await store.create_table(new_table(chat_id="dc:2", status="running", deadline=1_700_000_500.0))
    for chat, status in (("tg:3", "finished"), ("tg:4", "cancelled"), ("tg:5", "expired")):
        await store.create_table(new_table(chat_id=chat, status=status))
    assert await store.open_tables() == [lobby, running]


async def test_a_damaged_row_is_named_with_its_chat_when_read(
    database: str, new_table: Callable[..., TableRecord]
) -> None:
    """A row whose seats no longer read is not a crash: the error names the table, its chat
    and its status, so the service can set it aside and tell the chat."""
    async with open_store(database) as store:
        table = await store.create_table(new_table(chat_id="tg:-7"))
    await damage_seats(database, table.table_id)
    async with open_store(database) as store:
        for read in (store.get_table(table.table_id), store.open_table_for_chat("tg:-7")):
            with pytest.raises(DamagedRow) as caught:
                await read
            assert (caught.value.table_id, caught.value.chat_id, caught.value.status) == (
                table.table_id, "tg:-7", "lobby"
            )


async def damage_seats(database: str, table_id: str) -> None:
    """Write seats that are not a list of seats, as a damaged file or a hand edit would."""
    broken = '[{"broken": true}]'
    if database.startswith("postgresql"):
        import asyncpg

        conn = await asyncpg.connect(database)
        try:
            await conn.execute("UPDATE tables SET seats = $1::json WHERE table_id = $2", broken, table_id)
        finally:
            await conn.close()
        return
    with sqlite3.connect(database) as conn:
        conn.execute("UPDATE tables SET seats = ? WHERE table_id = ?", (broken, table_id))
    conn.close()
