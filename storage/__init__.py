"""Persistence for the table service: lobbies, match event logs, chats and profiles.

The service talks to the ``Store`` protocol only; ``SqliteStore`` is the
implementation. No SQL lives outside this package.
"""

from .errors import DatabaseInUse, NotFound, OpenTableExists, StorageError, VersionConflict
from .models import (
    DEFAULT_MU,
    DEFAULT_RATING,
    DEFAULT_SIGMA,
    OPEN_STATUSES,
    ChatSettings,
    DamagedTable,
    JsonDict,
    MatchResult,
    Outcome,
    PlayerProfile,
    RatingChange,
    RatingEntry,
    Seat,
    SeatOutcome,
    Standing,
    StoredEvent,
    TableMode,
    TableRecord,
    TableStatus,
)
from .protocol import Store
from .sqlite import SqliteStore

__all__ = [
    "DEFAULT_MU",
    "DEFAULT_RATING",
    "DEFAULT_SIGMA",
    "OPEN_STATUSES",
    "ChatSettings",
    "DamagedTable",
    "DatabaseInUse",
    "JsonDict",
    "MatchResult",
    "NotFound",
    "OpenTableExists",
    "Outcome",
    "PlayerProfile",
    "RatingChange",
    "RatingEntry",
    "Seat",
    "SeatOutcome",
    "SqliteStore",
    "Standing",
    "StorageError",
    "Store",
    "StoredEvent",
    "TableMode",
    "TableRecord",
    "TableStatus",
    "VersionConflict",
]
