"""Fixtures for the storage tests: every store is a real database, an SQLite file in
tmp_path or a schema of its own on a PostgreSQL server (``tests/storage/backends.py``).

``store`` and ``database`` run a test on each backend; a test given ``db_path`` (or
marked ``sqlite_only``) is about the SQLite file itself and runs on SQLite alone.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from storage import Seat, Store, TableRecord, open_store
from tests.storage.backends import another_postgres_schema, database, postgres_schema

__all__ = ["another_postgres_schema", "database", "postgres_schema"]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sqlite_only: about the SQLite file itself; runs on SQLite alone")


class TickingClock:
    """A clock that moves one second per reading, so stored times are distinct."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "basra.sqlite3"


@pytest.fixture
def clock() -> TickingClock:
    return TickingClock()


@pytest.fixture
async def store(database: str, clock: TickingClock) -> AsyncIterator[Store]:
    async with open_store(database, clock=clock) as opened:
        yield opened


@pytest.fixture
def new_table() -> Callable[..., TableRecord]:
    """A lobby record for a chat; keyword arguments override any field."""

    def make(chat_id: str = "tg:-100123", **fields: Any) -> TableRecord:
        values: dict[str, Any] = {
            "chat_id": chat_id,
            "mode": "1v1",
            "created_by": "tg:42",
            "seats": (Seat(player_id="tg:42", name="Amr", team=0),),
            "rules": {"target": 121},
        }
        values.update(fields)
        return TableRecord(**values)

    return make
