"""Copies of a database file, safe to take while a bot is writing it.

``copy_database`` reads the file through a read-only connection and SQLite's
online backup API, in one step: the copy is one committed state of the file,
with every write acknowledged before it began and none half-made. It needs
read access and no process lock (``storage.sqlite.lock``), so a running bot goes on
playing meanwhile. The copy is written beside its destination under a
temporary name, switched to a rollback journal (a single file, no ``-wal``
to carry along), checked with ``PRAGMA integrity_check`` and flushed to disk
before it takes its name: an interrupted backup leaves nothing that looks
like one.

``keep_before_migration`` is the copy the store takes before it migrates a
file holding data (``basra.sqlite3.before-005.bak``: the file as it was
before migration 005 ran).
"""

from __future__ import annotations

import os
import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .errors import StorageError

#: Seconds the copy waits for a writer holding a lock SQLite needs (a WAL recovery).
BUSY_TIMEOUT = 10.0


class NoDatabase(StorageError):
    """There is no database file to copy."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"there is no database at {str(path)!r}")
        self.path = path


class BackupExists(StorageError):
    """The destination exists and was not to be overwritten."""

    def __init__(self, path: Path) -> None:
        super().__init__(f"{str(path)!r} exists already")
        self.path = path


class CopyDamaged(StorageError):
    """The copy fails SQLite's integrity check: the file copied is damaged (the copy is not kept)."""

    def __init__(self, source: Path, problem: str) -> None:
        super().__init__(f"the copy of {str(source)!r} fails SQLite's integrity check: {problem}")
        self.source = source
        self.problem = problem


@dataclass(frozen=True, slots=True)
class Copied:
    """A finished, checked copy: where it is, its size in bytes, its schema version."""

    path: Path
    size: int
    schema: int


def companions(path: Path) -> tuple[Path, ...]:
    """The files SQLite keeps beside a database in WAL mode."""
    return tuple(path.with_name(path.name + suffix) for suffix in ("-wal", "-shm"))


def copy_database(source: Path, dest: Path, *, overwrite: bool = False) -> Copied:
    """Copy the database at ``source`` to ``dest`` (a file name) and check the copy.

    ``NoDatabase`` without a source, ``BackupExists`` when ``dest`` exists and
    ``overwrite`` is false, ``CopyDamaged`` when the copy fails the integrity
    check, ``StorageError`` when either file cannot be used. Overwriting
    ``dest`` removes its stale ``-wal`` and ``-shm``, which SQLite would
    otherwise read into the new copy.
    """
    if not source.is_file():
        raise NoDatabase(source)
    if dest.resolve() in (source.resolve(), *companions(source.resolve())):
        raise StorageError(f"cannot copy {str(source)!r} onto itself")
    if dest.exists() and not overwrite:
        raise BackupExists(dest)
    if not dest.parent.is_dir():
        raise StorageError(f"cannot write {str(dest)!r}: its folder does not exist")
    part = dest.with_name(f".{dest.name}.{os.getpid()}.part")
    try:
        schema = _copy(source, part)
        part.chmod(source.stat().st_mode & 0o666)  # no one may read the copy who cannot read the file
        if dest.exists() and not overwrite:  # it appeared while copying
            raise BackupExists(dest)
        for stale in companions(dest):
            stale.unlink(missing_ok=True)
        os.replace(part, dest)
        _sync_folder(dest.parent)
        return Copied(dest, dest.stat().st_size, schema)
    except sqlite3.Error as error:
        raise StorageError(f"cannot copy {str(source)!r} to {str(dest)!r}: {error}") from error
    except OSError as error:
        raise StorageError(f"cannot write {str(dest)!r}: {error.strerror or error}") from error
    finally:
        for leftover in (part, *companions(part), part.with_name(part.name + "-journal")):
            leftover.unlink(missing_ok=True)


def _copy(source: Path, part: Path) -> int:
    """Back ``source`` up into the new file ``part``, check it; returns its schema version."""
    part.unlink(missing_ok=True)
    # mode=ro: the copy never writes the database, nor needs to.
    reader = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT)
    try:
        copy = sqlite3.connect(part, isolation_level=None)
        try:
            reader.backup(copy)  # every page in one step: one consistent snapshot
            copy.execute("PRAGMA journal_mode = DELETE")  # one file; the bot sets WAL again
            problems = [str(row[0]) for row in copy.execute("PRAGMA integrity_check")]
            if problems != ["ok"]:
                raise CopyDamaged(source, "; ".join(problems[:3]))
            schema = int(copy.execute("PRAGMA user_version").fetchone()[0])
        finally:
            copy.close()
    finally:
        reader.close()
    with part.open("rb") as written:
        os.fsync(written.fileno())
    return schema


def _sync_folder(folder: Path) -> None:
    """Make a rename in ``folder`` durable (where the system allows opening a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def before_migration_name(path: Path, migration: int) -> Path:
    """``basra.sqlite3.before-005.bak``, or ``....before-005.2.bak`` if that is taken:
    an earlier backup is never overwritten."""
    base = f"{path.name}.before-{migration:03d}"
    candidate, n = path.with_name(base + ".bak"), 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{base}.{n}.bak")
    return candidate


def keep_before_migration(path: Path, migration: int) -> Copied:
    """A checked copy of ``path`` beside it, before ``migration`` runs on it."""
    try:
        return copy_database(path, before_migration_name(path, migration))
    except StorageError as error:
        raise StorageError(
            f"cannot back {str(path)!r} up before migrating it, so it was left as it was: {error}"
        ) from error
