"""``basra damaged``: the tables a bot set aside as unreadable, listed and exported while the
bot still runs, on SQLite and PostgreSQL; the bot finds one damaged after it started too."""

from __future__ import annotations

import io
import json
import random
import sqlite3

import asyncpg

from bots.service import ManualClock, Person, TableService, TableView
from bots.terminal import __main__ as terminal
from storage import open_store
from tests.service.helpers import QUIET, FakePlatform
from tests.storage.backends import database, postgres_schema
from tests.storage.test_storage_tables import damage_seats

__all__ = ["database", "postgres_schema"]

CHATS = ["tg:-201", "tg:-202", "tg:-203"]


async def damage_event(database: str, table_id: str) -> None:
    """An event row that no longer folds (a deal of no known shape)."""
    sql = ("UPDATE events SET data = '{\"kind\": \"dealt\", \"nonsense\": 1}'"
           " WHERE table_id = %s AND version = 2")
    if database.startswith("postgresql"):
        conn = await asyncpg.connect(database)
        try:
            await conn.execute(sql % "$1", table_id)
        finally:
            await conn.close()
        return
    with sqlite3.connect(database) as db:
        db.execute(sql % "?", (table_id,))
    db.close()


async def run_damaged(database: str, *argv: str) -> tuple[int, str, str]:
    args = terminal.parser().parse_args(["damaged", *argv, "--database", database, "--lang", "en"])
    out, err = io.StringIO(), io.StringIO()
    code = await terminal.list_damaged(args, out, err)
    return code, out.getvalue(), err.getvalue()


async def test_the_tables_set_aside_are_listed_and_their_rows_exported(database: str) -> None:
    clock = ManualClock()
    platform = FakePlatform()
    async with (
        open_store(database, exclusive=True) as store,  # as a bot holds it
        TableService(store, [platform], clock=clock, config=QUIET, rng=random.Random(3)) as service,
    ):
        ids = []
        for n, chat in enumerate(CHATS):
            a, b = Person(f"tg:{n}1", "A", "en"), Person(f"tg:{n}2", "B", "en")
            lobby = await service.new_lobby(chat, a)
            await service.join(lobby.table_id, b)
            await service.start_match(lobby.table_id, a)
            ids.append(lobby.table_id)
        code, out, err = await run_damaged(database)
        assert (code, out, err) == (0, "No table has been set aside.\n", "")
        # Damaged while the bot runs: taken into memory again, each is found and set aside.
        service.tables.forget(service.tables.live[ids[1]])
        service.tables.forget(service.tables.live[ids[2]])
        await damage_event(database, ids[1])
        await damage_seats(database, ids[2])
        assert isinstance(await service.open_table(CHATS[0]), TableView)
        assert await service.open_table(CHATS[1]) is None
        assert await service.open_table(CHATS[2]) is None
        assert sorted(n.table_id for n in platform.of("table_set_aside")) == sorted(ids[1:])

        code, out, err = await run_damaged(database)
        lines = out.splitlines()
        assert code == 0 and err == "" and len(lines) == 2
        assert lines[0].startswith(f"Table {ids[2]} of chat {CHATS[2]}, set aside ")  # the latest first
        assert lines[1].startswith(f"Table {ids[1]} of chat {CHATS[1]}, set aside ")
        # What is wrong, named: the field refused, and the event that does not fold.
        assert lines[0].endswith(": TableRecord.seats.0.broken: Extra inputs are not permitted"), lines[0]
        assert lines[1].endswith("event 2: bad dealt event: unknown field 'nonsense'"), lines[1]

        code, out, err = await run_damaged(database, "--output", "-")
        assert code == 0 and len(err.splitlines()) == 2  # the lines go aside; the JSON is the output
        exported = json.loads(out)
        assert exported["format"] == "basra-set-aside/1"
        by_id = {t["table_id"]: t for t in exported["tables"]}
        assert set(by_id) == set(ids[1:])
        assert json.loads(by_id[ids[2]]["table"]["seats"]) == [{"broken": True}]
        bad = next(e for e in by_id[ids[1]]["events"] if e["version"] == 2)
        assert json.loads(bad["data"]) == {"kind": "dealt", "nonsense": 1}
        assert by_id[ids[1]]["status"] == "expired"
