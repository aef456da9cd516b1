"""Backups: a checked copy of a file in use, and the copy kept before each migration."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from storage import SqliteStore, StorageError, backup
from storage.backup import BackupExists, NoDatabase, copy_database
from storage.schema import load_migrations

LATEST = load_migrations()[-1].version


def schema_file(path: Path, version: int) -> Path:
    """A database as a program of schema ``version`` left it, with one chat's settings."""
    with sqlite3.connect(path, isolation_level=None) as conn:
        conn.execute("PRAGMA journal_mode = WAL")
        for migration in load_migrations()[:version]:
            for statement in migration.statements:
                conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {version}")
        conn.execute("INSERT INTO chat_settings (chat_id, language, updated_at) VALUES ('tg:-1', 'en', 1)")
    conn.close()
    return path


def read(path: Path, sql: str) -> list[tuple[object, ...]]:
    conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchall()
    finally:
        conn.close()


def backups_beside(path: Path) -> list[str]:
    return sorted(p.name for p in path.parent.iterdir() if p.name.endswith(".bak"))


async def test_a_file_of_an_older_schema_is_copied_beside_itself_before_it_is_migrated(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    schema_file(db_path, LATEST - 1)
    caplog.set_level(logging.INFO, logger="storage")
    async with SqliteStore(db_path, exclusive=True) as store:
        assert (await store.get_chat_settings("tg:-1")).language == "en"
    kept = db_path.with_name(f"basra.sqlite3.before-{LATEST:03d}.bak")
    assert backups_beside(db_path) == [kept.name]
    # The copy is the file as it was: the old schema, its data, one file without a -wal.
    assert read(kept, "PRAGMA user_version") == [(LATEST - 1,)]
    assert read(kept, "SELECT chat_id, language FROM chat_settings") == [("tg:-1", "en")]
    assert read(kept, "PRAGMA journal_mode") == [("delete",)]
    assert read(db_path, "PRAGMA user_version") == [(LATEST,)]
    [line] = [r.getMessage() for r in caplog.records if r.name == "storage.sqlite"]
    assert line == (f"database {db_path.resolve()} (schema {LATEST - 1}): backed up to {kept.name} "
                    f"before migrating it to schema {LATEST}")
    # Opened again, it is up to date: nothing more is copied.
    async with SqliteStore(db_path):
        pass
    assert backups_beside(db_path) == [kept.name]


async def test_the_copy_is_named_for_the_first_migration_to_run_and_never_replaces_one(
    db_path: Path,
) -> None:
    schema_file(db_path, 2)
    db_path.with_name("basra.sqlite3.before-003.bak").write_bytes(b"an earlier one")
    async with SqliteStore(db_path):
        pass
    assert backups_beside(db_path) == ["basra.sqlite3.before-003.2.bak", "basra.sqlite3.before-003.bak"]
    assert db_path.with_name("basra.sqlite3.before-003.bak").read_bytes() == b"an earlier one"
    assert read(db_path.with_name("basra.sqlite3.before-003.2.bak"), "PRAGMA user_version") == [(2,)]


async def test_a_new_file_or_one_up_to_date_is_not_copied(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="storage")
    async with SqliteStore(db_path):
        pass
    async with SqliteStore(db_path):
        pass
    assert backups_beside(db_path) == []
    assert [r.getMessage() for r in caplog.records if r.name == "storage.sqlite"] == [
        f"database {db_path.resolve()}: empty, creating schema {LATEST}",
        f"database {db_path.resolve()} (schema {LATEST})",
    ]


async def test_when_the_copy_cannot_be_made_the_file_is_not_migrated(
    db_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    schema_file(db_path, LATEST - 1)

    def no_room(source: Path, dest: Path, *, overwrite: bool = False) -> backup.Copied:
        raise StorageError(f"cannot write {str(dest)!r}: No space left on device")

    monkeypatch.setattr(backup, "copy_database", no_room)
    with pytest.raises(StorageError, match=r"before migrating it, so it was left as it was: .*No space"):
        await SqliteStore(db_path, exclusive=True).open()
    assert read(db_path, "PRAGMA user_version") == [(LATEST - 1,)]
    monkeypatch.undo()  # room again
    async with SqliteStore(db_path, exclusive=True):  # and the lock was let go
        pass
    assert read(db_path, "PRAGMA user_version") == [(LATEST,)]


def test_a_copy_is_checked_and_given_its_name_only_when_whole(db_path: Path, tmp_path: Path) -> None:
    schema_file(db_path, LATEST)
    dest = tmp_path / "copy.sqlite3"
    copied = copy_database(db_path, dest)
    assert (copied.path, copied.schema, copied.size) == (dest, LATEST, dest.stat().st_size)
    assert read(dest, "PRAGMA integrity_check") == [("ok",)]
    assert not [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]  # no part file left


def test_an_existing_copy_is_kept_unless_overwriting_is_asked(db_path: Path, tmp_path: Path) -> None:
    schema_file(db_path, LATEST)
    dest = tmp_path / "copy.sqlite3"
    dest.write_bytes(b"keep me")
    with pytest.raises(BackupExists):
        copy_database(db_path, dest)
    assert dest.read_bytes() == b"keep me"
    # Overwriting also removes the old file's log, which SQLite would read into the new copy.
    stale = tmp_path / "copy.sqlite3-wal"
    stale.write_bytes(b"an old log")
    copy_database(db_path, dest, overwrite=True)
    assert not stale.exists()
    assert read(dest, "SELECT chat_id FROM chat_settings") == [("tg:-1",)]


def test_nothing_to_copy_and_copying_onto_itself_are_refused(db_path: Path, tmp_path: Path) -> None:
    with pytest.raises(NoDatabase):
        copy_database(db_path, tmp_path / "copy.sqlite3")
    schema_file(db_path, LATEST)
    for onto in (db_path, db_path.with_name("basra.sqlite3-wal")):
        with pytest.raises(StorageError, match="onto itself"):
            copy_database(db_path, onto, overwrite=True)
    assert read(db_path, "SELECT chat_id FROM chat_settings") == [("tg:-1",)]
