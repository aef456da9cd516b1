"""The game's rows in PostgreSQL: tables and their event logs, chats, players, results, and
the service's own clock (``storage.TableStore``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from .. import clocks, codec
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
from . import sql
from .connection import Connected
from .sql import OPEN, SELECT_TABLE, Connection

_PUT_SETTINGS: Final = """
INSERT INTO chat_settings (chat_id, language, rules, turn_seconds, ai_delay_ms, updated_at)
VALUES ($1, $2, $3, $4, $5, $6)
ON CONFLICT (chat_id) DO UPDATE SET language = excluded.language, rules = excluded.rules,
    turn_seconds = excluded.turn_seconds, ai_delay_ms = excluded.ai_delay_ms,
    updated_at = excluded.updated_at
"""

_UPSERT_PLAYER: Final = """
INSERT INTO players (player_id, name, platform_language, mu, sigma, rating, created_at, updated_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $7)
ON CONFLICT (player_id) DO UPDATE SET name = excluded.name,
    platform_language = COALESCE(excluded.platform_language, players.platform_language),
    updated_at = excluded.updated_at
RETURNING *
"""

_MOVE_CHAT: Final = (
    "UPDATE chat_settings SET chat_id = $2 WHERE chat_id = $1"
    " AND NOT EXISTS (SELECT 1 FROM chat_settings WHERE chat_id = $2)",
    "UPDATE results SET chat_id = $2 WHERE chat_id = $1",
    "UPDATE tables SET chat_id = $2, revision = revision + 1, updated_at = $3"
    f" WHERE chat_id = $1 AND NOT {OPEN}",
)

# A stop moves every clock of a bot by its length: its shift (``storage.clocks``).
_SHIFT: Final = (
    "INSERT INTO clock_shifts AS c (owner, shift) VALUES ($1, $2)"
    " ON CONFLICT (owner) DO UPDATE SET shift = c.shift + excluded.shift"
)

_NOTE_ALIVE: Final = (
    "INSERT INTO service_clock (name, alive_at) VALUES ($1, $2)"
    " ON CONFLICT (name) DO UPDATE SET alive_at = excluded.alive_at"
)


class PostgresRows(Connected):
    """The ``TableStore`` half of ``PostgresStore``."""

    async def create_table(self, table: TableRecord) -> TableRecord:
        if table.version != 0:
            raise ValueError(f"new table {table.table_id!r} must start at version 0")
        return await self._write(lambda conn: sql.insert_table(conn, table, self._clock()))

    async def update_table(self, table: TableRecord) -> TableRecord:
        return await self._write(lambda conn: sql.update_table(conn, table, self._clock()))

    async def get_table(self, table_id: str) -> TableRecord | None:
        async def work(conn: Connection) -> TableRecord | None:
            row = await conn.fetchrow(f"{SELECT_TABLE} WHERE table_id = $1", table_id)
            return codec.readable_table(row) if row is not None else None

        return await self._read(work)

    async def open_table_for_chat(self, chat_id: str, owner: str | None = None) -> TableRecord | None:
        async def work(conn: Connection) -> TableRecord | None:
            if owner is None:
                row = await conn.fetchrow(f"{SELECT_TABLE} WHERE chat_id = $1 AND {OPEN} LIMIT 1", chat_id)
            else:
                row = await conn.fetchrow(
                    f"{SELECT_TABLE} WHERE chat_id = $1 AND owner = $2 AND {OPEN}", chat_id, owner
                )
            return codec.readable_table(row) if row is not None else None

        return await self._read(work)

    async def last_finished_table(self, chat_id: str, owner: str) -> TableRecord | None:
        async def work(conn: Connection) -> TableRecord | None:
            row = await conn.fetchrow(
                f"{SELECT_TABLE} WHERE owner = $1 AND chat_id = $2 AND status = 'finished' AND version > 0"
                " ORDER BY created_at DESC, seq DESC LIMIT 1",
                owner, chat_id,
            )
            return codec.table_from_row(row) if row is not None else None

        return await self._read(work)

    async def open_tables(self) -> list[TableRecord]:
        return [t for t in await self.open_rows() if isinstance(t, TableRecord)]

    async def open_rows(
        self,
        *,
        owners: Sequence[str] | None = None,
        updated_since: float | None = None,
        player: str | None = None,
    ) -> list[TableRecord | DamagedTable]:
        where, args = [OPEN], list[object]()
        if player is not None:
            args.append(player)
            where.append(
                f"EXISTS (SELECT 1 FROM json_array_elements(seats) s WHERE s->>'player_id' = ${len(args)})"
            )
        if owners is not None:
            if not owners:
                return []
            args.append(list(owners))
            where.append(f"owner = ANY(${len(args)}::text[])")
        if updated_since is not None:
            args.append(updated_since)
            where.append(f"updated_at >= ${len(args)}")
        sql = f"{SELECT_TABLE} WHERE {' AND '.join(where)} ORDER BY created_at, table_id"

        async def work(conn: Connection) -> list[TableRecord | DamagedTable]:
            return [codec.table_or_damage(row) for row in await conn.fetch(sql, *args)]

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
        args: list[object] = [*owners, since]
        cursor = None
        if before is not None:
            args.extend((before[1], before[0]))
            cursor = (f"${len(args) - 1}::double precision", f"${len(args)}::text")
        if limit is not None:
            args.append(limit)
        sql = clocks.changed_query(
            [f"${n}" for n in range(1, len(owners) + 1)],
            f"${len(owners) + 1}::double precision",
            cursor,
            None if limit is None else f"${len(args)}",
        )

        async def work(conn: Connection) -> list[tuple[str, float]]:
            return clocks.due_rows(await conn.fetch(sql, *args))

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
        args: list[object] = list(owners)
        bounds = []
        for value in (after, until, limit):
            if value is not None:
                args.append(value)
            bounds.append(None if value is None else f"${len(args)}")
        sql = clocks.due_query(
            [f"${n}" for n in range(1, len(owners) + 1)],
            None if after is None else f"{bounds[0]}::double precision",
            None if until is None else f"{bounds[1]}::double precision",
            bounds[2],
        )

        async def work(conn: Connection) -> list[tuple[str, float]]:
            return clocks.due_rows(await conn.fetch(sql, *args))

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

        async def work(conn: Connection) -> TableRecord:
            now = self._clock()
            stored = await sql.append_events(conn, table_id, expected_version, encoded, table, now)
            if result is None:
                return stored
            await sql.apply_result(conn, result, now)
            return await _must_fetch(conn, table_id)

        return await self._write(work)

    async def load_events(self, table_id: str, after_version: int = 0) -> list[StoredEvent]:
        async def work(conn: Connection) -> list[StoredEvent]:
            rows = await conn.fetch(
                "SELECT version, kind, data, at FROM events WHERE table_id = $1 AND version > $2"
                " ORDER BY version",
                table_id, after_version,
            )
            return [codec.event_from_row(row) for row in rows]

        return await self._read(work)

    async def get_chat_settings(self, chat_id: str) -> ChatSettings:
        return await self.find_chat_settings(chat_id) or ChatSettings(chat_id=chat_id)

    async def find_chat_settings(self, chat_id: str) -> ChatSettings | None:
        async def work(conn: Connection) -> ChatSettings | None:
            row = await conn.fetchrow("SELECT * FROM chat_settings WHERE chat_id = $1", chat_id)
            return codec.settings_from_row(row) if row is not None else None

        return await self._read(work)

    async def put_chat_settings(self, settings: ChatSettings) -> None:
        async def work(conn: Connection) -> None:
            await conn.execute(
                _PUT_SETTINGS, settings.chat_id, settings.language, codec.dumps(settings.rules),
                settings.turn_seconds, settings.ai_delay_ms, self._clock(),
            )

        await self._write(work)

    async def move_chat(self, old_chat_id: str, new_chat_id: str) -> None:
        async def work(conn: Connection) -> None:
            now = self._clock()
            await conn.execute(_MOVE_CHAT[0], old_chat_id, new_chat_id)
            await conn.execute(_MOVE_CHAT[1], old_chat_id, new_chat_id)
            await conn.execute(_MOVE_CHAT[2], old_chat_id, new_chat_id, now)

        await self._write(work)

    async def get_player(self, player_id: str) -> PlayerProfile | None:
        async def work(conn: Connection) -> PlayerProfile | None:
            row = await conn.fetchrow("SELECT * FROM players WHERE player_id = $1", player_id)
            return codec.player_from_row(row) if row is not None else None

        return await self._read(work)

    async def upsert_player(
        self, player_id: str, name: str, platform_language: str | None = None
    ) -> PlayerProfile:
        async def work(conn: Connection) -> PlayerProfile:
            row = await conn.fetchrow(
                _UPSERT_PLAYER, player_id, name, platform_language, DEFAULT_MU, DEFAULT_SIGMA,
                DEFAULT_RATING, self._clock(),
            )
            assert row is not None
            return codec.player_from_row(row)

        return await self._write(work)

    async def set_player_language(self, player_id: str, language: str | None) -> None:
        async def work(conn: Connection) -> None:
            status = await conn.execute(
                "UPDATE players SET language = $1, updated_at = $2 WHERE player_id = $3",
                language, self._clock(), player_id,
            )
            if status.endswith(" 0"):
                raise NotFound(f"no player {player_id!r}")

        await self._write(work)

    async def record_result(self, result: MatchResult) -> bool:
        return await self._write(lambda conn: sql.apply_result(conn, result, self._clock()))

    async def rating_history(self, player_id: str, limit: int = 20) -> list[RatingEntry]:
        return await self._read(lambda conn: sql.rating_history(conn, player_id, limit))

    async def leaderboard(
        self, chat_id: str | None = None, limit: int = 10, *, online: bool = False
    ) -> list[Standing]:
        return await self._read(lambda conn: sql.standings(conn, chat_id, online=online, limit=limit))

    async def player_stats(
        self, player_id: str, chat_id: str | None = None, *, online: bool = False
    ) -> Standing | None:
        lines = await self._read(
            lambda conn: sql.standings(conn, chat_id, online=online, player_id=player_id)
        )
        return lines[0] if lines else None

    async def note_alive(self, name: str, at: float) -> None:
        async def work(conn: Connection) -> None:
            await conn.execute(_NOTE_ALIVE, name, at)

        await self._write(work)

    async def last_alive(self, name: str) -> float | None:
        async def work(conn: Connection) -> float | None:
            alive = await conn.fetchval("SELECT alive_at FROM service_clock WHERE name = $1", name)
            return None if alive is None else float(alive)

        return await self._read(work)

    async def resume(self, name: str, at: float, until: float, owners: Sequence[str]) -> float:
        platforms = sorted({owner.partition(":")[0] for owner in owners})

        async def work(conn: Connection) -> float:
            for owner in owners:
                await conn.execute(
                    f"UPDATE tables SET owner = $1, {clocks.adopted('$1')}"
                    " WHERE owner = '' AND platform = $2",
                    owner, owner.partition(":")[0],
                )
            alive: float | None = None
            # Before tables had owners, a service's clock was named by its platforms alone.
            for known in dict.fromkeys((name, "+".join(platforms))):
                found = await conn.fetchval("SELECT alive_at FROM service_clock WHERE name = $1", known)
                if found is not None:
                    alive = float(found)
                    break
            paused = clocks.step(max(0.0, at - alive)) if alive is not None else 0.0
            if paused > 0 and owners:
                await conn.executemany(_SHIFT, [(owner, paused) for owner in owners])
            await conn.execute(_NOTE_ALIVE, name, until)
            return paused

        return await self._write(work)


async def _must_fetch(conn: Connection, table_id: str) -> TableRecord:
    table = await sql.fetch_table(conn, table_id)
    if table is None:
        raise NotFound(f"no table {table_id!r}")
    return table
