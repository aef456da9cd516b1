"""How late turn clocks and computer turns fire, on one process or several.

    python bench/clocks.py [--database PATH|URL] [--processes 1] [--tables 20]
                           [--seconds 60] [--turn 4] [--kill]

Each process runs a table service on the one database, as Discord shard processes
do (each acts on its own tables, every action ordered across processes), with
``--tables`` 2-v-2 matches of two people and two beginner computers (a table with
one person is practice, which has no turn clock). The people never play: each
one's turn clock (``--turn`` seconds) runs out and the beginner's card is played
for them, and each computer plays after its pause. So every table fires two clocks
and two computer turns a trick, again and again, all on the system clock.

The figure is how late each fires, seen where a chat adapter sees it (the service's
delivery of the play, after its commit): for a clock, delivery − the deadline the
table showed; for a computer, delivery − (the previous play's delivery + the pause).
It prints the median, p99 and worst of each, per run.

``--kill``: after a third of the run, the last process is killed outright (SIGKILL)
while its clocks run; the others take its overdue work over. Its tables' lateness
from then on is printed apart: it is the take-over's wait (``takeover_seconds`` 1.5 s,
then the next poll), by design, not a process's own lateness.

``--database`` is an SQLite file (default: a temporary one; one process only) or a
``postgresql://`` URL, in which each run makes a schema of its own and drops it
afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import multiprocessing
import os
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.service import Scratch, store_for
from bots.service import Notice, Person, ServiceConfig, TableService, TableUpdated
from storage.location import is_postgres_url

PAUSE = 0.8


Seen = tuple[str, int, float, float | None, bool]  # table, version, delivered, deadline, computer's turn


class Watch:
    """The chat adapter's side: each table state delivered, and when."""

    name = "tg"
    owner = "tg:bench"

    def __init__(self) -> None:
        self.own: list[str] = []
        self.seen: list[Seen] = []

    async def deliver(self, notices: Sequence[Notice]) -> None:
        now = time.time()
        for notice in notices:
            if isinstance(notice, TableUpdated) and notice.table.running:
                view = notice.table
                moving = view.seats[view.to_move] if view.to_move is not None else None
                computer = moving is not None and moving.is_computer
                self.seen.append((view.table_id, view.version, now, view.deadline, computer))


def lateness(seen: Sequence[Seen], tables: set[str]) -> tuple[list[float], list[float]]:
    """How late each clock and each computer turn of ``tables`` fired: each state against
    the one before it, whichever process delivered either."""
    clock: list[float] = []
    computer: list[float] = []
    states: dict[str, list[Seen]] = {}
    for one in seen:
        if one[0] in tables:
            states.setdefault(one[0], []).append(one)
    for table in states.values():
        table.sort(key=lambda one: (one[1], one[2]))
        for before, after in itertools.pairwise(table):
            if after[1] == before[1]:
                continue
            if before[4]:
                computer.append(after[2] - before[2] - PAUSE)
            elif before[3] is not None:
                clock.append(after[2] - before[3])
    return clock, computer


async def run(database: str, index: int, tables: int, seconds: float, turn: int) -> Watch:
    config = ServiceConfig(
        turn_seconds=turn, warning_seconds=0, computer_delay=PAUSE, computer_processes=0
    )
    watch = Watch()
    async with store_for(database) as store, TableService(store, [watch], config=config) as service:
        for n in range(tables):
            chat = f"tg:-{index}{n:04d}"
            person = Person(f"tg:{index}{n:04d}1", f"A{n}")
            lobby = await service.new_lobby(chat, person, "2v2")
            await service.join(lobby.table_id, Person(f"tg:{index}{n:04d}2", f"B{n}"))
            for _ in range(2):
                await service.add_computer(lobby.table_id, person, "beginner")
            watch.own.append(lobby.table_id)
            await service.start_match(lobby.table_id, person)
        await asyncio.sleep(seconds)
    return watch


def _child(database: str, index: int, tables: int, seconds: float, turn: int, out: object) -> None:
    watch = asyncio.run(run(database, index, tables, seconds, turn))
    out.put((watch.own, watch.seen))  # type: ignore[attr-defined]


def _line(name: str, values: list[float]) -> str:
    if not values:
        return f"{name:<34} none fired"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (
        f"{name:<34} {len(values):>5} fired  median {statistics.median(values):+.3f} s"
        f"  p99 {p99:+.3f} s  worst {ordered[-1]:+.3f} s"
    )


def measure(database: str, processes: int, tables: int, seconds: float, turn: int, kill: bool) -> None:
    if processes == 1:
        watch = asyncio.run(run(database, 0, tables, seconds, turn))
        clock, computer = lateness(watch.seen, set(watch.own))
        print(_line("turn clocks (delivery - deadline)", clock))
        print(_line("computer turns (- pause)", computer))
        return
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    children = [
        context.Process(target=_child, args=(database, i, tables, seconds, turn, out))
        for i in range(processes)
    ]
    for child in children:
        child.start()
    killed_at = 0.0
    if kill:
        time.sleep(seconds / 3)
        victim = children[-1]
        assert victim.pid is not None
        os.kill(victim.pid, signal.SIGKILL)
        killed_at = time.time()
        print(f"killed process {processes - 1} ({tables} tables) {seconds / 3:.0f} s in", flush=True)
    results = [out.get(timeout=seconds + 120) for _ in range(processes - (1 if kill else 0))]
    for child in children:
        child.join()
    own = {table for tables_of, _ in results for table in tables_of}
    seen = [one for _, seen_by in results for one in seen_by]
    clock, computer = lateness(seen, own)
    print(_line("turn clocks (delivery - deadline)", clock))
    print(_line("computer turns (- pause)", computer))
    if kill:
        theirs = {one[0] for one in seen} - own
        first: dict[str, float] = {}
        for table, _, at, _, _ in seen:
            if table in theirs:
                first[table] = min(at, first.get(table, at))
        label = "the killed process's tables"
        print(f"{label:<34} {len(theirs):>5} of {tables} played on elsewhere")
        print(_line("kill -> first play elsewhere", [at - killed_at for at in first.values()]))
        clock, computer = lateness(seen, theirs)
        print(_line("  then their clocks", clock))
        print(_line("  then their computer turns", computer))


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", help="an SQLite file or a postgresql:// URL")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--tables", type=int, default=20, help="2-v-2 tables in each process")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--turn", type=int, default=4, help="the turn clock, seconds")
    parser.add_argument("--kill", action="store_true", help="kill the last process a third of the way in")
    args = parser.parse_args()
    if args.processes < 1 or (args.kill and args.processes < 2):
        parser.error("--processes must be at least 1 (2 with --kill)")
    if not (args.database and is_postgres_url(args.database)) and args.processes > 1:
        parser.error("several processes need a postgresql:// database")
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Scratch(args.database, Path(tmp))
        try:
            print(
                f"{args.processes} process(es) x {args.tables} tables (2-v-2, two idle people, two"
                f" beginners), turn clock {args.turn} s, computer pause {PAUSE} s, {args.seconds:.0f} s",
                flush=True,
            )
            measure(scratch.new("clocks"), args.processes, args.tables, args.seconds, args.turn, args.kill)
        finally:
            scratch.drop()


if __name__ == "__main__":
    main()
