"""The tables' clocks in SQL, as both backends say it: a bot's stops move them with one row.

A bot's shift (``clock_shifts``, SQLite migration 011, PostgreSQL 009) is the sum of its
downtimes. An open table's ``deadline`` and ``due_at`` are stored less its bot's shift as
it was when the row was written, and read with the shift as it is now added: when
``Store.resume`` adds a downtime to the shift, every open table of the bot is due that much
later, and no table row is written. A closed table's times are stored as they are (its
clock no longer runs, and ``basra damaged`` exports its row as it is).

A query for due work compares the stored column with the time less the shift (``due_at <=
now - shift``), one bot at a time, so it still reads the index of due times in order.
Placeholders differ between the backends, so the statements that take them are built by
functions given the backend's placeholders.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from .codec import TABLE_COLUMNS
from .erasure import CLOSED
from .models import OPEN_STATUSES

_OPEN_LIST: Final = ", ".join(f"'{s}'" for s in OPEN_STATUSES)
#: An open table (a lobby or a running match), in SQL.
OPEN: Final = f"status IN ({_OPEN_LIST})"

#: The columns stored less the bot's shift while the table is open.
SHIFTED: Final = ("deadline", "due_at")

#: Downtimes are added to a shift in steps of 2**-20 s (about a microsecond). An epoch
#: time (below 2**33 s, the year 2242) is a whole multiple of its double's precision, which
#: is 2**-20 or finer, and so is a shift smaller than it: their difference is a double
#: exactly, and a time stored less a shift comes back as written when it is added back.
STEP: Final = 2.0**-20


def step(seconds: float) -> float:
    """``seconds`` to the nearest step of a shift."""
    return round(seconds / STEP) * STEP


def shift_of(owner: str) -> str:
    """SQL: the shift of the bot ``owner`` (a column or a placeholder), 0 if it has none."""
    return f"COALESCE((SELECT shift FROM clock_shifts WHERE clock_shifts.owner = {owner}), 0)"


def shift_while_open(owner: str, status: str) -> str:
    """SQL: the shift a row of the bot ``owner`` in ``status`` has its times stored less (a
    closed table's: none)."""
    return f"CASE WHEN {status} IN ({_OPEN_LIST}) THEN {shift_of(owner)} ELSE 0 END"


def _read(column: str) -> str:
    if column not in SHIFTED:
        return column
    return f"{column} + {shift_while_open('tables.owner', 'tables.status')} AS {column}"


#: The columns of a table row as ``codec`` reads them, its times as they are now.
READ_COLUMNS: Final = ", ".join(_read(column) for column in TABLE_COLUMNS)
SELECT_TABLE: Final = f"SELECT {READ_COLUMNS} FROM tables"
RETURNING: Final = f"RETURNING {READ_COLUMNS}"


def written(column: str, value: str, owner: str, status: str) -> str:
    """SQL: what to store in ``column`` for ``value`` (placeholders all three: the row's
    owner and status as written)."""
    return f"{value} - {shift_while_open(owner, status)}" if column in SHIFTED else value


def adopted(owner: str) -> str:
    """SQL: the ``SET`` of a table without an owner taken by the bot ``owner`` (a
    placeholder): its times, written when it had no shift, stored less the bot's."""
    return ", ".join(f"{c} = {c} - {shift_while_open(owner, 'status')}" for c in SHIFTED)


#: On closing a table in place (``set_aside``): its times stored as they are now.
CLOSED_AS_THEY_ARE: Final = ", ".join(
    f"{c} = {c} + {shift_while_open('tables.owner', 'tables.status')}" for c in SHIFTED
)


def due_query(
    owners: Sequence[str],
    after: str | None,
    until: str | None,
    limit: str | None,
    *,
    claimable: str = "",
    lock: str = "",
) -> str:
    """SQL: ``(table_id, due)`` of the open tables of the bots ``owners`` (placeholders)
    due after ``after`` and until ``until`` (placeholders, or None: no bound), ``due`` as
    it is now, soonest first (then by id), at most ``limit`` (a placeholder, or None); with
    ``claimable``, only rows that meet it too; ``lock``: how each bot's rows are locked as
    they are read (PostgreSQL's ``FOR UPDATE SKIP LOCKED``). Each bot's rows are read in
    the order of the index of due times, their bounds made stored times by its shift."""
    parts = []
    for owner in owners:
        shift = shift_of(owner)
        where = [f"owner = {owner}", OPEN, "due_at IS NOT NULL"]
        if after is not None:
            where.append(f"due_at > {after} - {shift}")
        if until is not None:
            where.append(f"due_at <= {until} - {shift}")
        if claimable:
            where.append(claimable)
        parts.append(
            f"SELECT table_id, due_at + {shift} AS due FROM tables WHERE {' AND '.join(where)}"
            f" ORDER BY due_at, table_id{f' LIMIT {limit}' if limit is not None else ''}"
            f"{f' {lock}' if lock else ''}"
        )
    if len(parts) == 1:
        return parts[0]
    each = " UNION ALL ".join(f"SELECT table_id, due FROM ({part}) AS of_{n}" for n, part in enumerate(parts))
    return f"{each} ORDER BY due, table_id{f' LIMIT {limit}' if limit is not None else ''}"


def changed_query(
    owners: Sequence[str], since: str, before: tuple[str, str] | None, limit: str | None
) -> str:
    """SQL: ``(table_id, updated_at)`` of the tables of the bots ``owners`` (placeholders)
    written at or after ``since``, the latest first (then by id); with ``before`` (the
    placeholders of a row's ``updated_at`` and id), only those after that row in this
    order; at most ``limit``. Each bot's open and closed tables are read from their own
    index of writes, a few at a time, not the whole table."""
    parts = []
    for owner in owners:
        for status in (OPEN, CLOSED):
            where = [f"owner = {owner}", status, f"updated_at >= {since}"]
            if before is not None:
                at, table_id = before
                where.append(f"(updated_at < {at} OR (updated_at = {at} AND table_id > {table_id}))")
            parts.append(
                f"SELECT table_id, updated_at FROM tables WHERE {' AND '.join(where)}"
                f" ORDER BY updated_at DESC, table_id{f' LIMIT {limit}' if limit is not None else ''}"
            )
    each = " UNION ALL ".join(
        f"SELECT table_id, updated_at FROM ({part}) AS of_{n}" for n, part in enumerate(parts)
    )
    return f"{each} ORDER BY updated_at DESC, table_id{f' LIMIT {limit}' if limit is not None else ''}"


def due_rows(rows: Iterable[Any]) -> list[tuple[str, float]]:
    """``due_query``'s and ``changed_query``'s rows as ``(table_id, time)``."""
    return [(str(row[0]), float(row[1])) for row in rows]
