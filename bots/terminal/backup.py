"""``basra backup DEST``: a checked copy of the database, safe while a bot plays on it.

The copy is SQLite's online backup of one committed state of the file
(``storage.backup``): it needs read access only, not the lock a running bot
holds, and every play acknowledged before it began is in it. ``DEST`` is the
file to write, or a folder to write ``basra-<UTC date and time>.sqlite3`` in;
an existing file is replaced only with ``--overwrite``. One line says where
the copy is, or why there is none: in the operator's language (``--lang``, else
the locale's, else English: ``operator_language``), with paths as they are, no
bidirectional isolates around them, so that cron's mail and a log show them
byte for byte.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TextIO

from storage.backup import BackupExists, CopyDamaged, NoDatabase, copy_database

from ..i18n import Translator
from .texts import BACKED_UP, BACKUP_EXISTS, COPY_DAMAGED, NO_DATABASE


def destination(database: Path, dest: str, now: float) -> Path:
    """``dest`` itself, or in a folder (one that exists, or any written with a final ``/``)
    a file named for the time of the copy.

    >>> destination(Path("basra.sqlite3"), "/tmp", 0.0)
    PosixPath('/tmp/basra-19700101-000000.sqlite3')
    """
    path = Path(dest)
    if not path.is_dir() and not dest.endswith(os.sep):
        return path
    stamp = time.strftime("%Y%m%d-%H%M%S", time.gmtime(now))
    return path / f"{database.stem}-{stamp}{database.suffix}"


def backup(database: Path, dest: str, overwrite: bool, t: Translator, out: TextIO, err: TextIO) -> int:
    """Copy ``database`` to ``dest``: 0 when copied and checked, 1 when ``dest`` exists (and
    is kept), 2 when there is nothing to copy or the copy is damaged (``StorageError``, for
    a file that cannot be read or written, is the caller's to say)."""
    target = destination(database, dest, time.time())
    source = str(database.resolve())
    try:
        copied = copy_database(database, target, overwrite=overwrite)
    except NoDatabase:
        print(t.gettext(NO_DATABASE, path=source, option="--database"), file=err)
        return 2
    except BackupExists:
        print(t.gettext(BACKUP_EXISTS, dest=str(target), option="--overwrite"), file=err)
        return 1
    except CopyDamaged as damaged:
        print(t.gettext(COPY_DAMAGED, source=source, problem=damaged.problem), file=err)
        return 2
    size = max(1, round(copied.size / 1024))
    print(t.gettext(BACKED_UP, source=source, dest=str(copied.path.resolve()), size=size,
                    schema=copied.schema), file=out)
    return 0
