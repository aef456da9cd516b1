"""Storage errors: one base class, so the service can catch every refusal at once."""

from __future__ import annotations


class StorageError(Exception):
    """Base of every error the store raises on purpose."""


class VersionConflict(StorageError):
    """A write based on a stale read: a doubled or out-of-date action.

    The write changed nothing; reload the table and decide again.
    """


class NotFound(StorageError):
    """The table or player a write refers to does not exist."""


class OpenTableExists(StorageError):
    """The chat already has an open table (a lobby or a running match).

    A chat runs one table at a time; the database enforces it with a partial
    unique index, so two lobbies opened at the same moment cannot both win.
    """


class DatabaseInUse(StorageError):
    """Another bot process holds the database file (see ``storage.sqlite.lock``)."""


class DamagedRow(StorageError):
    """A table's row that cannot be read (JSON that does not parse, a field the model
    refuses): what is known of it, so that it can be set aside and its chat told."""

    def __init__(self, table_id: str, chat_id: str, status: str, reason: str) -> None:
        super().__init__(f"table {table_id} is damaged: {reason}")
        self.table_id = table_id
        self.chat_id = chat_id
        self.status = status
        self.reason = reason
