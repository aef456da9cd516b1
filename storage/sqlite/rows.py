"""The game's rows in SQLite: tables and their event logs, chats, players, results, and the
service's own clock (``storage.TableStore``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any, Final

import aiosqlite

from .. import clocks, codec, ranking
from ..errors import NotFound
from ..models import (
    DEFAULT_MU,
    DEFAULT_RATING,
    DEFAULT_SIGMA,
    ChatSettings,
    DamagedTable,
    MatchResult,
    PlayerProfile,
    RatingEntry,
    Standing,
    StoredEvent,
    TableRecord,
)
from . import tablesql
from .connection import _OPEN, Connected

_SELECT_TABLE: Final = clocks.SELECT_TABLE

# A chat's new id takes over its settings (unless it has its own), its
# results and its closed tables; an open table moves with its own row write.
# A moved row counts as a new revision, so a write based on the row as read
# before the move (a message reference kept meanwhile) is refused and read
# again, rather than putting the old id back.
_MOVE_CHAT: Final = (
    "UPDATE OR IGNORE chat_settings SET chat_id = :new WHERE chat_id = :old",
    "UPDATE results SET chat_id = :new WHERE chat_id = :old",
    "UPDATE tables SET chat_id = :new, revision = revision + 1, updated_at = :now"
    f" WHERE chat_id = :old AND NOT {_OPEN}",
)

# A stop moves every clock of a bot by its length: its shift (``storage.clocks``).
_SHIFT: Final = (
    "INSERT INTO clock_shifts (owner, shift) VALUES (?, ?)"
    " ON CONFLICT (owner) DO UPDATE SET shift = shift + excluded.shift"
)

_PUT_SETTINGS: Final = """
INSERT INTO chat_settings (chat_id, language, rules, turn_seconds, ai_delay_ms, updated_at)
VALUES (:chat_id, :language, :rules, :turn_seconds, :ai_delay_ms, :updated_at)
ON CONFLICT (chat_id) DO UPDATE SET language = excluded.language, rules = excluded.rules,
    turn_seconds = excluded.turn_seconds, ai_delay_ms = excluded.ai_delay_ms,
    updated_at = excluded.updated_at
