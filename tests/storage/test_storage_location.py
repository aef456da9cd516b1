"""One setting names the database: a PostgreSQL URL gives the shared store, anything
else is an SQLite file, and no message ever shows a URL's password."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

import storage.location
from storage import PostgresStore, SqliteStore, StorageError, open_store, redact


def test_the_location_examples_hold() -> None:
    failures, tried = doctest.testmod(storage.location)
    assert tried and not failures


@pytest.mark.parametrize(
    "database", ["postgresql://u:p@db/basra", "postgres://db/basra", " POSTGRESQL://db/basra ", "postgresql:///x"]
)
def test_a_postgresql_url_gives_the_shared_store(database: str) -> None:
    store = open_store(database)
    assert isinstance(store, PostgresStore) and store.shared
    assert "p@" not in store.where


@pytest.mark.parametrize("database", ["basra.sqlite3", "data/postgresql.sqlite3", "postgresql", "sqlite://x"])
def test_anything_else_is_an_sqlite_file_for_one_process(database: str, tmp_path: Path) -> None:
    store = open_store(database)
    assert isinstance(store, SqliteStore) and not store.shared
    assert open_store(tmp_path / "basra.sqlite3", exclusive=True).path == tmp_path / "basra.sqlite3"


async def test_a_refused_login_names_the_server_without_the_password() -> None:
    store = open_store("postgresql://basra:s3cret-pw@127.0.0.1:1/basra?password=other-pw")
    with pytest.raises(StorageError) as refused:
        await store.open()
    assert "s3cret-pw" not in str(refused.value) and "other-pw" not in str(refused.value)
    assert redact("postgresql://basra:s3cret-pw@h/db") == "postgresql://basra:***@h/db"
