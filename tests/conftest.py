"""Settings shared by every test."""

import logging
import os
from collections.abc import Iterator

import pytest

# As the Telegram bot does on import (bots/telegram/__init__.py): python-telegram-bot
# gives durations as timedeltas, so tests that use its client alone behave the same.
os.environ.setdefault("PTB_TIMEDELTA", "1")


@pytest.fixture
def logging_restored() -> Iterator[None]:
    """A test that sets up logging as an entry point does leaves it as it found it."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    loggers = [lg for lg in logging.root.manager.loggerDict.values() if isinstance(lg, logging.Logger)]
    kept = {lg.name: (lg.level, lg.filters[:]) for lg in loggers}
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for lg in [lg for lg in logging.root.manager.loggerDict.values() if isinstance(lg, logging.Logger)]:
        lg_level, lg.filters[:] = kept.get(lg.name, (logging.NOTSET, []))
        lg.setLevel(lg_level)
