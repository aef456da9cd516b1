"""A bot process for the crash test: plays matches on a SQLite file until it is killed.

Every open match it finds is continued; new ones are opened in fresh chats.
After each accepted play it prints ``ack <table> <version> <seat> <card>``:
the play was committed, and the parent may kill it at any moment after.
"""

from __future__ import annotations

import asyncio
import random
import sys
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bots.service import (
    LobbyView,
    ManualClock,
    Notice,
    Person,
    ServiceConfig,
    StaleView,
    TableService,
)
from storage import SqliteStore


class Quiet:
    name = "tg"
    owner = "tg"

    async def deliver(self, notices: Sequence[Notice]) -> None:
        return None


async def main(path: str, seed: int) -> None:
    rng = random.Random(seed)
    clock = ManualClock()
    config = ServiceConfig(computer_delay=0, heartbeat_seconds=3600)
    async with (
        SqliteStore(path) as store,
        TableService(store, [Quiet()], clock=clock, config=config, rng=rng) as svc,
    ):
        print("ready", flush=True)
        chat = 0
        while True:
            tables = [t for t in [await svc.open_table(f"tg:-{n}") for n in range(1, 200)] if t is not None]
            if len(tables) < 4:
                chat = rng.randrange(1, 200)
                if await svc.open_table(f"tg:-{chat}") is None:
                    a, b = Person(f"tg:{chat}1", "A"), Person(f"tg:{chat}2", "B")
                    lobby = await svc.new_lobby(f"tg:-{chat}", a)
                    await svc.join(lobby.table_id, b)
                    await svc.start_match(lobby.table_id, a)
                continue
            for table in tables:
                if isinstance(table, LobbyView):  # killed before its start: finish seating it
                    number = table.chat_id.partition(":-")[2]
                    if not table.full:
                        await svc.join(table.table_id, Person(f"tg:{number}2", "B"))
                    await svc.start_match(table.table_id, Person(table.creator_id, "A"))
                    continue
                view = await svc.table(table.table_id)
                if not view.running or view.to_move is None:
                    continue
                pid = view.seats[view.to_move].player_id
                assert pid is not None
                hand = await svc.hand(view.table_id, pid)
                card = rng.choice(hand.hand)
                try:
                    after = await svc.play(view.table_id, pid, hand.version, card)
                except StaleView:
                    continue
                print(f"ack {view.table_id} {after.version} {hand.seat} {card}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
