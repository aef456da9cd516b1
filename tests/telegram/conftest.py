"""Fixtures for the Telegram bot tests: a fake server and a database file per test."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes import FakeTelegram


@pytest.fixture
def server() -> FakeTelegram:
    return FakeTelegram()


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "basra.sqlite3"
