"""Settings shared by every test."""

import os

# As the Telegram bot does on import (bots/telegram/__init__.py): python-telegram-bot
# gives durations as timedeltas, so tests that use its client alone behave the same.
os.environ.setdefault("PTB_TIMEDELTA", "1")
