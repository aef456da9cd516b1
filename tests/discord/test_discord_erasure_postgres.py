"""``/basra forget`` on PostgreSQL: the same scenarios as on SQLite, with the bot's tables in
a schema of its own (skipped with one line without ``BASRA_TEST_POSTGRES``)."""

from __future__ import annotations

import pytest
from test_discord_erasure import (
    test_cancel_erases_nothing,
    test_forget_asks_once_then_erase_resigns_the_match_and_erases_them,
)

from tests.storage.backends import postgres_schema

__all__ = [
    "postgres_schema",
    "test_cancel_erases_nothing",
    "test_forget_asks_once_then_erase_resigns_the_match_and_erases_them",
]

pytestmark = pytest.mark.usefixtures("fast_settle")


@pytest.fixture
def db_path(postgres_schema: str) -> str:
    """The bot opens this schema."""
    return postgres_schema
