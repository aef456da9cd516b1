"""The pairing pool in PostgreSQL (``Coordination.enter_pool`` ...), shared by every process
on the database: a seating locks the entries of the people it seats, in the order of their
ids (so two seatings of overlapping people queue, and never wait for each other), before it
checks that they are all still waiting.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from .. import pool
from ..models import PoolEntry, PoolState
from .connection import Connected
from .sql import Connection

_ENTER: Final = "INSERT INTO pool_entries ({}) VALUES ({}) {}".format(
    ", ".join(pool.COLUMNS), ", ".join(f"${n}" for n in range(1, len(pool.COLUMNS) + 1)),
    "ON CONFLICT (player_id) DO NOTHING RETURNING *",
)
_ENTRY: Final = "SELECT * FROM pool_entries WHERE player_id = $1"
_ENTRIES: Final = (
    "SELECT * FROM pool_entries WHERE platform = ANY($1::text[]) AND ($2::text IS NULL OR state = $2)"
    " AND ($3::double precision IS NULL OR joined_at >= $3) ORDER BY joined_at, player_id"
)
# $1 the person, $2 the state expected, $3... the columns written.
_UPDATE: Final = "UPDATE pool_entries SET {} WHERE player_id = $1 AND state = $2".format(
    ", ".join(f"{c} = ${n}" for n, c in enumerate(pool.WRITTEN, start=3))
)
_LEAVE: Final = (
    "DELETE FROM pool_entries WHERE player_id = $1 AND ($2::text IS NULL OR state = $2) RETURNING *"
)

_LOCK_SEATED: Final = (
    "SELECT state FROM pool_entries WHERE player_id = ANY($1::text[]) ORDER BY player_id FOR UPDATE"
)
_SEAT: Final = "UPDATE pool_entries SET state = 'seated', table_id = $2 WHERE player_id = ANY($1::text[])"
# Old pairs another seating is forgetting at this moment are left to it: pairs have no key,
# and a seating only adds pairs, so it waits for no other seating's rows.
_FORGET_PAIRS: Final = (
    "DELETE FROM pool_pairs WHERE ctid = ANY(ARRAY("
    "SELECT ctid FROM pool_pairs WHERE at < $1 FOR UPDATE SKIP LOCKED))"
)
_PAIR: Final = (
    "INSERT INTO pool_pairs (player_a, player_b, at)"
    " SELECT a, b, $3 FROM unnest($1::text[], $2::text[]) AS p(a, b)"
)
_PAIRS_SINCE: Final = (
    "SELECT DISTINCT player_a, player_b FROM pool_pairs"
    " WHERE player_a = ANY($1::text[]) AND player_b = ANY($1::text[]) AND at >= $2"
)

_BLOCK: Final = (
    "INSERT INTO pool_blocks (player_id, other_id, at) VALUES ($1, $2, $3)"
    " ON CONFLICT (player_id, other_id) DO NOTHING"
)
_BLOCKED: Final = (
    "SELECT player_id, other_id FROM pool_blocks"
    " WHERE player_id = ANY($1::text[]) AND other_id = ANY($1::text[])"
)

# As with pairs: old marks another noting is forgetting at this moment are left to it.
_FORGET_ABANDONS: Final = (
    "DELETE FROM pool_abandons WHERE ctid = ANY(ARRAY("
    "SELECT ctid FROM pool_abandons WHERE at < $1 FOR UPDATE SKIP LOCKED))"
)
_ABANDON: Final = (
    "INSERT INTO pool_abandons (player_id, table_id, at) VALUES ($1, $2, $3)"
    " ON CONFLICT (player_id, table_id) DO NOTHING"
)
_ABANDONS: Final = (
    "SELECT player_id, count(*) FROM pool_abandons"
    " WHERE player_id = ANY($1::text[]) AND at >= $2 GROUP BY player_id"
)


class PostgresPool(Connected):
    """The pairing pool's part of ``PostgresStore``."""

    async def enter_pool(self, entry: PoolEntry) -> tuple[PoolEntry, bool]:
        values = pool.entry_values(entry)

        async def work(conn: Connection) -> tuple[PoolEntry, bool]:
            # Another process entering the person at once makes the insert wait for it, and
            # find the entry; one that lets the entry go meanwhile makes room again.
            while True:
                added = await conn.fetchrow(_ENTER, *(values[c] for c in pool.COLUMNS))
                if added is not None:
                    return pool.entry_from_row(added), True
                stored = await conn.fetchrow(_ENTRY, entry.player_id)
                if stored is not None:
                    return pool.entry_from_row(stored), False

        return await self._write(work)

    async def pool_entry(self, player_id: str) -> PoolEntry | None:
        async def work(conn: Connection) -> PoolEntry | None:
            row = await conn.fetchrow(_ENTRY, player_id)
            return None if row is None else pool.entry_from_row(row)

        return await self._read(work)

    async def pool_entries(
        self, platforms: Sequence[str], state: PoolState | None = None, *, joined_since: float | None = None
    ) -> list[PoolEntry]:
        async def work(conn: Connection) -> list[PoolEntry]:
            rows = await conn.fetch(_ENTRIES, list(platforms), state, joined_since)
            return [pool.entry_from_row(row) for row in rows]

        return await self._read(work)

    async def update_pool_entry(self, entry: PoolEntry, expect: PoolState) -> bool:
        values = pool.entry_values(entry)

        async def work(conn: Connection) -> bool:
            status = await conn.execute(_UPDATE, entry.player_id, expect, *(values[c] for c in pool.WRITTEN))
            return status != "UPDATE 0"

        return await self._read(work)  # one statement: its own transaction

    async def leave_pool(self, player_id: str, state: PoolState | None = "waiting") -> PoolEntry | None:
        async def work(conn: Connection) -> PoolEntry | None:
            row = await conn.fetchrow(_LEAVE, player_id, state)
            return None if row is None else pool.entry_from_row(row)

        return await self._read(work)  # one statement: its own transaction

    async def seat_pool(self, player_ids: Sequence[str], table_id: str, at: float) -> bool:
        ids = pool.seated(player_ids)
        pairs = pool.pairs_of(ids)

        async def work(conn: Connection) -> bool:
            locked = await conn.fetch(_LOCK_SEATED, ids)
            if len(locked) != len(ids) or any(row["state"] != "waiting" for row in locked):
                return False
            await conn.execute(_SEAT, ids, table_id)
            await conn.execute(_FORGET_PAIRS, at - pool.PAIRS_KEPT)
            if pairs:
                await conn.execute(_PAIR, [a for a, _ in pairs], [b for _, b in pairs], at)
            return True

        return await self._write(work)

    async def pool_pairs_since(self, player_ids: Sequence[str], since: float) -> set[frozenset[str]]:
        async def work(conn: Connection) -> set[frozenset[str]]:
            return pool.pairs_from_rows(await conn.fetch(_PAIRS_SINCE, list(player_ids), since))

        return await self._read(work)

    async def block_player(self, player_id: str, other_id: str, at: float) -> None:
        pool.check_block(player_id, other_id)

        async def work(conn: Connection) -> None:
            await conn.execute(_BLOCK, player_id, other_id, at)

        await self._read(work)  # one statement: its own transaction

    async def blocked_pairs(self, player_ids: Sequence[str]) -> set[frozenset[str]]:
        async def work(conn: Connection) -> set[frozenset[str]]:
            return pool.pairs_from_rows(await conn.fetch(_BLOCKED, list(player_ids)))

        return await self._read(work)

    async def note_abandon(self, player_id: str, table_id: str, at: float) -> None:
        async def work(conn: Connection) -> None:
            await conn.execute(_FORGET_ABANDONS, at - pool.ABANDONS_KEPT)
            await conn.execute(_ABANDON, player_id, table_id, at)

        await self._write(work)

    async def abandons(self, player_ids: Sequence[str], since: float) -> dict[str, int]:
        async def work(conn: Connection) -> dict[str, int]:
            return pool.counts_from_rows(await conn.fetch(_ABANDONS, list(player_ids), since))

        return await self._read(work)
