"""The pairing pool under load: people joining at random, waves on several processes.

    python bench/pairing.py [--database PATH|URL] [--processes 3] [--people 200]
                            [--seconds 60] [--seed 1]

Each process runs a table service on the one database, as the bot processes of a
platform do (one bot, a shared store), and the pool's waves run in each as a chore of
its heartbeat (every ``pool_wave_seconds``, 2 s); one wave at a time runs among them.
``--people`` people join over ``--seconds`` at moments drawn at random, each on one of
the processes, with a rating drawn from a normal law (mean 10, deviation 8: openskill
ordinals, a newcomer's being 0). They enter the pool as ``pool_join`` puts them there
(``Store.enter_pool``, with the drawn rating, since a profile's rating moves only with
results). Then it waits until everybody is paired (or 30 s more).

It prints how many were paired and whether anyone was paired twice or left over
(checked twice: by the "found" notices the processes delivered, and by the store's
entries and tables), the waiting time from joining to being seated (p50, p99, worst),
and the rating gap of the pairs (median, p90, worst). Every pair's match starts for
real; nobody plays it.

``--database`` is an SQLite file (default: a temporary one; one process only) or a
``postgresql://`` URL, in which each run makes a schema of its own and drops it.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.service import Scratch, store_for
from bots.service import Notice, PoolNotice, PoolPaired, ServiceConfig, TableService
from storage import PoolEntry
from storage.location import is_postgres_url

TAIL = 30.0

Joiner = tuple[str, float, float]  # player id, when they join (seconds in), rating
Found = tuple[str, str, float]  # player id, table id, when told (epoch)


class Told:
    """A platform whose people wait in the pool; it keeps every "found" it is told."""

    name = "tg"
    owner = "tg:bench"

    def __init__(self) -> None:
        self.found: list[Found] = []

    async def deliver(self, notices: Sequence[Notice]) -> None:
        return None

    async def tell_pool(self, notices: Sequence[PoolNotice]) -> None:
        now = time.time()
        for notice in notices:
            if isinstance(notice, PoolPaired) and notice.view.table_id is not None:
                self.found.append((notice.view.player_id, notice.view.table_id, now))


async def run(database: str, joiners: Sequence[Joiner], start: float, until: float, everyone: int
              ) -> tuple[list[Found], dict[str, float]]:
    config = ServiceConfig(
        computer_processes=0, pool_wait_seconds=3600.0, pool_turn_seconds=3600, warning_seconds=0
    )
    told = Told()
    joined: dict[str, float] = {}
    async with store_for(database) as store, TableService(store, [told], config=config):
        for player, at, rating in sorted(joiners, key=lambda j: j[1]):
            await asyncio.sleep(max(0.0, start + at - time.time()))
            joined[player] = time.time()
            await store.enter_pool(PoolEntry(
                player_id=player, platform="tg", chat_id=player, name=f"P{player[3:]}",
                rating=rating, joined_at=joined[player],
            ))
        while time.time() < until:
            await asyncio.sleep(0.5)
            if len(await store.pool_entries(["tg"], "waiting")) == 0 and \
                    len(await store.pool_entries(["tg"], "seated")) >= everyone - 1:
                break
    return told.found, joined


def _child(database: str, joiners: list[Joiner], start: float, until: float, everyone: int,
           out: object) -> None:
    out.put(asyncio.run(run(database, joiners, start, until, everyone)))  # type: ignore[attr-defined]


async def stored(database: str) -> tuple[list[PoolEntry], dict[str, int]]:
    async with store_for(database) as store:
        entries = await store.pool_entries(["tg"])
        seats: dict[str, int] = {}
        for table_id in {e.table_id for e in entries if e.table_id is not None}:
            table = await store.get_table(table_id)
            seats[table_id] = len(table.seats) if table is not None else 0
        return entries, seats


def _quantile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def measure(database: str, processes: int, people: int, seconds: float, seed: int) -> None:
    rng = random.Random(seed)
    joiners = [(f"tg:{n + 1}", rng.uniform(0, seconds), rng.gauss(10.0, 8.0)) for n in range(people)]
    ratings = {player: rating for player, _, rating in joiners}
    start = time.time() + 3.0  # the processes open their stores meanwhile
    until = start + seconds + TAIL
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    shares = [joiners[i::processes] for i in range(processes)]
    children = [context.Process(target=_child, args=(database, share, start, until, people, out))
                for share in shares]
    for child in children:
        child.start()
    results = [out.get(timeout=seconds + TAIL + 120) for _ in children]
    for child in children:
        child.join()
    found = [one for result, _ in results for one in result]
    joined = {player: at for _, by in results for player, at in by.items()}
    told = Counter(player for player, _, _ in found)
    twice = sorted(p for p, n in told.items() if n > 1)
    tables: dict[str, list[str]] = {}
    for player, table_id, _ in found:
        tables.setdefault(table_id, []).append(player)
    entries, seats = asyncio.run(stored(database))
    seated = [e for e in entries if e.state == "seated"]
    waiting = [e for e in entries if e.state == "waiting"]
    stored_tables = Counter(e.table_id for e in seated)
    print(f"people joined            {len(joined)}")
    print(f"told they were paired    {len(told)} people, {len(tables)} tables; told twice: {len(twice)}")
    print(f"stored                   {len(seated)} seated at {len(stored_tables)} tables, "
          f"{len(waiting)} still waiting; tables not of 2: "
          f"{sum(1 for n in stored_tables.values() if n != 2)}; seated at a table that is not "
          f"stored: {sum(1 for t in stored_tables if seats.get(t or '', 0) != 2)}")
    waits = [at - joined[player] for player, _, at in found if player in joined]
    if waits:
        print(f"waiting, join -> found   p50 {statistics.median(waits):.2f} s  p99 "
              f"{_quantile(waits, 0.99):.2f} s  worst {max(waits):.2f} s")
    gaps = [abs(ratings[a] - ratings[b]) for a, b in (ps for ps in tables.values() if len(ps) == 2)]
    if gaps:
        print(f"rating gap of the pairs  median {statistics.median(gaps):.2f}  p90 "
              f"{_quantile(gaps, 0.9):.2f}  worst {max(gaps):.2f}  (ratings: mean 10, deviation 8)")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", help="an SQLite file or a postgresql:// URL")
    parser.add_argument("--processes", type=int, default=3)
    parser.add_argument("--people", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.processes < 1:
        parser.error("--processes must be at least 1")
    if not (args.database and is_postgres_url(args.database)) and args.processes > 1:
        parser.error("several processes need a postgresql:// database")
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Scratch(args.database, Path(tmp))
        try:
            print(f"{args.people} people joining over {args.seconds:.0f} s on {args.processes} "
                  f"process(es), waves every {ServiceConfig().pool_wave_seconds:.0f} s", flush=True)
            measure(scratch.new("pairing"), args.processes, args.people, args.seconds, args.seed)
        finally:
            scratch.drop()


if __name__ == "__main__":
    main()
