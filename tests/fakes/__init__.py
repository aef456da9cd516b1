"""Local fakes of the chat servers, so bot tests run the real client libraries offline."""

from .telegram_api import TELEGRAM_FLOOD_LIMITS, FakeRequest, FakeTelegram
from .telegram_faults import FloodLimit
from .telegram_models import (
    ApiCall,
    Button,
    CallbackAnswer,
    CallbackQueryRecord,
    FakeChat,
    FakeMessage,
    FakeUsageError,
    FakeUser,
    MessageVersion,
)

__all__ = [
    "TELEGRAM_FLOOD_LIMITS",
    "ApiCall",
    "Button",
    "CallbackAnswer",
    "CallbackQueryRecord",
    "FakeChat",
    "FakeMessage",
    "FakeRequest",
    "FakeTelegram",
    "FakeUsageError",
    "FakeUser",
    "FloodLimit",
    "MessageVersion",
]
