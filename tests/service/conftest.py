"""Fixtures for the service tests: a fake platform adapter, a manual clock, real databases.

A test given ``service`` runs on each backend (an SQLite file, and a schema of its own on
the PostgreSQL server in ``BASRA_TEST_POSTGRES``: see ``tests/storage/backends.py``),
unless it also asks for ``db_path``: then it reads or reopens the SQLite file itself,
and runs on SQLite alone.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bots.service import ManualClock, TableService
from storage import Store, open_store
from tests.service.helpers import POOL_CONFIG, QUIET, FakePlatform, PoolPlatform
from tests.storage.backends import BACKENDS, postgres_schema

__all__ = ["postgres_schema"]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    asked = inspect.signature(metafunc.function).parameters  # the test's own, not its fixtures'
    if "service" in metafunc.fixturenames and "db_path" not in asked and "backend" not in asked:
        metafunc.fixturenames.append("backend")
        metafunc.parametrize("backend", BACKENDS, indirect=True)


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The backend ``database`` is on: SQLite unless the test was given both."""
    return str(getattr(request, "param", "sqlite"))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "basra.sqlite3"


@pytest.fixture
def database(request: pytest.FixtureRequest, backend: str, tmp_path: Path) -> str:
    """The service's database: the SQLite file at ``db_path``, or a PostgreSQL URL."""
    if backend == "sqlite":
        return str(tmp_path / "basra.sqlite3")
    url: str = request.getfixturevalue("postgres_schema")
    return url


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def platform() -> FakePlatform:
    return FakePlatform()


@pytest.fixture
async def store(database: str) -> AsyncIterator[Store]:
    async with open_store(database) as opened:
        yield opened


@pytest.fixture
async def service(store: Store, clock: ManualClock, platform: FakePlatform) -> AsyncIterator[TableService]:
    async with TableService(store, [platform], clock=clock, config=QUIET, rng=random.Random(7)) as svc:
        yield svc


@pytest.fixture
def tg() -> PoolPlatform:
    """Telegram, as the pool tests see it: what it is told of the pool is kept."""
    return PoolPlatform("tg")


@pytest.fixture
async def pool(store: Store, clock: ManualClock, tg: PoolPlatform) -> AsyncIterator[TableService]:
    """A service whose one platform's people may wait in the pool (``POOL_CONFIG``)."""
    async with TableService(store, [tg], clock=clock, config=POOL_CONFIG, rng=random.Random(7)) as svc:
        yield svc
