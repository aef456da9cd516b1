"""How long the event loop is held up while computer seats think, and what a press waits meanwhile.

    python bench/computer_turns.py [--tables 8] [--plays 400] [--level expert]
    python bench/computer_turns.py --processes 0  # the computers thinking in a thread
    python bench/computer_turns.py --inline      # the computers deciding on the loop itself

``--tables`` practice matches against computers of ``--level`` run at once
in one service (SQLite in a temporary folder, the system clock, no pause
before a computer plays), each with a person who plays a random card as soon
as it is their turn, until the people have made ``--plays`` plays. Meanwhile
a probe sleeps 1 ms again and again on the loop; how late it wakes is how
long anything else (another table's press, a planned write to a chat) would
have waited. Printed: the probe's lateness and the time ``TableService.play``
took for the people's presses (p50, p99, max), and the computers' plays per
second. The computers think where the service has them think by default (worker
processes, one fewer than the cores); ``--processes N`` sets how many (0: in a thread
of the service's process), and ``--inline`` has them decide on the loop itself.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service import Sink  # bench/service.py

from bots.service import Person, ServiceConfig, TableService
from bots.service.thinking import Thinker, default_processes
from core.arena import percentile
from storage import open_store

T = TypeVar("T")


class OnTheLoop(Executor):
    """Runs each call at once, in the caller's thread: as the service's thinker, the
    computers decide on the event loop itself."""

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except BaseException as error:
            future.set_exception(error)
        return future


async def run(
    tables: int, plays: int, level: str, processes: int, inline: bool
) -> tuple[list[float], list[float], int, float]:
    config = ServiceConfig(computer_delay=0, heartbeat_seconds=1e9, computer_processes=processes)
    lateness: list[float] = []
    presses: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        async with (
            open_store(Path(folder) / "bench.sqlite3") as store,
            TableService(store, [Sink()], config=config, rng=random.Random(1)) as service,
        ):
            if inline:
                service.timers.thinker = Thinker(0, thread=OnTheLoop())
            stop = asyncio.Event()

            async def probe() -> None:
                while not stop.is_set():
                    start = time.perf_counter()
                    await asyncio.sleep(0.001)
                    lateness.append(time.perf_counter() - start - 0.001)

            made = 0

            async def person(index: int) -> None:
                nonlocal made
                rng = random.Random(index)
                who = Person(f"tg:{index}01", f"P{index}")
                table = await service.practice(f"tg:-{index}", who, level=level)
                while made < plays:
                    table = await service.table(table.table_id)
                    if not table.running:
                        table = await service.practice(f"tg:-{index}", who, level=level)
                        continue
                    if table.seats[table.to_move or 0].player_id != who.player_id:
                        await asyncio.sleep(0.002)
                        continue
                    hand = await service.hand(table.table_id, who.player_id)
                    start = time.perf_counter()
                    await service.play(table.table_id, who.player_id, hand.version, rng.choice(hand.hand))
                    presses.append(time.perf_counter() - start)
                    made += 1

            watcher = asyncio.create_task(probe())
            computer_before = service.plays["computer"]
            started = time.perf_counter()
            await asyncio.gather(*(person(i) for i in range(tables)))
            elapsed = time.perf_counter() - started
            computer = service.plays["computer"] - computer_before
            stop.set()
            await watcher
    return lateness, presses, computer, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8, help="practice matches at once (default 8)")
    parser.add_argument("--plays", type=int, default=400, help="people's plays to make (default 400)")
    parser.add_argument("--level", default="expert", help="the computers' level (default expert)")
    parser.add_argument(
        "--processes",
        type=int,
        default=default_processes(),
        help="worker processes the computers think in; 0: a thread (default: one fewer than the cores)",
    )
    parser.add_argument("--inline", action="store_true", help="computers decide on the event loop")
    args = parser.parse_args()
    lateness, presses, computer, elapsed = asyncio.run(
        run(args.tables, args.plays, args.level, args.processes, args.inline)
    )
    if args.inline:
        where = "on the event loop"
    elif args.processes:
        where = f"in {args.processes} worker process{'es' if args.processes > 1 else ''}"
    else:
        where = "in a worker thread"
    print(
        f"{args.tables} practice matches against {args.level} computers deciding {where}: "
        f"{len(presses)} plays by people, {computer} by computers in {elapsed:.1f} s "
        f"({computer / elapsed:.0f} computer plays a second)"
    )
    for name, values in (("event loop held up (probe lateness)", lateness), ("a person's press", presses)):
        print(
            f"  {name}: p50 {1000 * percentile(values, 0.5):.1f} ms, "
            f"p99 {1000 * percentile(values, 0.99):.1f} ms, max {1000 * max(values):.1f} ms "
            f"over {len(values)}"
        )


if __name__ == "__main__":
    main()
