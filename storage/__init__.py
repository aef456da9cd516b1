"""Persistence for the table service: lobbies, match event logs, chats and profiles.

The service talks to the ``Store`` protocol only; ``open_store`` picks its
implementation from the database setting: ``SqliteStore`` on a file, for one process,
or ``PostgresStore`` on a server, for several. No SQL lives outside this package.
"""

from .errors import DamagedRow, DatabaseInUse, NotFound, OpenTableExists, StorageError, VersionConflict
from .factory import open_store
from .lead import Lead
from .location import is_postgres_url, redact
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
    PoolEntry,
    PoolInvite,
    PoolState,
    RatingChange,
    RatingEntry,
    Seat,
    SeatOutcome,
    SetAsideTable,
    Standing,
    StoredEvent,
    TableMode,
    TableRecord,
    TableStatus,
)
from .postgres import PostgresStore
from .protocol import Coordination, Store, TableStore
from .sqlite import SqliteStore

__all__ = [
    "DEFAULT_MU",
    "DEFAULT_RATING",
    "DEFAULT_SIGMA",
    "OPEN_STATUSES",
    "ChatSettings",
    "Coordination",
    "DamagedRow",
    "DamagedTable",
    "DatabaseInUse",
    "JsonDict",
    "Lead",
    "MatchResult",
    "NotFound",
    "OpenTableExists",
    "Outcome",
    "PlayerProfile",
    "PoolEntry",
    "PoolInvite",
    "PoolState",
    "PostgresStore",
    "RatingChange",
    "RatingEntry",
    "Seat",
    "SeatOutcome",
    "SetAsideTable",
    "SqliteStore",
    "Standing",
    "StorageError",
    "Store",
    "StoredEvent",
    "TableMode",
    "TableRecord",
    "TableStatus",
    "TableStore",
    "VersionConflict",
    "is_postgres_url",
    "open_store",
    "redact",
]
