"""Leading a bot: one process of all those on a database acts for it at a time."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from storage import open_store

PATIENCE = 5.0


async def test_a_lead_is_held_by_one_store_and_taken_over_when_let_go(database: str) -> None:
    async with open_store(database) as first, open_store(database) as second:
        same, another = second.leadership("tg:1"), second.leadership("tg:2")
        async with first.leadership("tg:1") as lead:
            assert not lead.waited and not lead.lost.is_set()
            waiting = asyncio.create_task(same.__aenter__())
            assert not (await asyncio.wait_for(another.__aenter__(), PATIENCE)).waited  # another bot's
            await asyncio.sleep(0.3)
            assert not waiting.done()  # the first still leads tg:1
        taken = await asyncio.wait_for(waiting, PATIENCE)
        assert taken.key == "tg:1" and not taken.lost.is_set()
        await same.__aexit__(None, None, None)
        await another.__aexit__(None, None, None)


async def test_a_lead_whose_connection_is_cut_is_lost_and_taken_over(postgres_schema: str) -> None:
    async with open_store(postgres_schema) as first, open_store(postgres_schema) as second:
        leading = first.leadership("tg:1")
        lead = await leading.__aenter__()
        same = second.leadership("tg:1")
        waiting = asyncio.create_task(same.__aenter__())
        await asyncio.sleep(0.3)
        assert not waiting.done()
        conn = await asyncpg.connect(postgres_schema)
        try:  # the server ends the leading session, as it does when its process dies
            ended = await conn.fetchval(
                "WITH k AS (SELECT hashtextextended('basra lead ' || current_schema() || ' tg:1', 0) AS k)"
                " SELECT count(pg_terminate_backend(pid)) FROM pg_locks, k WHERE locktype = 'advisory'"
                " AND granted AND classid = ((k >> 32) & 4294967295)::oid AND objid = (k & 4294967295)::oid"
            )
            assert ended == 1
        finally:
            await conn.close()
        await asyncio.wait_for(lead.lost.wait(), PATIENCE)
        taken = await asyncio.wait_for(waiting, PATIENCE)
        assert taken.waited and not taken.lost.is_set()
        await leading.__aexit__(None, None, None)
        await same.__aexit__(None, None, None)


@pytest.mark.sqlite_only
async def test_one_process_on_a_file_leads_at_once(db_path: str) -> None:
    async with open_store(db_path) as store, store.leadership("tg:1") as lead:
        assert not lead.waited and not lead.lost.is_set()
