"""A table belongs to the bot that opened it: a bot with another token, on the same database,
never restores, redraws, times out or acts on it, and opens its own table in the same chat."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bots.service import ManualClock, NoSuchTable, Person, TableService, TableView
from storage import SqliteStore
from tests.service.helpers import QUIET, FakePlatform

CHAT = "tg:-100"
AMR, MONA = Person("tg:1", "Amr", "en"), Person("tg:2", "Mona", "ar")


async def test_a_bot_with_another_token_leaves_the_first_bots_tables_alone(db_path: Path) -> None:
    clock = ManualClock()
    async with SqliteStore(db_path) as store:
        first = FakePlatform(owner="tg:111")
        async with TableService(store, [first], clock=clock, config=QUIET, rng=random.Random(1)) as service:
            lobby = await service.new_lobby(CHAT, AMR)
            await service.join(lobby.table_id, MONA)
            match = await service.start_match(lobby.table_id, AMR)
            assert isinstance(match, TableView) and match.running

        other = FakePlatform(owner="tg:222")
        async with TableService(store, [other], clock=clock, config=QUIET, rng=random.Random(2)) as service:
            assert other.notices == []  # nothing of the first bot's match was redrawn
            assert await service.open_table(CHAT) is None
            for act in (
                service.table(match.table_id),
                service.hand(match.table_id, AMR.player_id),
                service.resign(match.table_id, AMR.player_id),
                service.join(match.table_id, Person("tg:3", "Sara", "en")),
            ):
                with pytest.raises(NoSuchTable):
                    await act
            await clock.advance(3600)  # its turn clock is not this bot's to run out
            await service.drain()
            own = await service.new_lobby(CHAT, MONA)
            assert own.table_id != match.table_id
            assert {n.table_id for n in other.notices} == {own.table_id}

        again = FakePlatform(owner="tg:111")
        async with TableService(store, [again], clock=clock, config=QUIET, rng=random.Random(3)) as service:
            back = await service.open_table(CHAT)
            assert isinstance(back, TableView) and back.running and back.table_id == match.table_id
            assert {n.table_id for n in again.notices} == {match.table_id}
            record = await store.get_table(match.table_id)
            assert record is not None and record.owner == "tg:111" and record.status == "running"


def test_an_owner_must_be_of_its_platform(db_path: Path) -> None:
    with pytest.raises(ValueError, match="owner"):
        TableService(SqliteStore(db_path), [FakePlatform(owner="dc:111")])
