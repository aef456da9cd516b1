"""The pairing pool in SQLite (``Coordination.enter_pool`` ...). One process writes the file,
one write at a time, so a step that reads before it writes (entering, seating) needs no lock
of its own: its transaction is all there is meanwhile.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import Final

import aiosqlite

from .. import codec, pool
from ..models import PoolEntry, PoolState
from .connection import Connected

_ENTER: Final = "INSERT INTO pool_entries ({}) VALUES ({}) {}".format(
    ", ".join(pool.COLUMNS), ", ".join(f":{c}" for c in pool.COLUMNS),
    "ON CONFLICT (player_id) DO NOTHING RETURNING *",
)
_ENTRY: Final = "SELECT * FROM pool_entries WHERE player_id = ?"
_UPDATE: Final = "UPDATE pool_entries SET {} WHERE player_id = :player_id AND state = :expect".format(
    ", ".join(f"{c} = :{c}" for c in pool.WRITTEN)
)
_LEAVE: Final = "DELETE FROM pool_entries WHERE player_id = ? RETURNING *"
_LEAVE_IN: Final = "DELETE FROM pool_entries WHERE player_id = ? AND state = ? RETURNING *"

# A list of ids is one parameter, a JSON array, however many people it names.
_IDS: Final = "(SELECT value FROM json_each(:ids))"

_WAITING: Final = f"SELECT count(*) FROM pool_entries WHERE player_id IN {_IDS} AND state = 'waiting'"
_SEAT: Final = f"UPDATE pool_entries SET state = 'seated', table_id = :table_id WHERE player_id IN {_IDS}"
_FORGET_PAIRS: Final = "DELETE FROM pool_pairs WHERE at < ?"
_PAIR: Final = "INSERT INTO pool_pairs (player_a, player_b, at) VALUES (?, ?, ?)"
_PAIRS_SINCE: Final = (
    f"SELECT DISTINCT player_a, player_b FROM pool_pairs WHERE player_a IN {_IDS} AND player_b IN {_IDS}"
    " AND at >= :since"
)

_BLOCK: Final = (
    "INSERT INTO pool_blocks (player_id, other_id, at) VALUES (?, ?, ?)"
    " ON CONFLICT (player_id, other_id) DO NOTHING"
)
_BLOCKED: Final = (
    f"SELECT player_id, other_id FROM pool_blocks WHERE player_id IN {_IDS} AND other_id IN {_IDS}"
)

_FORGET_ABANDONS: Final = "DELETE FROM pool_abandons WHERE at < ?"
_ABANDON: Final = (
    "INSERT INTO pool_abandons (player_id, table_id, at) VALUES (?, ?, ?)"
    " ON CONFLICT (player_id, table_id) DO NOTHING"
)
_ABANDONS: Final = (
    f"SELECT player_id, count(*) FROM pool_abandons WHERE player_id IN {_IDS} AND at >= :since"
    " GROUP BY player_id"
)


class SqlitePool(Connected):
    """The pairing pool's part of ``SqliteStore``."""

    async def enter_pool(self, entry: PoolEntry) -> tuple[PoolEntry, bool]:
        values = pool.entry_values(entry)

        def work(db: sqlite3.Connection) -> tuple[PoolEntry, bool]:
            added = db.execute(_ENTER, values).fetchone()
            if added is not None:
                return pool.entry_from_row(added), True
            return pool.entry_from_row(db.execute(_ENTRY, (entry.player_id,)).fetchone()), False

        return await self._write_sync(work)

    async def pool_entry(self, player_id: str) -> PoolEntry | None:
        async def work(conn: aiosqlite.Connection) -> PoolEntry | None:
            rows = await conn.execute_fetchall(_ENTRY, (player_id,))
            return next((pool.entry_from_row(row) for row in rows), None)

        return await self._read(work)

    async def pool_entries(
        self, platforms: Sequence[str], state: PoolState | None = None, *, joined_since: float | None = None
    ) -> list[PoolEntry]:
        where = f"platform IN {_IDS}" if state is None else f"state = :state AND platform IN {_IDS}"
        if joined_since is not None:
            where += " AND joined_at >= :since"
        sql = f"SELECT * FROM pool_entries WHERE {where} ORDER BY joined_at, player_id"
        params = {"ids": codec.dumps(list(platforms)), "state": state, "since": joined_since}

        async def work(conn: aiosqlite.Connection) -> list[PoolEntry]:
            return [pool.entry_from_row(row) for row in await conn.execute_fetchall(sql, params)]

        return await self._read(work)

    async def update_pool_entry(self, entry: PoolEntry, expect: PoolState) -> bool:
        values = pool.entry_values(entry)
        values["expect"] = expect

        def work(db: sqlite3.Connection) -> bool:
            return db.execute(_UPDATE, values).rowcount > 0

        return await self._write_sync(work)

    async def leave_pool(self, player_id: str, state: PoolState | None = "waiting") -> PoolEntry | None:
        sql, params = (_LEAVE, (player_id,)) if state is None else (_LEAVE_IN, (player_id, state))

        def work(db: sqlite3.Connection) -> PoolEntry | None:
            row = db.execute(sql, params).fetchone()
            return None if row is None else pool.entry_from_row(row)

        return await self._write_sync(work)

    async def seat_pool(self, player_ids: Sequence[str], table_id: str, at: float) -> bool:
        ids = pool.seated(player_ids)
        params = {"ids": codec.dumps(ids), "table_id": table_id}
        pairs = [(a, b, at) for a, b in pool.pairs_of(ids)]

        def work(db: sqlite3.Connection) -> bool:
            if db.execute(_WAITING, params).fetchone()[0] != len(ids):
                return False
            db.execute(_SEAT, params)
            db.execute(_FORGET_PAIRS, (at - pool.PAIRS_KEPT,))
            db.executemany(_PAIR, pairs)
            return True

        return await self._write_sync(work)

    async def pool_pairs_since(self, player_ids: Sequence[str], since: float) -> set[frozenset[str]]:
        params = {"ids": codec.dumps(list(player_ids)), "since": since}

        async def work(conn: aiosqlite.Connection) -> set[frozenset[str]]:
            return pool.pairs_from_rows(await conn.execute_fetchall(_PAIRS_SINCE, params))

        return await self._read(work)

    async def block_player(self, player_id: str, other_id: str, at: float) -> None:
        pool.check_block(player_id, other_id)

        def work(db: sqlite3.Connection) -> None:
            db.execute(_BLOCK, (player_id, other_id, at))

        await self._write_sync(work)

    async def blocked_pairs(self, player_ids: Sequence[str]) -> set[frozenset[str]]:
        params = {"ids": codec.dumps(list(player_ids))}

        async def work(conn: aiosqlite.Connection) -> set[frozenset[str]]:
            return pool.pairs_from_rows(await conn.execute_fetchall(_BLOCKED, params))

        return await self._read(work)

    async def note_abandon(self, player_id: str, table_id: str, at: float) -> None:
        def work(db: sqlite3.Connection) -> None:
            db.execute(_FORGET_ABANDONS, (at - pool.ABANDONS_KEPT,))
            db.execute(_ABANDON, (player_id, table_id, at))

        await self._write_sync(work)

    async def abandons(self, player_ids: Sequence[str], since: float) -> dict[str, int]:
        params = {"ids": codec.dumps(list(player_ids)), "since": since}

        async def work(conn: aiosqlite.Connection) -> dict[str, int]:
            return pool.counts_from_rows(await conn.execute_fetchall(_ABANDONS, params))

        return await self._read(work)
