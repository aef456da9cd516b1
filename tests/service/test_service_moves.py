"""A chat that gets a new id (a Telegram group upgraded to a supergroup), as the service sees it."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from bots.service import ManualClock, TableService
from storage import SqliteStore
from tests.service.helpers import ALICE, BADR, GROUP, QUIET, FakePlatform
from tests.service.test_service_results import start

SUPERGROUP = "tg:-1009"


class PausedMove:
    """A real store whose first chat move, once written, waits for the test to let it go on."""

    def __init__(self, store: SqliteStore) -> None:
        self._store = store
        self.moved = asyncio.Event()
        self.go_on = asyncio.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def move_chat(self, old_chat_id: str, new_chat_id: str) -> None:
        await self._store.move_chat(old_chat_id, new_chat_id)
        if not self.moved.is_set():
            self.moved.set()
            await self.go_on.wait()


async def test_a_match_that_ends_while_its_chat_moves_is_recorded_under_the_new_id(
    db_path: Path, clock: ManualClock, platform: FakePlatform
) -> None:
    async with SqliteStore(db_path) as store:
        paused = PausedMove(store)
        stand_in: Any = paused  # a Store by delegation
        rng = random.Random(7)
        async with TableService(stand_in, [platform], clock=clock, config=QUIET, rng=rng) as service:
            table_id = await start(service, GROUP, ALICE, BADR)
            move = asyncio.create_task(service.move_chat(GROUP, SUPERGROUP))
            await paused.moved.wait()
            # The stored rows have moved, the live table not yet: a resignation
            # now waits for the move, instead of ending the match under the old id.
            resign = asyncio.create_task(service.resign(table_id, BADR.player_id))
            for _ in range(20):
                await asyncio.sleep(0)
            assert not resign.done()
            assert (await store.get_table(table_id)).status == "running"  # type: ignore[union-attr]
            paused.go_on.set()
            await asyncio.wait_for(asyncio.gather(move, resign), timeout=10)

            here = await service.leaderboard(SUPERGROUP)
            assert [line.player_id for line in here.lines] == [ALICE.player_id, BADR.player_id]
            assert (await service.leaderboard(GROUP)).lines == ()
            finished = await store.get_table(table_id)
            assert finished is not None and finished.chat_id == SUPERGROUP and not finished.is_open
            assert await store.open_table_for_chat(GROUP) is None
