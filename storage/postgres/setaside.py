"""Tables set aside because their rows could not be read, in PostgreSQL (``Store.set_aside``)."""

from __future__ import annotations

from typing import Any, Final

from ..models import SetAsideTable
from .connection import Connected
from .sql import OPEN, Connection

_CLOSE: Final = (
    "UPDATE tables SET status = CASE status WHEN 'lobby' THEN 'cancelled' ELSE 'expired' END,"
    f" deadline = NULL WHERE table_id = $1 AND {OPEN}"
)
_NOTE: Final = (
    "INSERT INTO set_aside (table_id, reason, at) VALUES ($1, $2, $3) ON CONFLICT (table_id) DO NOTHING"
)
_LIST: Final = (
    "SELECT s.table_id, t.chat_id, t.status, s.reason, s.at FROM set_aside s"
    " JOIN tables t ON t.table_id = s.table_id ORDER BY s.at DESC, s.table_id"
)


class PostgresSetAside(Connected):
    """``set_aside``, ``set_aside_tables`` and ``stored_rows`` of ``PostgresStore``."""

    async def set_aside(self, table_id: str, reason: str) -> bool:
        async def work(conn: Connection) -> bool:
            closed = await conn.execute(_CLOSE, table_id) != "UPDATE 0"
            if closed:
                await conn.execute(_NOTE, table_id, reason, self._clock())
            return closed

        return await self._write(work)

    async def set_aside_tables(self) -> list[SetAsideTable]:
        async def work(conn: Connection) -> list[SetAsideTable]:
            rows = await conn.fetch(_LIST)
            return [SetAsideTable(str(r[0]), str(r[1]), str(r[2]), str(r[3]), float(r[4])) for r in rows]

        return await self._read(work)

    async def stored_rows(self, table_id: str) -> dict[str, Any] | None:
        async def work(conn: Connection) -> dict[str, Any] | None:
            # asyncpg gives json columns back as the text stored: a damaged one as it is.
            row = await conn.fetchrow("SELECT * FROM tables WHERE table_id = $1", table_id)
            if row is None:
                return None
            events = await conn.fetch(
                "SELECT version, kind, data, at FROM events WHERE table_id = $1 ORDER BY version", table_id
            )
            return {"table": dict(row), "events": [dict(e) for e in events]}

        return await self._read(work)
