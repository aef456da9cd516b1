"""``basra export``: the record of the terminal's last finished match, as a file.

The record (``basra-record/1``) holds every deal and play, so it is written
only for a match that has finished; the match being played, if any, is left
alone until it ends. The file is named as the bots name it
(``basra-2025-01-31-a1b2c3.json``) in the current folder, or ``--output``
names it; ``--output -`` writes the record to standard output instead. What it says
is printed without bidirectional isolates (``screen.terminal_text``), so that the
command it names can be copied as it is.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import TextIO

from storage import open_store

from ..i18n import Translator, isolate, user_text
from ..service.records import RecordFile, last_record
from .screen import terminal_text
from .session import TerminalPlatform
from .texts import NO_RECORD, NOT_WRITTEN, WROTE

STANDARD_OUTPUT = "-"


async def finished_record(database: Path | str, chat: str) -> RecordFile | None:
    """The chat's last finished match's record; None without one (or without a database)."""
    if isinstance(database, Path) and not database.exists():
        return None
    async with open_store(database, exclusive=True) as store:
        return await last_record(store, chat, TerminalPlatform.owner)


async def export(database: Path | str, chat: str, output: str | None, t: Translator, out: TextIO,
                 err: TextIO) -> int:
    """Write the record where ``output`` says; 0 when written, 1 when there is none, 2 when
    the file cannot be written."""
    record = await finished_record(database, chat)
    if record is None:
        print(terminal_text(t.gettext(NO_RECORD, command=isolate("basra play"))), file=err)
        return 1
    if output == STANDARD_OUTPUT:
        out.write(record.data.decode())
        out.flush()
        return 0
    path = Path(output) if output else Path(record.name)
    try:
        path.write_bytes(record.data)
    except OSError as error:
        said = t.gettext(NOT_WRITTEN, path=user_text(str(path)), reason=error.strerror or error)
        print(terminal_text(said), file=err)
        return 2
    day = time.strftime("%Y-%m-%d", time.gmtime(record.finished_at))
    command = isolate(f"python -m core replay {path} --plays")
    said = t.gettext(WROTE, date=isolate(day), path=user_text(str(path)), command=command)
    print(terminal_text(said), file=out)
    return 0
