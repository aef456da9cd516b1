"""Invitations to the pairing pool, as both backends keep them (``Coordination.make_invite``
...): an invitation's columns and values as written, and its row read back.

>>> invite = PoolInvite(token="Zx_4-abcdEFGH", inviter="tg:1", chat_id="tg:1", name="Amal",
...                     searching=True, made_at=10.0, until=610.0)
>>> invite_from_row(invite_values(invite)) == invite
True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from .models import PoolInvite

if TYPE_CHECKING:
    from .codec import Row

COLUMNS: Final = (
    "token",
    "inviter",
    "chat_id",
    "name",
    "lang",
    "mode",
    "searching",
    "made_at",
    "until",
    "used_by",
    "used_at",
)

#: Seconds an invitation is kept once it has expired: making one forgets those older.
INVITES_KEPT: Final = 86400.0


def invite_values(invite: PoolInvite) -> dict[str, Any]:
    """The invitation's values by column."""
    return invite.model_dump()


def invite_from_row(row: Row) -> PoolInvite:
    return PoolInvite.model_validate(dict(row))
