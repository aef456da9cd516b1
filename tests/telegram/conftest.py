"""Fixtures for the Telegram bot tests: a fake server and a database file per test."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakes import FakeTelegram

#: Telegram's flood limits run this many times faster in the tests that play whole matches
#: (the bot's budgets alike): 20 writes a group in 1 s, not 60. The live-delivery tests
#: run them at their real speed.
SPEEDUP = 60.0


@pytest.fixture
def server() -> FakeTelegram:
    return FakeTelegram(speedup=SPEEDUP)


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "basra.sqlite3"
