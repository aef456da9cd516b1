"""The databases a store test runs on: an SQLite file, and a PostgreSQL schema of its own.

The PostgreSQL server is ``BASRA_TEST_POSTGRES`` (a ``postgresql://`` URL to a database
the tests may create schemas in). Without it, or when it cannot be reached, the
PostgreSQL cases are skipped with one line saying why, unless ``BASRA_REQUIRE_POSTGRES=1``,
which makes that a failure. Each case gets a new, empty schema (``search_path`` on the
URL), dropped after it: far faster than a database per test.
"""

from __future__ import annotations

import contextlib
import os
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit

import asyncpg
import pytest

from storage import redact

BACKENDS = ("sqlite", "postgresql")
SERVER_VARIABLE = "BASRA_TEST_POSTGRES"
REQUIRE_VARIABLE = "BASRA_REQUIRE_POSTGRES"

_reachable: dict[str, str | None] = {}


async def server_url() -> str:
    """The test server's URL, or skip (or fail, when it is required) saying why not."""
    url = os.environ.get(SERVER_VARIABLE, "").strip()
    problem = await _problem(url)
    if problem is not None:
        if os.environ.get(REQUIRE_VARIABLE) == "1":
            pytest.fail(f"PostgreSQL is required ({REQUIRE_VARIABLE}=1) but {problem}", pytrace=False)
        pytest.skip(f"PostgreSQL: {problem}")
    return url


async def _problem(url: str) -> str | None:
    if not url:
        return f"{SERVER_VARIABLE} is not set"
    if url not in _reachable:  # once a session
        _reachable[url] = await _try(url)
    return _reachable[url]


async def _try(url: str) -> str | None:
    try:
        conn = await asyncpg.connect(url, timeout=5)
    except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError, TimeoutError, ValueError) as error:
        return f"cannot reach {redact(url)}: {error}"
    await conn.close()
    return None


def in_schema(url: str, schema: str) -> str:
    """``url`` with its tables in ``schema`` (asyncpg passes unknown query keys as settings)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "search_path"] + [("search_path", schema)]
    base = url.split("?", 1)[0]  # as written: urlunsplit would drop an empty host's "//"
    return f"{base}?{urlencode(query)}"


@pytest.fixture
async def postgres_schema() -> AsyncIterator[str]:
    """A URL to a new, empty schema on the test server, dropped afterwards."""
    async with new_schema() as url:
        yield url


@pytest.fixture
async def another_postgres_schema() -> AsyncIterator[str]:
    """A second schema, for what must not be seen across schemas."""
    async with new_schema() as url:
        yield url


@contextlib.asynccontextmanager
async def new_schema() -> AsyncIterator[str]:
    url = await server_url()
    schema = f"test_{uuid.uuid4().hex[:12]}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'CREATE SCHEMA "{schema}"')
    finally:
        await conn.close()
    try:
        yield in_schema(url, schema)
    finally:
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
        finally:
            await conn.close()


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """What ``storage.open_store`` is given: an SQLite file's path, or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "basra.sqlite3")
    url: str = request.getfixturevalue("postgres_schema")
    return url
