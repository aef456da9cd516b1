"""A table that cannot be read is set aside: closed once, noted with why, and its rows kept
as stored for an operator to export, on either backend."""

from __future__ import annotations

import json
from collections.abc import Callable

from storage import TableRecord, open_store
from tests.storage.test_storage_tables import damage_seats

NewTable = Callable[..., TableRecord]


async def test_a_damaged_table_is_closed_once_and_listed_with_why(
    database: str, new_table: NewTable
) -> None:
    async with open_store(database) as store:
        lobby = await store.create_table(new_table(chat_id="tg:-1"))
        match = await store.create_table(new_table(chat_id="tg:-2", status="running", deadline=1e9))
        await store.append_events(match.table_id, 0, [{"kind": "dealt", "cards": ["7S"]}])
        untouched = await store.create_table(new_table(chat_id="tg:-3"))
    await damage_seats(database, lobby.table_id)
    async with open_store(database) as store:
        assert await store.set_aside(lobby.table_id, "ValidationError: seats") is True
        assert await store.set_aside(match.table_id, "JSONDecodeError: event 1") is True
        # A second process finding it too closes nothing more: its chat is told once.
        assert await store.set_aside(match.table_id, "again") is False
        listed = await store.set_aside_tables()
        assert [(t.table_id, t.chat_id, t.status, t.reason) for t in listed] == [
            (match.table_id, "tg:-2", "expired", "JSONDecodeError: event 1"),
            (lobby.table_id, "tg:-1", "cancelled", "ValidationError: seats"),
        ]
        assert listed[0].at > listed[1].at
        # Closed: neither is an open table of its chat any more; the others are untouched.
        assert await store.open_table_for_chat("tg:-2") is None
        assert [t.table_id for t in await store.open_tables()] == [untouched.table_id]


async def test_the_stored_rows_are_given_as_text_even_when_damaged(
    database: str, new_table: NewTable
) -> None:
    async with open_store(database) as store:
        table = await store.create_table(new_table(chat_id="tg:-5", status="running"))
        await store.append_events(table.table_id, 0, [{"kind": "dealt", "cards": ["7S"]}])
        assert await store.stored_rows("nope") is None
    await damage_seats(database, table.table_id)
    async with open_store(database) as store:
        rows = await store.stored_rows(table.table_id)
    assert rows is not None
    assert rows["table"]["table_id"] == table.table_id and rows["table"]["chat_id"] == "tg:-5"
    assert json.loads(rows["table"]["seats"]) == [{"broken": True}]
    [event] = rows["events"]
    assert event["version"] == 1 and json.loads(event["data"]) == {"kind": "dealt", "cards": ["7S"]}
    json.dumps(rows)  # all of it can be written out as JSON
