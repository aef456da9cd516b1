"""A bot process for the clock crash tests: opens (or continues) one 1-v-1 on a SQLite file
with the system clock and a 1 s heartbeat, prints ``ready``, and waits to be killed."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bots.service import Notice, Person, ServiceConfig, TableService, TableView
from storage import SqliteStore

CHAT = "tg:-1"


class Quiet:
    name = "tg"
    owner = "tg"

    async def deliver(self, notices: Sequence[Notice]) -> None:
        return None


async def main(path: str) -> None:
    config = ServiceConfig(computer_delay=0, heartbeat_seconds=1.0, turn_seconds=120)
    async with SqliteStore(path) as store, TableService(store, [Quiet()], config=config) as svc:
        if not isinstance(await svc.open_table(CHAT), TableView):
            a, b = Person("tg:11", "A"), Person("tg:12", "B")
            lobby = await svc.new_lobby(CHAT, a)
            await svc.join(lobby.table_id, b)
            await svc.start_match(lobby.table_id, a)
        print("ready", flush=True)
        await asyncio.sleep(3600)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
