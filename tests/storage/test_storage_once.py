"""Logins and links that are good once: a use is kept until it expires, across a restart of
the store and for every process on the database, and expired uses are forgotten."""

from __future__ import annotations

import asyncio
import sqlite3

import asyncpg

from storage import open_store

NOW = 1_700_000_000.0


async def _kept(database: str) -> list[str]:
    """The keys the database holds, read from outside the store."""
    if database.startswith("postgresql://"):
        conn = await asyncpg.connect(database)
        try:
            return sorted(str(row[0]) for row in await conn.fetch("SELECT key FROM used_once"))
        finally:
            await conn.close()
    with sqlite3.connect(database) as db:
        return sorted(str(row[0]) for row in db.execute("SELECT key FROM used_once"))


async def test_a_use_is_refused_until_it_expires_even_after_the_store_is_opened_again(database: str) -> None:
    async with open_store(database) as store:
        assert await store.use_once("tg:abc", NOW + 600, NOW)
        assert not await store.use_once("tg:abc", NOW + 600, NOW + 1)
        assert await store.use_once("d:nonce", NOW + 60, NOW)  # keys are apart
    async with open_store(database) as store:  # a restart
        assert not await store.use_once("d:nonce", NOW + 60, NOW + 60)  # good until its last second
        assert not await store.use_once("tg:abc", NOW + 600, NOW + 599)
        # Once expired, what was used is forgotten on the way.
        assert await store.use_once("d:other", NOW + 900, NOW + 61)
    assert await _kept(database) == ["d:other", "tg:abc"]
    async with open_store(database) as store:
        assert await store.use_once("tg:abc", NOW + 2000, NOW + 601)
    assert await _kept(database) == ["d:other", "tg:abc"]


async def test_two_stores_on_one_postgres_database_let_a_key_through_once(postgres_schema: str) -> None:
    async with open_store(postgres_schema) as first, open_store(postgres_schema) as second:
        for attempt in range(5):
            key = f"tg:{attempt}"
            taken = await asyncio.gather(first.use_once(key, NOW + 600, NOW),
                                         second.use_once(key, NOW + 600, NOW))
            assert sorted(taken) == [False, True]
        assert not await first.use_once("tg:0", NOW + 600, NOW + 10)
        assert not await second.use_once("tg:0", NOW + 600, NOW + 10)
        # Expired in one, it is good again in the other, before anyone pruned it.
        assert await second.use_once("tg:4", NOW + 1200, NOW + 601)
