"""Opening the database file and bringing its schema up to date.

Migrations are the ordered files ``migrations/NNN_name.sql`` shipped as package
data; the schema's number is SQLite's ``PRAGMA user_version``. Each migration
runs in its own ``BEGIN IMMEDIATE`` transaction together with the version bump,
so a crash mid-migration leaves the previous schema, and two processes starting
at once cannot both apply the same step.
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import aiosqlite

from .errors import StorageError

_MIGRATION_NAME = re.compile(r"^(\d{3})_([a-z0-9_]+)\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    statements: tuple[str, ...]


def split_statements(script: str) -> tuple[str, ...]:
    """Cut a script into statements with SQLite's own tokenizer.

    ``executescript`` would commit any open transaction first, so statements
    are run one by one inside ours instead.
    """
    statements: list[str] = []
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statements.append(pending.strip())
            pending = ""
    if pending.strip() and not _only_comments(pending):
        raise StorageError(f"unterminated SQL statement: {pending.strip()[:60]!r}")
    return tuple(statements)


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.strip().startswith("--") for line in text.splitlines())


def load_migrations(dialect: str = "sqlite") -> tuple[Migration, ...]:
    """The packaged migrations, checked to be numbered 1, 2, 3 ... without gaps.

    SQLite's are ``migrations/NNN_name.sql``, cut into statements; PostgreSQL's are
    ``migrations/postgresql/NNN_name.sql``, each one script that the server runs whole.
    """
    folder = resources.files(__package__).joinpath("migrations")
    if dialect == "postgresql":
        folder = folder.joinpath("postgresql")
    elif dialect != "sqlite":
        raise ValueError(f"no migrations for {dialect!r}")
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match is None or not entry.is_file():
            continue
        script = entry.read_text(encoding="utf-8")
        statements = split_statements(script) if dialect == "sqlite" else (script,)
        found.append(Migration(int(match[1]), match[2], statements))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise StorageError(f"migration {migration.version:03d} found where {expected:03d} due")
    return tuple(found)


#: SQLite's page cache of each connection, KiB (``PRAGMA cache_size``; SQLite's default).
#: ``bots.memory.configure`` sets it from ``BASRA_SQLITE_CACHE_KB``.
PAGE_CACHE_KB = 2000


async def connect(path: Path, busy_timeout: float) -> aiosqlite.Connection:
    """Open one connection with the settings durability depends on.

    WAL lets readers in other processes proceed during a write; ``synchronous =
    FULL`` fsyncs the log at every commit, so an acknowledged write survives a
    SIGKILL or a power cut. Autocommit mode (``isolation_level=None``) leaves
    every transaction boundary to the store. The store's writer commits on
    the same connection from a thread of its own (``storage.sqlite.writer``), never
    while aiosqlite's thread uses it: hence ``check_same_thread=False``.
    """
    conn = await aiosqlite.connect(path, timeout=busy_timeout, isolation_level=None, check_same_thread=False)
    try:
        conn.row_factory = aiosqlite.Row
        await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
            row = await cursor.fetchone()
        if row is None or str(row[0]).lower() != "wal":
            raise StorageError(f"cannot use write-ahead logging for {str(path)!r}")
        await conn.execute("PRAGMA synchronous = FULL")
        await conn.execute("PRAGMA foreign_keys = ON")
        await conn.execute(f"PRAGMA cache_size = -{max(1, int(PAGE_CACHE_KB)):d}")
    except BaseException:
        await conn.close()
        raise
    return conn


async def schema_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row is not None else 0


async def migrate(conn: aiosqlite.Connection) -> int:
    """Apply every migration newer than the file's schema; returns the new version."""
    migrations = load_migrations()
    latest = migrations[-1].version if migrations else 0
    current = await schema_version(conn)
    if current > latest:
        raise StorageError(f"database schema {current} is newer than this program's {latest}")
    for migration in migrations[current:]:
        await conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while this one waited for the lock.
            if await schema_version(conn) < migration.version:
                for statement in migration.statements:
                    await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version = {migration.version:d}")
            await conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                await conn.execute("ROLLBACK")
            raise
    return await schema_version(conn)
