"""``basra forget PLAYER_ID``: an operator erases a person as ``/forget`` does, their running
match resigned first, in one plain English line."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bots.service import TableService
from bots.terminal import __main__ as terminal
from storage import SqliteStore, TableRecord
from tests.service.helpers import ALICE, BADR, GROUP, QUIET, FakePlatform


async def seat_in_a_running_match(database: Path) -> str:
    """Alice and Badr at a running 1-v-1 of the Telegram bot ``tg:900``."""
    async with SqliteStore(database) as store:
        platform = FakePlatform("tg", "tg:900")
        async with TableService(store, [platform], config=QUIET, rng=random.Random(3)) as service:
            lobby = await service.new_lobby(GROUP, ALICE, "1v1")
            await service.join(lobby.table_id, BADR)
            await service.start_match(lobby.table_id, ALICE)
            return lobby.table_id


async def stored(database: Path, table_id: str) -> tuple[TableRecord | None, bool]:
    async with SqliteStore(database) as store:
        return await store.get_table(table_id), await store.get_player(ALICE.player_id) is not None


def test_forget_resigns_the_running_match_and_erases_the_person(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = tmp_path / "basra.sqlite3"
    table_id = asyncio.run(seat_in_a_running_match(database))

    assert terminal.main(["forget", ALICE.player_id, "--database", str(database)]) == 0

    said = capsys.readouterr().out
    assert said.startswith(f"basra forget: erased {ALICE.player_id} ")
    assert "1 running match(es) resigned" in said
    table, profile = asyncio.run(stored(database, table_id))
    assert table is not None and table.status == "finished" and table.result is not None
    assert table.result["resigned_seat"] == 0
    assert all(s.player_id != ALICE.player_id for s in table.seats) and not profile


def test_forgetting_someone_unknown_or_not_an_id_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    database = str(tmp_path / "basra.sqlite3")
    assert terminal.main(["forget", "tg:404", "--database", database]) == 1
    assert capsys.readouterr().out == "basra forget: nothing is stored about tg:404\n"
    assert terminal.main(["forget", "404", "--database", database]) == 2
    assert "is not a player id" in capsys.readouterr().err
