"""Choosing the backend from the one setting that names the database (``BASRA_DATABASE``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from .location import is_postgres_url
from .protocol import Store

#: The session setting under which migration 005's trigger notifies (PostgreSQL).
ANNOUNCE = "basra.announce"


def open_store(
    database: str | Path,
    *,
    exclusive: bool = False,
    clock: Callable[[], float] = time.time,
    announce: bool = False,
) -> Store:
    """The store for ``database``, not yet opened (``async with open_store(...) as store``).

    A ``postgresql://`` or ``postgres://`` URL gives a ``PostgresStore``, which any number
    of processes may share; anything else is the path of an SQLite file, for one process
    (``exclusive``: hold ``storage.sqlite.lock.ProcessLock`` while open, so a second one refuses
    to start). ``announce``: on PostgreSQL, each new version or status of a table this
    store writes is told to every process listening (``Store.changes``); a notification
    costs every notifying commit of the database a shared lock, so only the processes
    whose changes someone listens for (the web table's) announce them.
    """
    if is_postgres_url(database):
        from .postgres import PostgresStore  # asyncpg is loaded only for a server

        settings = {ANNOUNCE: "on"} if announce else None
        return PostgresStore(str(database).strip(), clock=clock, server_settings=settings)
    from .sqlite import SqliteStore

    return SqliteStore(database, exclusive=exclusive, clock=clock)
