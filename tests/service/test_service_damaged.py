"""One damaged table never stops the bot: at start-up it is set aside (closed), logged with
its id, its chat told once; every other table runs."""

from __future__ import annotations

import logging
import random
import sqlite3
from pathlib import Path

import pytest

from bots.service import ManualClock, Person, TableService, TableView
from storage import SqliteStore
from tests.service.helpers import QUIET, FakePlatform

CHATS = ["tg:-101", "tg:-102", "tg:-103"]


async def open_matches(db_path: Path, clock: ManualClock) -> list[str]:
    ids = []
    async with SqliteStore(db_path) as store:
        service = TableService(store, [FakePlatform()], clock=clock, config=QUIET, rng=random.Random(5))
        await service.start()
        for n, chat in enumerate(CHATS):
            a, b = Person(f"tg:{n}1", "A", "en"), Person(f"tg:{n}2", "B", "en")
            lobby = await service.new_lobby(chat, a)
            await service.join(lobby.table_id, b)
            await service.start_match(lobby.table_id, a)
            ids.append(lobby.table_id)
        await service.close()
    return ids


async def test_damaged_tables_are_set_aside_and_the_others_run(
    db_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clock = ManualClock()
    good, bad_event, bad_row = await open_matches(db_path, clock)
    with sqlite3.connect(db_path) as conn:
        conn.execute("UPDATE events SET data = '{\"kind\": \"dealt\", \"nonsense\": 1}' "
                     "WHERE table_id = ? AND version = 2", (bad_event,))
        conn.execute("UPDATE tables SET seats = '[{\"broken\": true}]' WHERE table_id = ?", (bad_row,))
    platform = FakePlatform()
    caplog.set_level(logging.ERROR)
    async with SqliteStore(db_path) as store:
        service = TableService(store, [platform], clock=clock, config=QUIET)
        await service.start()
        # The good match goes on.
        table = await service.open_table(CHATS[0])
        assert isinstance(table, TableView) and table.running and table.table_id == good
        # Each damaged one: closed, logged with its id, its chat told once, in its language.
        told = platform.of("table_set_aside")
        assert sorted(n.table_id for n in told) == sorted([bad_event, bad_row])
        assert {n.chat_id for n in told} == {CHATS[1], CHATS[2]}
        logged = " ".join(r.getMessage() for r in caplog.records)
        assert bad_event in logged and bad_row in logged
        for chat in CHATS[1:]:
            assert await service.open_table(chat) is None  # the chat can start a new game
        lobby = await service.new_lobby(CHATS[1], Person("tg:11", "A", "en"))
        assert lobby.chat_id == CHATS[1]
        await service.close()
    # Told once: a second start says nothing more about them.
    again = FakePlatform()
    async with SqliteStore(db_path) as store:
        service = TableService(store, [again], clock=clock, config=QUIET)
        await service.start()
        assert again.of("table_set_aside") == []
        await service.close()
