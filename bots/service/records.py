"""A finished match's record (``basra-record/1``) as a file a player can keep.

The record is the engine's own (``Match.to_record``): the rules, the first
dealer, every round's deck and every play, which ``python -m core replay``
plays back. The decks tell every hand and the stock, so a record is given
only once its match has finished (reached its target, or a side resigned or
ran out of time), never while it is played. It names nobody: seats, not
people. A practice match closed for sitting idle is not finished, and has none.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from storage import Store, TableRecord

from .errors import MatchNotOver, NoSuchTable
from .live import fold

#: How much of the table id a file name carries: enough to tell a chat's matches apart.
SHORT_ID = 6


@dataclass(frozen=True, slots=True)
class RecordFile:
    """A finished match's record: ``name`` (``basra-2025-01-31-a1b2c3.json``) and ``data``,
    the record as UTF-8 JSON; ``finished_at`` in epoch seconds."""

    table_id: str
    chat_id: str
    name: str
    data: bytes
    finished_at: float


def file_name(table_id: str, finished_at: float) -> str:
    """The day it finished (UTC) and the start of the table id.

    >>> file_name("a1b2c3d4e5f6", 1_738_281_600.0)
    'basra-2025-01-31-a1b2c3.json'
    """
    day = time.strftime("%Y-%m-%d", time.gmtime(finished_at))
    return f"basra-{day}-{table_id[:SHORT_ID]}.json"


def record_json(record: Mapping[str, Any]) -> str:
    """The record as JSON with one field to a line, each field's value on its line (a deck
    is one line, not 52), so that the file reads well in any editor.

    >>> print(record_json({"format": "basra-record/1", "plays": ["5S", "KD/2"]}))
    {
      "format": "basra-record/1",
      "plays": ["5S", "KD/2"]
    }
    """
    fields = [f"  {json.dumps(key)}: {json.dumps(value)}" for key, value in record.items()]
    return "{\n" + ",\n".join(fields) + "\n}"


async def finished_record(store: Store, table: TableRecord) -> RecordFile:
    """The record of a finished table, read from its event log."""
    if table.status != "finished" or table.version == 0:
        raise MatchNotOver() if table.is_open else NoSuchTable(f"table {table.table_id} has no record")
    events = await store.load_events(table.table_id)
    match, _ = fold([e.data for e in events])
    finished_at = events[-1].at if events else table.updated_at
    data = (record_json(match.to_record()) + "\n").encode()
    name = file_name(table.table_id, finished_at)
    return RecordFile(table.table_id, table.chat_id, name, data, finished_at)


async def last_record(store: Store, chat_id: str, owner: str) -> RecordFile | None:
    """The record of the chat's last finished match of the bot ``owner``, if any."""
    table = await store.last_finished_table(chat_id, owner)
    return await finished_record(store, table) if table is not None else None
