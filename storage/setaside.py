"""Setting a table aside, as both backends say it (``Store.set_aside``): the statements,
given the backend's placeholders, and the rows of ``set_aside_tables``."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Final

from .clocks import OPEN, shift_while_open
from .models import SetAsideTable


def close(table_id: str) -> str:
    """SQL: close the open table ``table_id`` (a placeholder) in place, a lobby as cancelled
    and a match as expired, its deadline gone and its due time kept as it is now."""
    return (
        "UPDATE tables SET status = CASE status WHEN 'lobby' THEN 'cancelled' ELSE 'expired' END,"
        f" deadline = NULL, due_at = due_at + {shift_while_open('tables.owner', 'tables.status')}"
        f" WHERE table_id = {table_id} AND {OPEN}"
    )


def note(table_id: str, reason: str, at: str) -> str:
    """SQL: note why the table was set aside, once (placeholders all three)."""
    return (
        f"INSERT INTO set_aside (table_id, reason, at) VALUES ({table_id}, {reason}, {at})"
        " ON CONFLICT (table_id) DO NOTHING"
    )


LIST: Final = (
    "SELECT s.table_id, t.chat_id, t.status, s.reason, s.at FROM set_aside s"
    " JOIN tables t ON t.table_id = s.table_id ORDER BY s.at DESC, s.table_id"
)


def listed(rows: Iterable[Any]) -> list[SetAsideTable]:
    """``LIST``'s rows as ``SetAsideTable``."""
    return [SetAsideTable(str(r[0]), str(r[1]), str(r[2]), str(r[3]), float(r[4])) for r in rows]
