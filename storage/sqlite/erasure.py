"""Erasing a person and letting old finished matches go, in SQLite (``storage.erasure``)."""

from __future__ import annotations

from typing import Final

import aiosqlite

from ..erasure import CLOSED, CLOSED_STATUSES, anonymous_header, anonymous_seats
from .connection import Connected

_THEIR_TABLES: Final = (
    "SELECT table_id, chat_id, status, created_by, seats, header FROM tables"
    " WHERE created_by = :id OR chat_id = :id"
    " OR EXISTS (SELECT 1 FROM json_each(tables.seats) WHERE json_extract(value, '$.player_id') = :id)"
    " OR EXISTS (SELECT 1 FROM json_each(tables.header, '$.expected') WHERE value = :id)"
)

# After the tables: the rest of what names them, in an order the foreign keys accept.
_FORGET: Final = (
    "UPDATE results SET chat_id = :anon WHERE chat_id = :id",
    "UPDATE result_seats SET player_id = NULL WHERE player_id = :id",
    "DELETE FROM rating_history WHERE player_id = :id",
    "DELETE FROM chat_settings WHERE chat_id = :id",
    # Delivery's references to messages in their private chat ("hand:tg:42", "note:tg:42").
    "DELETE FROM message_refs WHERE substr(key, instr(key, ':') + 1) = :id",
    "UPDATE pool_entries SET partner = :anon WHERE partner = :id",
)

# Their place in the pairing pool: whether they had one counts as something of theirs stored.
_FORGET_POOL: Final = (
    "DELETE FROM pool_entries WHERE player_id = :id",
    "DELETE FROM pool_pairs WHERE player_a = :id OR player_b = :id",
    "DELETE FROM pool_blocks WHERE player_id = :id OR other_id = :id",
    "DELETE FROM pool_abandons WHERE player_id = :id",
    "DELETE FROM pool_invites WHERE inviter = :id OR used_by = :id",
)

_OLD_CLOSED: Final = f"SELECT table_id FROM tables WHERE {CLOSED} AND updated_at < :before"
_PRUNE: Final = (
    f"DELETE FROM rating_history WHERE table_id IN ({_OLD_CLOSED})",
    f"DELETE FROM result_seats WHERE table_id IN ({_OLD_CLOSED})",
    f"DELETE FROM results WHERE table_id IN ({_OLD_CLOSED})",
    f"DELETE FROM message_refs WHERE table_id IN ({_OLD_CLOSED})",
    f"DELETE FROM events WHERE table_id IN ({_OLD_CLOSED})",
)


class SqliteErasure(Connected):
    """``forget_player`` and ``prune_finished`` of ``SqliteStore``."""

    async def forget_player(self, player_id: str, placeholder: str) -> bool:
        async def work(conn: aiosqlite.Connection) -> bool:
            ids = {"id": player_id, "anon": placeholder}
            tables = list(await conn.execute_fetchall(_THEIR_TABLES, ids))
            for table_id, chat_id, status, created_by, seats, header in tables:
                closed = status in CLOSED_STATUSES
                await conn.execute(
                    "UPDATE tables SET chat_id = ?, created_by = ?, seats = ?, header = ?,"
                    " revision = revision + 1 WHERE table_id = ?",
                    (
                        placeholder if closed and chat_id == player_id else chat_id,
                        placeholder if created_by == player_id else created_by,
                        anonymous_seats(seats, player_id, placeholder),
                        anonymous_header(header, player_id, placeholder),
                        table_id,
                    ),
                )
            for statement in _FORGET:
                await conn.execute(statement, ids)
            found = bool(tables)
            for statement in (*_FORGET_POOL, "DELETE FROM players WHERE player_id = :id"):
                async with conn.execute(statement, ids) as cursor:
                    found = cursor.rowcount > 0 or found
            return found

        found: bool = await self._write(work)
        return found

    async def prune_finished(self, before: float) -> int:
        async def work(conn: aiosqlite.Connection) -> int:
            params = {"before": before}
            for statement in _PRUNE:
                await conn.execute(statement, params)
            async with conn.execute(
                f"DELETE FROM tables WHERE {CLOSED} AND updated_at < :before", params
            ) as cursor:
                return cursor.rowcount

        pruned: int = await self._write(work)
        return pruned
