"""Erasing a person, and letting finished matches go: what both backends write.

A person who asks to be forgotten loses their profile (name, languages, totals), their
rating history, their private chat's settings, and their place in the pairing pool (their
entry, whom they were paired with, whom they blocked and who blocked them, which matches
they abandoned, the invitations they made or used). The matches they played stay, so
that the others' records still replay and their totals still add up, but the person's seat
in them becomes anonymous: every stored mention of their id (a table's seats, who opened
it, who a rematch waits for, a practice table's private chat, the partner someone's pool
entry came with) becomes one placeholder, the same everywhere, and their name goes.
Results keep the seat with no player, so leaderboards, which join results to profiles,
leave it out.

The rows are rewritten here, in Python, so that both backends change a table's JSON alike.

>>> seats = '[{"player_id":"tg:42","name":"Ana","team":0},{"computer":"beginner","team":1}]'
>>> anonymous_seats(seats, "tg:42", "tg:erased-1")
'[{"player_id":"tg:erased-1","name":null,"team":0},{"computer":"beginner","team":1}]'
>>> anonymous_header('{"expected":["tg:42","tg:7"],"level":"strong"}', "tg:42", "tg:erased-1")
'{"expected":["tg:erased-1","tg:7"],"level":"strong"}'
"""

from __future__ import annotations

import secrets
from typing import Any, Final

from . import codec

#: Closed tables: what ``prune_finished`` may delete, and whose chat an erasure renames.
CLOSED_STATUSES: Final = ("finished", "cancelled", "expired")
CLOSED: Final = "status IN ({})".format(", ".join(f"'{s}'" for s in CLOSED_STATUSES))


def placeholder_for(player_id: str) -> str:
    """A new anonymous id for an erased person, on their platform (``tg:erased-3f9a…``):
    random, so that it cannot be traced back to the person, and one per erasure."""
    platform = player_id.partition(":")[0] or "anon"
    return f"{platform}:erased-{secrets.token_hex(6)}"


def anonymous_seats(seats: str, player_id: str, placeholder: str) -> str:
    """A table's seats (JSON) with ``player_id``'s seat made anonymous."""
    rows: list[dict[str, Any]] = codec.loads(seats) or []
    for seat in rows:
        if isinstance(seat, dict) and seat.get("player_id") == player_id:
            seat["player_id"] = placeholder
            seat["name"] = None
    return codec.dumps(rows)


def anonymous_header(header: str | None, player_id: str, placeholder: str) -> str | None:
    """A table's header (JSON) with ``player_id`` replaced in who a rematch waits for."""
    data = codec.loads(header)
    if not isinstance(data, dict) or not isinstance(data.get("expected"), list):
        return header
    data["expected"] = [placeholder if p == player_id else p for p in data["expected"]]
    return codec.dumps(data)
