"""The Discord bot on PostgreSQL: the real bot on simcord with its tables in a PostgreSQL
schema of its own instead of an SQLite file, so that what an operator runs when the bot
scales out (several processes, one database) is played through Discord as well.

The scenarios are the SQLite ones, run again here on the other backend: a 2-v-2 of
people played to its end, a practice match with computer players, and a restart in the
middle of a match that old buttons outlive. (Not the long 1-v-1 to 100 as well: simcord
checks every timer the bot holds each time it settles, and asyncpg holds one per cached
statement, so that match takes ten times as long here for nothing the 2-v-2 does not
show.) Needs ``BASRA_TEST_POSTGRES`` (skipped with one line without it, unless
``BASRA_REQUIRE_POSTGRES=1``, as in ``.ci/run``).
"""

from __future__ import annotations

import pytest
from test_discord_match import (
    test_a_2v2_of_four_people_is_played_to_the_end,
    test_practice_with_computer_partners_plays_to_the_end,
)
from test_discord_restart import test_a_match_goes_on_after_a_restart_and_old_buttons_still_work

from tests.storage.backends import postgres_schema

__all__ = [
    "postgres_schema",
    "test_a_2v2_of_four_people_is_played_to_the_end",
    "test_a_match_goes_on_after_a_restart_and_old_buttons_still_work",
    "test_practice_with_computer_partners_plays_to_the_end",
]

pytestmark = pytest.mark.usefixtures("fast_settle")


@pytest.fixture
def db_path(postgres_schema: str) -> str:
    """Every bot of a test (a restart makes a second one) opens this schema."""
    return postgres_schema
