"""Fixtures for the web table's tests: a fake Telegram, a database, a browser."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.fakes import FakeTelegram
from tests.web.web_world import CHROMIUM, needs_chromium

#: Telegram's flood limits, as the Telegram tests that play whole matches run them.
SPEEDUP = 60.0


@pytest.fixture
def server() -> FakeTelegram:
    return FakeTelegram(speedup=SPEEDUP)


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "basra.sqlite3"


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    """Debian's chromium, driven by Playwright (no browser of Playwright's own)."""
    needs_chromium()
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            yield launched
        finally:
            await launched.close()
