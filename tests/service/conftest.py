"""Fixtures for the service tests: a fake platform adapter, a manual clock, real SQLite files."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bots.service import ManualClock, TableService
from storage import SqliteStore
from tests.service.helpers import QUIET, FakePlatform


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "basra.sqlite3"


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
def platform() -> FakePlatform:
    return FakePlatform()


@pytest.fixture
async def service(db_path: Path, clock: ManualClock, platform: FakePlatform) -> AsyncIterator[TableService]:
    async with (
        SqliteStore(db_path) as store,
        TableService(store, [platform], clock=clock, config=QUIET, rng=random.Random(7)) as svc,
    ):
        yield svc
