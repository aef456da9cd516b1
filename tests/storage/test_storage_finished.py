"""A chat's last finished match: the one whose record a player asks for."""

from __future__ import annotations

from collections.abc import Callable

from storage import Store, TableRecord

NewTable = Callable[..., TableRecord]
BOT, OTHER_BOT = "tg:1", "tg:2"


async def played(store: Store, new_table: NewTable, status: str, **fields: object) -> TableRecord:
    """A table that started, took a play, and then has ``status``."""
    table = await store.create_table(new_table(owner=BOT, **fields))
    return await store.append_events(
        table.table_id, 0, [{"kind": "card_played"}], table=table.model_copy(update={"status": status})
    )


async def test_the_last_finished_match_is_the_chat_s_latest_started_one(
    store: Store, new_table: NewTable
) -> None:
    await played(store, new_table, "finished", created_at=100.0)
    latest = await played(store, new_table, "finished", created_at=200.0)
    await played(store, new_table, "finished", chat_id="tg:-999", created_at=300.0)
    found = await store.last_finished_table("tg:-100123", BOT)
    assert found is not None and found.table_id == latest.table_id


async def test_running_expired_cancelled_and_other_bots_matches_are_not_finished_ones(
    store: Store, new_table: NewTable
) -> None:
    assert await store.last_finished_table("tg:-100123", BOT) is None
    done = await played(store, new_table, "finished", created_at=100.0)
    await played(store, new_table, "expired", created_at=200.0)
    await store.create_table(new_table(owner=BOT, status="cancelled", created_at=300.0))
    await played(store, new_table, "running", created_at=400.0)
    theirs = await store.create_table(new_table(owner=OTHER_BOT, created_at=500.0))
    await store.append_events(
        theirs.table_id, 0, [{"kind": "card_played"}], table=theirs.model_copy(update={"status": "finished"})
    )
    found = await store.last_finished_table("tg:-100123", BOT)
    assert found is not None and found.table_id == done.table_id
    assert await store.last_finished_table("tg:-100123", "tg:3") is None
