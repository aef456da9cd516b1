"""Durable plays per second through the table service on SQLite, and memory per running match.

    python bench/service.py [--matches 50] [--plays 4000] [--db PATH]

Plays go through ``TableService.play`` exactly as an adapter's presses would:
checked, applied, committed to the SQLite file (WAL, ``synchronous=FULL``)
and delivered (to an adapter that keeps nothing). Matches run concurrently,
as in a busy bot. Memory per running match is the traced allocation growth
(tracemalloc) of opening and starting ``--matches`` 1-v-1 matches, divided by
their number.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.service import ManualClock, Notice, Person, ServiceConfig, TableService
from storage import SqliteStore


class Sink:
    name = "tg"
    owner = "tg:bench"

    async def deliver(self, notices: Sequence[Notice]) -> None:
        return None


async def open_matches(service: TableService, count: int, offset: int = 0) -> list[str]:
    ids = []
    for n in range(offset, offset + count):
        a, b = Person(f"tg:{n}01", f"A{n}"), Person(f"tg:{n}02", f"B{n}")
        lobby = await service.new_lobby(f"tg:-{n}", a)
        await service.join(lobby.table_id, b)
        await service.start_match(lobby.table_id, a)
        ids.append(lobby.table_id)
    return ids


async def play_one(service: TableService, table_id: str, rng: random.Random) -> bool:
    """One play at this match; False when it is over."""
    table = await service.table(table_id)
    if not table.running or table.to_move is None:
        return False
    pid = table.seats[table.to_move].player_id or ""
    hand = await service.hand(table_id, pid)
    await service.play(table_id, pid, hand.version, rng.choice(hand.hand))
    return True


async def throughput(db: Path, matches: int, plays: int) -> tuple[int, float]:
    clock = ManualClock()
    config = ServiceConfig(computer_delay=0, heartbeat_seconds=1e9)
    async with (
        SqliteStore(db) as store,
        TableService(store, [Sink()], clock=clock, config=config, rng=random.Random(1)) as service,
    ):
        ids = await open_matches(service, matches)
        done = 0
        offset = matches
        started = time.perf_counter()

        async def worker(index: int) -> None:
            nonlocal done, offset
            rng = random.Random(index)
            table_id = ids[index]
            while done < plays:
                if await play_one(service, table_id, rng):
                    done += 1
                else:
                    offset += 1
                    table_id = (await open_matches(service, 1, offset))[0]

        await asyncio.gather(*(worker(i) for i in range(matches)))
        elapsed = time.perf_counter() - started
    return done, elapsed


async def memory(db: Path, matches: int) -> float:
    clock = ManualClock()
    config = ServiceConfig(computer_delay=0, heartbeat_seconds=1e9)
    async with (
        SqliteStore(db) as store,
        TableService(store, [Sink()], clock=clock, config=config, rng=random.Random(2)) as service,
    ):
        await open_matches(service, 5, offset=100_000)  # warm caches, imports, prepared statements
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        ids = await open_matches(service, matches, offset=200_000)
        rng = random.Random(3)
        for table_id in ids:  # a few plays each, so each match has history
            for _ in range(6):
                await play_one(service, table_id, rng)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
    return (after - before) / matches


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=50, help="concurrent matches (default 50)")
    parser.add_argument("--plays", type=int, default=4000, help="plays to time (default 4000)")
    parser.add_argument("--db", type=Path, help="database file (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or Path(tmp) / "bench.sqlite3"
        done, elapsed = asyncio.run(throughput(db, args.matches, args.plays))
        per_match = asyncio.run(memory(Path(tmp) / "memory.sqlite3", 200))
    print(
        f"durable plays: {done} in {elapsed:.2f} s = {done / elapsed:.0f} plays/s "
        f"({args.matches} concurrent matches, SQLite WAL synchronous=FULL)"
    )
    print(f"memory per running match: {per_match / 1024:.1f} KB (tracemalloc, 200 matches)")


if __name__ == "__main__":
    main()
