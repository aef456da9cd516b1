"""One process per database file: a lock held beside the file for as long as a bot runs.

Two bot processes on one SQLite file would each keep tables in memory and
answer presses from a stale copy. ``ProcessLock`` takes an exclusive
``flock`` on ``<database>.lock`` (released by the kernel when the process
ends, however it ends) and writes the holder's pid into it, so a second
process can say who holds it. Several processes on one database is what
PostgreSQL is for (``storage.postgres``), and the refusal says so.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from ..errors import DatabaseInUse, StorageError


class ProcessLock:
    def __init__(self, database: Path) -> None:
        self.path = database.parent / (database.name + ".lock")
        self._fd: int | None = None

    def acquire(self) -> None:
        """Hold the lock, or raise ``DatabaseInUse`` naming the process that does."""
        if self._fd is not None:
            return
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as error:
            database = str(self.path)[: -len(".lock")]
            raise StorageError(
                f"cannot use {database!r}: cannot write its lock file beside it ({error.strerror})"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise DatabaseInUse(
                f"{str(self.path)[: -len('.lock')]!r} is in use by another Basra process (pid {holder}): "
                "one process per SQLite file; for several processes on one database, set "
                "BASRA_DATABASE to a PostgreSQL URL (postgresql://...)"
            ) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.ftruncate(fd, 0)
            os.close(fd)
