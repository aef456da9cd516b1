"""Bringing a PostgreSQL database's schema up to date, once, whoever starts first.

The migrations are ``migrations/postgresql/NNN_name.sql``; the schema's number is the
highest row of ``schema_version``. Every pending step runs in one transaction that
first takes an advisory lock on the schema's name, so processes starting at once
queue there: the first applies the steps, the others find them applied. DDL is
transactional in PostgreSQL, so a failed step leaves the schema as it was.
"""

from __future__ import annotations

import time

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from ..errors import StorageError
from ..schema import load_migrations

_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended('basra migrations ' || current_schema(), 0))"
_VERSION_TABLE = """
CREATE TABLE IF NOT EXISTS schema_version (
    version    integer PRIMARY KEY,
    name       text NOT NULL,
    applied_at double precision NOT NULL
)
"""


def latest() -> int:
    migrations = load_migrations("postgresql")
    return migrations[-1].version if migrations else 0


async def schema_version(conn: PoolConnectionProxy[asyncpg.Record]) -> int:
    """The database's schema number (0 for an empty one)."""
    exists = await conn.fetchval("SELECT to_regclass('schema_version') IS NOT NULL")
    if not exists:
        return 0
    return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))


async def migrate(conn: PoolConnectionProxy[asyncpg.Record]) -> tuple[int, int]:
    """Apply every migration newer than the database's schema: (schema before, after)."""
    migrations = load_migrations("postgresql")
    newest = migrations[-1].version if migrations else 0
    async with conn.transaction():
        if await conn.fetchval("SELECT current_schema()") is None:
            raise StorageError("no schema to create tables in (search_path names none that exists)")
        await conn.execute(_LOCK)
        await conn.execute(_VERSION_TABLE)
        current = int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM schema_version"))
        if current > newest:
            raise StorageError(f"database schema {current} is newer than this program's {newest}")
        for migration in migrations[current:]:
            for script in migration.statements:
                await conn.execute(script)
            await conn.execute(
                "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, $3)",
                migration.version, migration.name, time.time(),
            )
    return current, newest
