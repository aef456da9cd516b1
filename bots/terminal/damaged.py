"""``basra damaged``: the tables set aside because their rows could not be read.

A bot that meets a table it cannot read (an event that no longer folds, seats that are not
seats) closes it, tells its chat, logs one line and goes on with the others; the store notes
each one with why (``Store.set_aside``). This lists them, the latest first, a line each, in
the operator's language; ``--output FILE`` (``-``: standard output) also writes their rows
as stored, every column as the text it holds, so that they can be looked at or mended by
hand: ``{"format": "basra-set-aside/1", "tables": [{"table_id", "chat_id", "status",
"reason", "set_aside_at", "table": {...}, "events": [...]}]}``. It reads SQLite alongside a
running bot, and PostgreSQL.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any, TextIO

from storage import open_store

from ..i18n import Translator

FORMAT = "basra-set-aside/1"
STANDARD_OUTPUT = "-"


async def set_aside_rows(database: Path | str) -> list[dict[str, Any]]:
    """Every table set aside, with its stored rows (empty without a database file)."""
    if isinstance(database, Path) and not database.exists():
        return []
    found: list[dict[str, Any]] = []
    async with open_store(database) as store:
        for table in await store.set_aside_tables():
            rows = await store.stored_rows(table.table_id) or {"table": None, "events": []}
            found.append({"table_id": table.table_id, "chat_id": table.chat_id, "status": table.status,
                          "reason": table.reason, "set_aside_at": table.at, **rows})
    return found


async def damaged(database: Path | str, output: str | None, t: Translator, out: TextIO, err: TextIO) -> int:
    """List the tables set aside and write their rows where ``output`` says; 0 when done, 2
    when the file cannot be written."""
    tables = await set_aside_rows(database)
    listing = err if output == STANDARD_OUTPUT else out  # standard output carries the JSON then
    if not tables:
        print(t.gettext("No table has been set aside."), file=listing)
    for table in tables:
        when = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(table["set_aside_at"]))
        # TRANSLATORS: basra damaged, a line per table closed because its saved rows could not
        # be read; {reason} is the error, in English, as logged.
        print(t.gettext("Table {table} of chat {chat}, set aside {when}: {reason}", table=table["table_id"],
                        chat=table["chat_id"], when=when, reason=table["reason"]), file=listing)
    if output is None:
        return 0
    text = json.dumps({"format": FORMAT, "tables": tables}, ensure_ascii=False, indent=1) + "\n"
    if output == STANDARD_OUTPUT:
        out.write(text)
        out.flush()
        return 0
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        print(t.gettext("{path} could not be written: {reason}", path=output,
                        reason=error.strerror or error), file=err)
        return 2
    print(t.ngettext("The stored rows of {count} table are in {path}.",
                     "The stored rows of {count} tables are in {path}.", len(tables),
                     count=len(tables), path=output), file=out)
    return 0
