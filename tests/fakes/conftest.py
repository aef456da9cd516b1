"""Fixtures for the fake's own tests: a fresh fake server, and the tiny bot on it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from telegram.ext import AIORateLimiter, Application

from . import FakeTelegram
from .tiny_bot import add_handlers


@pytest.fixture
def server() -> FakeTelegram:
    return FakeTelegram()


@pytest.fixture
async def app(server: FakeTelegram) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    application = server.application_builder().build()
    add_handlers(application)
    server.attach(application.bot)
    async with application:
        yield application


@pytest.fixture
async def limited_app(
    server: FakeTelegram,
) -> AsyncIterator[Application[Any, Any, Any, Any, Any, Any]]:
    application = server.application_builder().rate_limiter(AIORateLimiter(max_retries=2)).build()
    add_handlers(application)
    server.attach(application.bot)
    async with application:
        yield application


