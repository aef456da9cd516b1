"""The store on a PostgreSQL server, through asyncpg, for several bot processes at once.

Each call takes a connection from a pool; each write is one transaction, committed
before the call returns. What SQLite gets from having one process (a table row no
one else writes meanwhile) is got here from the server: ``append_events`` locks the
table's row before it checks the version, the (table_id, version) primary key still
refuses a doubled event, claims skip rows another process holds (``FOR UPDATE SKIP
LOCKED``), ``hold`` is a session advisory lock and ``take_window`` one locked row.

``hold`` takes its connection from a pool of its own, so that blocks holding keys can
never take every connection the store's reads and writes need.
"""

from .store import PostgresStore

__all__ = ["PostgresStore"]