"""

_UPSERT_PLAYER: Final = """
INSERT INTO players (player_id, name, platform_language, mu, sigma, rating, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (player_id) DO UPDATE SET name = excluded.name,
    platform_language = COALESCE(excluded.platform_language, platform_language),
    updated_at = excluded.updated_at
RETURNING *
"""


class SqliteRows(Connected):
    """The ``TableStore`` half of ``SqliteStore``."""

    async def create_table(self, table: TableRecord) -> TableRecord:
        if table.version != 0:
            raise ValueError(f"new table {table.table_id!r} must start at version 0")
        return await self._write_sync(lambda db: tablesql.insert_table(db, table, self._clock()))

    async def update_table(self, table: TableRecord) -> TableRecord:
        return await self._write_sync(lambda db: tablesql.update_table(db, table, self._clock()))

    async def get_table(self, table_id: str) -> TableRecord | None:
        return await self._read(lambda conn: _fetch_table(conn, table_id))

    async def open_table_for_chat(self, chat_id: str, owner: str | None = None) -> TableRecord | None:
        async def work(conn: aiosqlite.Connection) -> TableRecord | None:
            mine, params = ("", (chat_id,)) if owner is None else (" AND owner = ?", (chat_id, owner))
            rows = await conn.execute_fetchall(f"{_SELECT_TABLE} WHERE chat_id = ?{mine} AND {_OPEN}", params)
            return next((codec.readable_table(row) for row in rows), None)

        return await self._read(work)

    async def last_finished_table(self, chat_id: str, owner: str) -> TableRecord | None:
        async def work(conn: aiosqlite.Connection) -> TableRecord | None:
            rows = await conn.execute_fetchall(
                f"{_SELECT_TABLE} WHERE owner = ? AND chat_id = ? AND status = 'finished' AND version > 0"
                " ORDER BY created_at DESC, rowid DESC LIMIT 1",
                (owner, chat_id),
            )
            return next((codec.table_from_row(row) for row in rows), None)

        return await self._read(work)

    async def open_tables(self) -> list[TableRecord]:
        """Every open table whose row can be read (``open_rows`` also lists the others)."""
        return [t for t in await self.open_rows() if isinstance(t, TableRecord)]

    async def open_rows(
        self,
        *,
        owners: Sequence[str] | None = None,
        updated_since: float | None = None,
        player: str | None = None,
    ) -> list[TableRecord | DamagedTable]:
        where: list[str] = [_OPEN]
        params: list[Any] = []
        if player is not None:
            where.append("EXISTS (SELECT 1 FROM json_each(tables.seats)"
                         " WHERE json_extract(value, '$.player_id') = ?)")
            params.append(player)
        if owners is not None:
            if not owners:
                return []
            where.append(f"owner IN ({', '.join('?' for _ in owners)})")
            params.extend(owners)
        if updated_since is not None:
            where.append("updated_at >= ?")
            params.append(updated_since)
        sql = f"{_SELECT_TABLE} WHERE {' AND '.join(where)} ORDER BY created_at, table_id"

        async def work(conn: aiosqlite.Connection) -> list[TableRecord | DamagedTable]:
            return [codec.table_or_damage(row) for row in await conn.execute_fetchall(sql, params)]

        return await self._read(work)

    async def changed_tables(
        self,
        owners: Sequence[str],
        since: float,
        *,
        before: tuple[str, float] | None = None,
        limit: int | None = None,
    ) -> list[tuple[str, float]]:
        if not owners or (limit is not None and limit < 1):
            return []
        params: dict[str, Any] = {f"o{n}": owner for n, owner in enumerate(owners)}
        params.update(since=since, limit=limit)
        if before is not None:
            params.update(before_id=before[0], before_at=before[1])
        sql = clocks.changed_query(
            [f":o{n}" for n in range(len(owners))],
            ":since",
            None if before is None else (":before_at", ":before_id"),
            None if limit is None else ":limit",
        )

        async def work(conn: aiosqlite.Connection) -> list[tuple[str, float]]:
            return clocks.due_rows(await conn.execute_fetchall(sql, params))

        return await self._read(work)

    async def due_tables(
        self,
        owners: Sequence[str],
        *,
        after: float | None = None,
        until: float | None = None,
        limit: int | None = None,
    ) -> list[tuple[str, float]]:
        if not owners or (limit is not None and limit < 1):
            return []
        params: dict[str, Any] = {f"o{n}": owner for n, owner in enumerate(owners)}
        params.update(after=after, until=until, limit=limit)
        sql = clocks.due_query(
            [f":o{n}" for n in range(len(owners))],
            None if after is None else ":after",
            None if until is None else ":until",
            None if limit is None else ":limit",
        )

        async def work(conn: aiosqlite.Connection) -> list[tuple[str, float]]:
            return clocks.due_rows(list(await conn.execute_fetchall(sql, params)))

        return await self._read(work)

    async def append_events(
        self,
        table_id: str,
        expected_version: int,
        events: Sequence[Mapping[str, Any]],
        *,
        table: TableRecord | None = None,
        result: MatchResult | None = None,
    ) -> TableRecord:
        encoded = codec.encoded_events(table_id, events, table, result)

        def append(db: sqlite3.Connection) -> TableRecord:
            return tablesql.append_events(db, table_id, expected_version, encoded, table, self._clock())

        if result is None:
            return await self._write_sync(append)

        async def work(conn: aiosqlite.Connection) -> TableRecord:
            await self._writer.in_thread(append)
            await ranking.apply_result(conn, result, self._clock())
            return await self._writer.in_thread(lambda db: tablesql.must_fetch_table(db, table_id))

        return await self._write(work)

    async def load_events(self, table_id: str, after_version: int = 0) -> list[StoredEvent]:
        async def work(conn: aiosqlite.Connection) -> list[StoredEvent]:
            rows = await conn.execute_fetchall(
                "SELECT version, kind, data, at FROM events"
                " WHERE table_id = ? AND version > ? ORDER BY version",
                (table_id, after_version),
            )
            return [codec.event_from_row(row) for row in rows]

        return await self._read(work)

    async def get_chat_settings(self, chat_id: str) -> ChatSettings:
        async def work(conn: aiosqlite.Connection) -> ChatSettings:
            rows = await conn.execute_fetchall("SELECT * FROM chat_settings WHERE chat_id = ?", (chat_id,))
            return next((codec.settings_from_row(r) for r in rows), ChatSettings(chat_id=chat_id))

        return await self._read(work)

    async def find_chat_settings(self, chat_id: str) -> ChatSettings | None:
        async def work(conn: aiosqlite.Connection) -> ChatSettings | None:
            rows = await conn.execute_fetchall("SELECT * FROM chat_settings WHERE chat_id = ?", (chat_id,))
            return next((codec.settings_from_row(r) for r in rows), None)

        return await self._read(work)

    async def put_chat_settings(self, settings: ChatSettings) -> None:
        params = settings.model_dump()
        params["rules"] = codec.dumps(settings.rules)

        async def work(conn: aiosqlite.Connection) -> None:
            await conn.execute(_PUT_SETTINGS, {**params, "updated_at": self._clock()})

        await self._write(work)

    async def move_chat(self, old_chat_id: str, new_chat_id: str) -> None:
        async def work(conn: aiosqlite.Connection) -> None:
            ids = {"old": old_chat_id, "new": new_chat_id, "now": self._clock()}
            for statement in _MOVE_CHAT:
                await conn.execute(statement, ids)

        await self._write(work)

    async def get_player(self, player_id: str) -> PlayerProfile | None:
        return await self._read(lambda conn: _fetch_player(conn, player_id))

    async def upsert_player(
        self, player_id: str, name: str, platform_language: str | None = None
    ) -> PlayerProfile:
        def work(db: sqlite3.Connection) -> PlayerProfile:
            now = self._clock()
            params = (player_id, name, platform_language, DEFAULT_MU, DEFAULT_SIGMA, DEFAULT_RATING, now, now)
            return codec.player_from_row(db.execute(_UPSERT_PLAYER, params).fetchone())

        return await self._write_sync(work)

    async def set_player_language(self, player_id: str, language: str | None) -> None:
        async def work(conn: aiosqlite.Connection) -> None:
            async with conn.execute(
                "UPDATE players SET language = ?, updated_at = ? WHERE player_id = ?",
                (language, self._clock(), player_id),
            ) as cursor:
                if cursor.rowcount == 0:
                    raise NotFound(f"no player {player_id!r}")

        await self._write(work)

    async def record_result(self, result: MatchResult) -> bool:
        return await self._write(lambda conn: ranking.apply_result(conn, result, self._clock()))

    async def rating_history(self, player_id: str, limit: int = 20) -> list[RatingEntry]:
        return await self._read(lambda conn: ranking.rating_history(conn, player_id, limit))

    async def leaderboard(
        self, chat_id: str | None = None, limit: int = 10, *, online: bool = False
    ) -> list[Standing]:
        return await self._read(lambda conn: ranking.standings(conn, chat_id, online=online, limit=limit))

    async def player_stats(
        self, player_id: str, chat_id: str | None = None, *, online: bool = False
    ) -> Standing | None:
        lines = await self._read(
            lambda conn: ranking.standings(conn, chat_id, online=online, player_id=player_id)
        )
        return lines[0] if lines else None

    async def note_alive(self, name: str, at: float) -> None:
        async def work(conn: aiosqlite.Connection) -> None:
            await conn.execute(
                "INSERT INTO service_clock (name, alive_at) VALUES (?, ?)"
                " ON CONFLICT (name) DO UPDATE SET alive_at = excluded.alive_at",
                (name, at),
            )

        await self._write(work)

    async def resume(self, name: str, at: float, until: float, owners: Sequence[str]) -> float:
        platforms = sorted({owner.partition(":")[0] for owner in owners})

        async def work(conn: aiosqlite.Connection) -> float:
            for owner in owners:
                await conn.execute(
                    f"UPDATE tables SET owner = :owner, {clocks.adopted(':owner')}"
                    " WHERE owner = '' AND platform = :platform",
                    {"owner": owner, "platform": owner.partition(":")[0]},
                )
            alive: float | None = None
            # Before tables had owners, a service's clock was named by its platforms alone.
            for known in dict.fromkeys((name, "+".join(platforms))):
                rows = list(
                    await conn.execute_fetchall("SELECT alive_at FROM service_clock WHERE name = ?", (known,))
                )
                if rows:
                    alive = float(rows[0][0])
                    break
            paused = clocks.step(max(0.0, at - alive)) if alive is not None else 0.0
            if paused > 0:
                await conn.executemany(_SHIFT, [(owner, paused) for owner in owners])
            await conn.execute(
                "INSERT INTO service_clock (name, alive_at) VALUES (?, ?)"
                " ON CONFLICT (name) DO UPDATE SET alive_at = excluded.alive_at",
                (name, until),
            )
            return paused

        value: float = await self._write(work)
        return value

    async def last_alive(self, name: str) -> float | None:
        async def work(conn: aiosqlite.Connection) -> float | None:
            rows = list(
                await conn.execute_fetchall("SELECT alive_at FROM service_clock WHERE name = ?", (name,))
            )
            return float(rows[0][0]) if rows else None

        return await self._read(work)


async def _fetch_table(conn: aiosqlite.Connection, table_id: str) -> TableRecord | None:
    rows = await conn.execute_fetchall(f"{_SELECT_TABLE} WHERE table_id = ?", (table_id,))
    return next((codec.readable_table(row) for row in rows), None)


async def _fetch_player(conn: aiosqlite.Connection, player_id: str) -> PlayerProfile | None:
    rows = await conn.execute_fetchall("SELECT * FROM players WHERE player_id = ?", (player_id,))
    return next((codec.player_from_row(row) for row in rows), None)
