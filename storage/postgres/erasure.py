"""Erasing a person and letting old finished matches go, in PostgreSQL (``storage.erasure``)."""

from __future__ import annotations

from typing import Final

from ..erasure import CLOSED, CLOSED_STATUSES, anonymous_header, anonymous_seats
from .connection import Connected
from .sql import Connection

# Their tables' rows are locked as read, so that no action of another process writes a
# seat back between the read and the rewrite.
_THEIR_TABLES: Final = (
    "SELECT table_id, chat_id, status, created_by, seats::text AS seats, header::text AS header"
    " FROM tables WHERE created_by = $1 OR chat_id = $1"
    " OR EXISTS (SELECT 1 FROM json_array_elements(seats) s WHERE s->>'player_id' = $1)"
    " OR EXISTS (SELECT 1 FROM json_array_elements_text(CASE json_typeof(header->'expected')"
    " WHEN 'array' THEN header->'expected' END) e WHERE e = $1)"
    " ORDER BY table_id FOR UPDATE"
)
_REWRITE: Final = (
    "UPDATE tables SET chat_id = $2, created_by = $3, seats = $4::json, header = $5::json,"
    " revision = revision + 1 WHERE table_id = $1"
)

# After the tables: the rest of what names them, in an order the foreign keys accept.
_FORGET: Final = (
    "UPDATE result_seats SET player_id = NULL WHERE player_id = $1",
    "DELETE FROM rating_history WHERE player_id = $1",
    "DELETE FROM chat_settings WHERE chat_id = $1",
    # Delivery's references to messages in their private chat ("hand:tg:42", "note:tg:42").
    "DELETE FROM message_refs WHERE substr(key, strpos(key, ':') + 1) = $1",
)

# Their place in the pairing pool: whether they had one counts as something of theirs stored.
_FORGET_POOL: Final = (
    "DELETE FROM pool_entries WHERE player_id = $1",
    "DELETE FROM pool_pairs WHERE player_a = $1 OR player_b = $1",
    "DELETE FROM pool_blocks WHERE player_id = $1 OR other_id = $1",
    "DELETE FROM pool_abandons WHERE player_id = $1",
    "DELETE FROM pool_invites WHERE inviter = $1 OR used_by = $1",
)

_OLD_CLOSED: Final = (
    f"SELECT table_id FROM tables WHERE {CLOSED} AND updated_at < $1 ORDER BY table_id FOR UPDATE"
)
_PRUNE: Final = (
    "DELETE FROM rating_history WHERE table_id = ANY($1::text[])",
    "DELETE FROM result_seats WHERE table_id = ANY($1::text[])",
    "DELETE FROM results WHERE table_id = ANY($1::text[])",
    "DELETE FROM message_refs WHERE table_id = ANY($1::text[])",
    "DELETE FROM events WHERE table_id = ANY($1::text[])",
    "DELETE FROM tables WHERE table_id = ANY($1::text[])",
)


class PostgresErasure(Connected):
    """``forget_player`` and ``prune_finished`` of ``PostgresStore``."""

    async def forget_player(self, player_id: str, placeholder: str) -> bool:
        async def work(conn: Connection) -> bool:
            tables = await conn.fetch(_THEIR_TABLES, player_id)
            for row in tables:
                closed = row["status"] in CLOSED_STATUSES
                await conn.execute(
                    _REWRITE,
                    row["table_id"],
                    placeholder if closed and row["chat_id"] == player_id else row["chat_id"],
                    placeholder if row["created_by"] == player_id else row["created_by"],
                    anonymous_seats(row["seats"], player_id, placeholder),
                    anonymous_header(row["header"], player_id, placeholder),
                )
            await conn.execute("UPDATE results SET chat_id = $2 WHERE chat_id = $1", player_id, placeholder)
            await conn.execute(
                "UPDATE pool_entries SET partner = $2 WHERE partner = $1", player_id, placeholder
            )
            for statement in _FORGET:
                await conn.execute(statement, player_id)
            found = bool(tables)
            for statement in (*_FORGET_POOL, "DELETE FROM players WHERE player_id = $1"):
                found = await conn.execute(statement, player_id) != "DELETE 0" or found
            return found

        return await self._write(work)

    async def prune_finished(self, before: float) -> int:
        async def work(conn: Connection) -> int:
            ids = [str(row["table_id"]) for row in await conn.fetch(_OLD_CLOSED, before)]
            if ids:
                for statement in _PRUNE:
                    await conn.execute(statement, ids)
            return len(ids)

        return await self._write(work)
