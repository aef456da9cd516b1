"""Coordination where one process is all there is (``storage.Coordination``): claims are rows
of the file, locks, rate windows, marks and leads live in the process (``storage.keyed``),
and message references are rows of their own.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Final

import aiosqlite

from .. import clocks, codec
from ..lead import Lead
from .connection import _OPEN, Connected

# A table is free to claim unless another holder's lease on it is still running.
_CLAIMABLE: Final = "(claim_until IS NULL OR claim_until < ? OR claim_holder = ?)"

_TAKE: Final = "UPDATE tables SET claim_holder = ?, claim_until = ? WHERE table_id = ?"

_SELECT_REFS: Final = "SELECT key, value FROM message_refs WHERE table_id = ?"

_KEEP_REF: Final = (
    "INSERT INTO message_refs (table_id, key, value, updated_at) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (table_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at"
)

_FORGET_REF: Final = "DELETE FROM message_refs WHERE table_id = ? AND key = ?"

# Expired uses go first, so a key still in the table is one used and not yet expired.
_FORGET_USED: Final = "DELETE FROM used_once WHERE until < ?"

_USE_ONCE: Final = (
    "INSERT INTO used_once (key, until) VALUES (?, ?) ON CONFLICT (key) DO NOTHING RETURNING key"
)


class SqliteCoordination(Connected):
    """The ``Coordination`` half of ``SqliteStore``."""

    async def claim_due(
        self, owners: Sequence[str], now: float, holder: str, lease: float, limit: int = 100
    ) -> list[str]:
        if not owners or limit < 1:
            return []
        params: dict[str, Any] = {f"o{n}": owner for n, owner in enumerate(owners)}
        params.update(now=now, holder=holder, limit=limit)
        due = clocks.due_query(
            [f":o{n}" for n in range(len(owners))], None, ":now", ":limit",
            claimable="(claim_until IS NULL OR claim_until < :now OR claim_holder = :holder)",
        )

        def work(db: sqlite3.Connection) -> list[str]:
            ids = [str(row[0]) for row in db.execute(due, params).fetchall()]
            db.executemany(_TAKE, [(holder, now + lease, table_id) for table_id in ids])
            return ids

        return await self._write_sync(work)

    async def claim(self, table_id: str, now: float, holder: str, lease: float) -> bool:
        sql = (
            f"UPDATE tables SET claim_holder = ?, claim_until = ? WHERE table_id = ? AND {_OPEN}"
            f" AND {_CLAIMABLE} RETURNING table_id"
        )

        def work(db: sqlite3.Connection) -> bool:
            return db.execute(sql, (holder, now + lease, table_id, now, holder)).fetchone() is not None

        return await self._write_sync(work)

    def hold(self, key: str) -> AbstractAsyncContextManager[None]:
        return self._held.hold(key)

    def leadership(self, key: str) -> AbstractAsyncContextManager[Lead]:
        return self._leading.hold(key)

    async def take_window(self, key: str, calls: int, period: float, now: float) -> float:
        return self._windows.take(key, calls, period, now)

    async def use_once(self, key: str, until: float, now: float) -> bool:
        def work(db: sqlite3.Connection) -> bool:
            db.execute(_FORGET_USED, (now,))
            return db.execute(_USE_ONCE, (key, until)).fetchone() is not None

        return await self._write_sync(work)

    async def advance_mark(self, key: str, stamp: Sequence[int]) -> bool:
        return self._marks.advance(key, tuple(stamp))

    def changes(
        self,
        on_change: Callable[[str | None], None],
        on_words: Callable[[str, str], None] | None = None,
    ) -> AbstractAsyncContextManager[None]:
        return contextlib.nullcontext()  # one process: it knows what it changed

    async def announce(self, table_id: str, words: str) -> None:
        _check_words(words)  # one process: nobody else to tell


    async def message_refs(self, table_id: str) -> dict[str, Any]:
        async def work(conn: aiosqlite.Connection) -> dict[str, Any]:
            async with conn.execute(_SELECT_REFS, (table_id,)) as cursor:
                return {str(row[0]): codec.loads(row[1]) for row in await cursor.fetchall()}

        return await self._read(work)

    async def keep_refs(self, table_id: str, refs: Mapping[str, Any]) -> None:
        now = self._clock()
        kept = [(table_id, key, codec.dumps(value), now) for key, value in refs.items() if value is not None]
        gone = [(table_id, key) for key, value in refs.items() if value is None]

        def work(db: sqlite3.Connection) -> None:
            if kept:
                db.executemany(_KEEP_REF, kept)
            if gone:
                db.executemany(_FORGET_REF, gone)

        await self._write_sync(work)

    async def forget_idle(self, idle: float) -> int:
        return 0  # kept in this process, and bounded there (``storage.keyed``)


def _check_words(words: str) -> None:
    if len(words) > 1000:
        raise ValueError(f"{len(words)} characters are too many to announce")
