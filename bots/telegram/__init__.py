"""The Telegram bot: python-telegram-bot 22 in front of the shared table service.

The table lives in the group, each player's hand in their private chat with
the bot. ``delivery`` turns the service's notices into messages (one lobby
message, one table message per round, one live hand message per player),
``handlers`` turns commands and button presses into service calls, and
``outbox`` sends with retries, skips edits that would change nothing and
reports chats the bot may not write to. Run it with ``python -m bots.telegram``.
"""

import os

# python-telegram-bot 22 gives durations such as RetryAfter.retry_after as
# timedeltas once this is set, and warns on every flood-control error until
# then; the bot reads them either way (see outbox).
os.environ.setdefault("PTB_TIMEDELTA", "1")

from .application import BasraTelegram, build_application
from .settings import TelegramSettings

__all__ = ["BasraTelegram", "TelegramSettings", "build_application"]
