"""The SQLite store, whole: its rows and its coordination over one connection."""

from __future__ import annotations

from .coordination import SqliteCoordination
from .erasure import SqliteErasure
from .invites import SqliteInvites
from .pool import SqlitePool
from .rows import SqliteRows
from .setaside import SqliteSetAside


class SqliteStore(SqliteRows, SqliteErasure, SqliteSetAside, SqliteCoordination, SqlitePool,
                  SqliteInvites):
    """A ``storage.Store`` on the SQLite file at ``path`` (created if missing).

    One process uses the file (``shared`` is False): ``hold`` locks and rate windows
    are kept in the process, and claims only ever meet claims of the same process.

    ``clock`` gives the epoch seconds stamped on rows; tests may pass their own.
    ``exclusive``: hold ``storage.sqlite.lock.ProcessLock`` while open, so that a second bot
    process on the same file refuses to start (``DatabaseInUse``).
    """
