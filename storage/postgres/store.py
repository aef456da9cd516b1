"""The PostgreSQL store, whole: its rows and its coordination over the server's connections."""

from __future__ import annotations

from .coordination import PostgresCoordination
from .erasure import PostgresErasure
from .invites import PostgresInvites
from .pool import PostgresPool
from .rows import PostgresRows
from .setaside import PostgresSetAside


class PostgresStore(PostgresRows, PostgresErasure, PostgresSetAside, PostgresCoordination, PostgresPool,
                    PostgresInvites):
    """A ``storage.Store`` on the PostgreSQL database at ``url`` (its schema made or

    brought up to date on ``open``), shared by any number of processes (``shared``).

    ``clock`` gives the epoch seconds stamped on rows. ``max_connections`` bounds the
    pool for reads and writes, ``max_holds`` the one for ``hold``; ``server_settings``
    go to every connection (``{"search_path": ...}`` keeps the tables in a schema).
    """
