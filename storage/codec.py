"""Turning models into SQL parameters and rows back into models.

JSON is written compactly, keeps non-ASCII names readable in the file, and
refuses NaN so every stored document is valid JSON for any reader.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from pydantic import ValidationError

from .errors import DamagedRow
from .models import (
    ChatSettings,
    DamagedTable,
    MatchResult,
    PlayerProfile,
    RatingEntry,
    Standing,
    StoredEvent,
    TableRecord,
)

if TYPE_CHECKING:
    from _typeshed import SupportsKeysAndGetItem

    #: A row as either driver gives it: sqlite3.Row or asyncpg.Record.
    Row = SupportsKeysAndGetItem[str, Any]

TABLE_COLUMNS: Final = (
    "table_id",
    "chat_id",
    "platform",
    "owner",
    "status",
    "mode",
    "created_by",
    "created_at",
    "updated_at",
    "rules",
    "seats",
    "header",
    "version",
    "revision",
    "deadline",
    "due_at",
    "warned",
    "result",
    "rated",
)
_TABLE_JSON: Final = ("rules", "seats", "header", "result")


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def event_kind(event: Mapping[str, Any]) -> str:
    """The event's name, kept in its own column for reading the log by eye."""
    kind = event.get("kind", event.get("type", ""))
    return kind if isinstance(kind, str) else str(kind)


def encoded_events(
    table_id: str,
    events: Sequence[Mapping[str, Any]],
    table: TableRecord | None,
    result: MatchResult | None,
) -> list[tuple[str, str]]:
    """``Store.append_events``' arguments checked, and its events as (kind, JSON) rows."""
    if not events:
        raise ValueError(f"no events to append to table {table_id!r}")
    if table is not None and table.table_id != table_id:
        raise ValueError(f"record of table {table.table_id!r} given for {table_id!r}")
    if result is not None and result.table_id != table_id:
        raise ValueError(f"result of table {result.table_id!r} given for {table_id!r}")
    return [(event_kind(event), dumps(dict(event))) for event in events]


def table_params(table: TableRecord) -> dict[str, Any]:
    params = table.model_dump(mode="json")
    for name in _TABLE_JSON:
        params[name] = None if params[name] is None else dumps(params[name])
    params["warned"] = int(table.warned)
    params["rated"] = int(table.rated)
    return params


def table_from_row(row: Row) -> TableRecord:
    data = dict(row)
    for name in _TABLE_JSON:
        data[name] = loads(data[name])
    return TableRecord.model_validate(data)


def readable_table(row: Row) -> TableRecord:
    """The row as a table; DamagedRow, naming the table and its chat, if it cannot be read."""
    found = table_or_damage(row)
    if isinstance(found, DamagedTable):
        raise DamagedRow(found.table_id, found.chat_id, found.status, found.reason)
    return found


def table_or_damage(row: Row) -> TableRecord | DamagedTable:
    """The row as a table, or what is known of it if it cannot be read (bad JSON, a
    field pydantic refuses), so one damaged row does not hide the others."""
    try:
        return table_from_row(row)
    except (ValueError, TypeError) as error:
        reason = _what_is_wrong(error)
        return DamagedTable(
            str(row["table_id"]),
            str(row["chat_id"]),
            str(row["platform"]),
            str(row["owner"]),
            str(row["status"]),
            reason,
        )


def _what_is_wrong(error: ValueError | TypeError) -> str:
    """One short line: for a field pydantic refuses, which field and why (never its value,
    which may be a hand)."""
    if isinstance(error, ValidationError):
        first = error.errors(include_url=False, include_input=False)[0]
        where = ".".join(str(part) for part in first["loc"]) or error.title
        return f"{error.title}.{where}: {first['msg']}"[:200]
    return f"{type(error).__name__}: {(str(error).splitlines() or [''])[0]}"[:200]


def event_from_row(row: Row) -> StoredEvent:
    return StoredEvent(version=row["version"], kind=row["kind"], data=loads(row["data"]), at=row["at"])


def settings_from_row(row: Row) -> ChatSettings:
    data = dict(row)
    data.pop("updated_at", None)
    data["rules"] = loads(data["rules"])
    return ChatSettings.model_validate(data)


def player_from_row(row: Row) -> PlayerProfile:
    return PlayerProfile.model_validate(dict(row))


def rating_entry_from_row(row: Row) -> RatingEntry:
    return RatingEntry.model_validate(dict(row))


def standing_from_row(row: Row) -> Standing:
    return Standing.model_validate(dict(row))
