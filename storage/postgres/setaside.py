"""Tables set aside because their rows could not be read, in PostgreSQL (``Store.set_aside``)."""

from __future__ import annotations

from typing import Any, Final

from .. import setaside
from ..models import SetAsideTable
from .connection import Connected
from .sql import Connection

_CLOSE: Final = setaside.close("$1")
_NOTE: Final = setaside.note("$1", "$2", "$3")


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
            return setaside.listed(await conn.fetch(setaside.LIST))

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
