"""Choosing the backend from the one setting that names the database (``BASRA_DATABASE``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from .location import is_postgres_url
from .protocol import Store


def open_store(
    database: str | Path, *, exclusive: bool = False, clock: Callable[[], float] = time.time
) -> Store:
    """The store for ``database``, not yet opened (``async with open_store(...) as store``).

    A ``postgresql://`` or ``postgres://`` URL gives a ``PostgresStore``, which any number
    of processes may share; anything else is the path of an SQLite file, for one process
    (``exclusive``: hold ``storage.lock.ProcessLock`` while open, so a second one refuses
    to start).
    """
    if is_postgres_url(database):
        from .postgres import PostgresStore  # asyncpg is loaded only for a server

        return PostgresStore(str(database).strip(), clock=clock)
    from .sqlite import SqliteStore

    return SqliteStore(database, exclusive=exclusive, clock=clock)
