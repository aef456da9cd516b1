"""The Telegram bot: python-telegram-bot 22 in front of the shared table service.

The table lives in the group, each player's hand in their private chat with
the bot. ``delivery`` turns the service's notices into messages (one lobby
message, one table message per round, one live hand message per player),
``handlers`` turns commands and button presses into service calls, and
``outbox`` sends with retries, skips edits that would change nothing and
reports chats the bot may not write to. Run it with ``python -m bots.telegram``.
"""

from .application import BasraTelegram, build_application
from .settings import TelegramSettings

__all__ = ["BasraTelegram", "TelegramSettings", "build_application"]
