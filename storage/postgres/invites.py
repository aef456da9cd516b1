"""Invitations to the pairing pool in PostgreSQL (``Coordination.make_invite`` ...), shared
by every process on the database: using an invitation is one ``UPDATE`` that locks its row
and checks it is unused and still good, so two presses at once, in any processes, use it
once.
"""

from __future__ import annotations

from typing import Final

from .. import invites
from ..models import PoolInvite
from .connection import Connected
from .sql import Connection

# Expired invitations another making is forgetting at this moment are left to it.
_FORGET: Final = (
    "DELETE FROM pool_invites WHERE token = ANY(ARRAY("
    "SELECT token FROM pool_invites WHERE until < $1 FOR UPDATE SKIP LOCKED))"
)
_MAKE: Final = "INSERT INTO pool_invites ({}) VALUES ({}) {}".format(
    ", ".join(invites.COLUMNS), ", ".join(f"${n}" for n in range(1, len(invites.COLUMNS) + 1)),
    "ON CONFLICT (token) DO NOTHING RETURNING token",
)
_INVITE: Final = "SELECT * FROM pool_invites WHERE token = $1"
_USE: Final = (
    "UPDATE pool_invites SET used_by = $2, used_at = $3 WHERE token = $1 AND used_by IS NULL AND until > $3"
    " RETURNING *"
)


class PostgresInvites(Connected):
    """The pool's invitations, part of ``PostgresStore``."""

    async def make_invite(self, invite: PoolInvite) -> bool:
        values = invites.invite_values(invite)

        async def work(conn: Connection) -> bool:
            await conn.execute(_FORGET, invite.made_at - invites.INVITES_KEPT)
            return await conn.fetchval(_MAKE, *(values[c] for c in invites.COLUMNS)) is not None

        return await self._write(work)

    async def pool_invite(self, token: str) -> PoolInvite | None:
        async def work(conn: Connection) -> PoolInvite | None:
            row = await conn.fetchrow(_INVITE, token)
            return None if row is None else invites.invite_from_row(row)

        return await self._read(work)

    async def use_invite(self, token: str, by: str, at: float) -> PoolInvite | None:
        async def work(conn: Connection) -> PoolInvite | None:
            row = await conn.fetchrow(_USE, token, by, at)
            return None if row is None else invites.invite_from_row(row)

        return await self._read(work)  # one statement: its own transaction
