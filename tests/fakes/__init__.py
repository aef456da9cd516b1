"""Local fakes of the chat servers, so bot tests run the real client libraries offline."""

from .telegram_api import TELEGRAM_FLOOD_LIMITS, FakeRequest, FakeTelegram
from .telegram_faults import FloodLimit
from .telegram_models import (
    ApiCall,
    Button,
    CallbackAnswer,
    CallbackQueryRecord,
    FakeChat,
    FakeDocument,
    FakeMessage,
    FakeUsageError,
    FakeUser,
    MessageVersion,
    Upload,
)

__all__ = [
    "TELEGRAM_FLOOD_LIMITS",
    "ApiCall",
    "Button",
    "CallbackAnswer",
    "CallbackQueryRecord",
    "FakeChat",
    "FakeDocument",
    "FakeMessage",
    "FakeRequest",
    "FakeTelegram",
    "FakeUsageError",
    "FakeUser",
    "FloodLimit",
    "MessageVersion",
    "Upload",
]
