"""Invitations to the pairing pool in SQLite (``Coordination.make_invite`` ...). One process
writes the file, one statement at a time, so using an invitation (one ``UPDATE`` that
checks it is unused and still good) uses it once however many press it at once.
"""

from __future__ import annotations

import sqlite3
from typing import Final

import aiosqlite

from .. import invites
from ..models import PoolInvite
from .connection import Connected

_FORGET: Final = "DELETE FROM pool_invites WHERE until < ?"
_MAKE: Final = "INSERT INTO pool_invites ({}) VALUES ({}) {}".format(
    ", ".join(invites.COLUMNS), ", ".join(f":{c}" for c in invites.COLUMNS),
    "ON CONFLICT (token) DO NOTHING RETURNING token",
)
_INVITE: Final = "SELECT * FROM pool_invites WHERE token = ?"
_USE: Final = (
    "UPDATE pool_invites SET used_by = ?, used_at = ? WHERE token = ? AND used_by IS NULL AND until > ?"
    " RETURNING *"
)


class SqliteInvites(Connected):
    """The pool's invitations, part of ``SqliteStore``."""

    async def make_invite(self, invite: PoolInvite) -> bool:
        values = invites.invite_values(invite)

        def work(db: sqlite3.Connection) -> bool:
            db.execute(_FORGET, (invite.made_at - invites.INVITES_KEPT,))
            return db.execute(_MAKE, values).fetchone() is not None

        return await self._write_sync(work)

    async def pool_invite(self, token: str) -> PoolInvite | None:
        async def work(conn: aiosqlite.Connection) -> PoolInvite | None:
            rows = await conn.execute_fetchall(_INVITE, (token,))
            return next((invites.invite_from_row(row) for row in rows), None)

        return await self._read(work)

    async def use_invite(self, token: str, by: str, at: float) -> PoolInvite | None:
        def work(db: sqlite3.Connection) -> PoolInvite | None:
            row = db.execute(_USE, (by, at, token, at)).fetchone()
            return None if row is None else invites.invite_from_row(row)

        return await self._write_sync(work)
