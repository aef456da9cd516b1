"""Tables set aside because their rows could not be read, in SQLite (``Store.set_aside``)."""

from __future__ import annotations

from typing import Any, Final

import aiosqlite

from .. import setaside
from ..models import SetAsideTable
from .connection import Connected

_CLOSE: Final = setaside.close("?")
_NOTE: Final = setaside.note("?", "?", "?")


class SqliteSetAside(Connected):
    """``set_aside``, ``set_aside_tables`` and ``stored_rows`` of ``SqliteStore``."""

    async def set_aside(self, table_id: str, reason: str) -> bool:
        async def work(conn: aiosqlite.Connection) -> bool:
            closed = (await conn.execute(_CLOSE, (table_id,))).rowcount > 0
            if closed:
                await conn.execute(_NOTE, (table_id, reason, self._clock()))
            return closed

        return await self._write(work)

    async def set_aside_tables(self) -> list[SetAsideTable]:
        async def work(conn: aiosqlite.Connection) -> list[SetAsideTable]:
            return setaside.listed(await conn.execute_fetchall(setaside.LIST))

        return await self._read(work)

    async def stored_rows(self, table_id: str) -> dict[str, Any] | None:
        async def work(conn: aiosqlite.Connection) -> dict[str, Any] | None:
            cursor = await conn.execute("SELECT * FROM tables WHERE table_id = ?", (table_id,))
            row = await cursor.fetchone()
            if row is None:
                return None
            table = dict(zip([c[0] for c in cursor.description], row, strict=True))
            cursor = await conn.execute(
                "SELECT version, kind, data, at FROM events WHERE table_id = ? ORDER BY version", (table_id,)
            )
            names = [c[0] for c in cursor.description]
            events = [dict(zip(names, r, strict=True)) for r in await cursor.fetchall()]
            return {"table": table, "events": events}

        return await self._read(work)
