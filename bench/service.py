"""Durable plays per second through the table service, start-up time, memory per match.

    python bench/service.py [--matches 50] [--plays 4000] [--database PATH|URL]
                            [--processes 1] [--alone] [--startup 1000,50000] [--recent]
                            [--no-memory]

Plays go through ``TableService.play`` exactly as an adapter's presses would:
checked, applied, committed to the store and delivered (to an adapter that
keeps nothing). Matches run concurrently, as in a busy bot. ``--database`` is
an SQLite file (default: a temporary one; WAL, ``synchronous=FULL``) or a
``postgresql://`` URL, in which each run makes a schema of its own and drops it
afterwards. ``--processes N`` runs N service processes on the one database,
each with its share of the matches, started together: the figure is all their
plays over the time the slowest took (SQLite: one process only). ``--alone``: each
process's service acts alone on its tables, as the process that leads a Telegram bot
does (no lock across processes, no read of the row before each action, and on
PostgreSQL its clocks woken from the due times as on SQLite, not claimed); otherwise
they act as Discord shard processes do, each action ordered across processes.

Start-up (``--startup``): that many open running matches are stored, quiet for
an hour, and the time to open the store and start a service on it is taken
(the median of three starts, each in a new process, as a restart is, a minute after
the stop before), with the resident memory the start added at its most (``VmHWM``
less ``VmRSS`` before it), then once more under tracemalloc for the most memory the
start allocated at once (its peak) and with each store call of the start timed. Up to
500 matches are played through the service; a larger number is made of copies of those
rows (and their events) under new table and chat ids, written straight into the
database, so that 50,000 take seconds, not an hour.
``--recent``: the matches were written just before the service stopped
without delivering everything (a crash), so the start lists them all to draw
again, draws the latest 20 and leaves the rest to be drawn behind live play.
Memory per running match is the traced allocation growth (tracemalloc) of
opening and starting 200 1-v-1 matches, divided by their number.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import inspect
import multiprocessing
import random
import sqlite3
import statistics
import sys
import tempfile
import time
import tracemalloc
import uuid
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bots.service import ManualClock, Notice, Person, ServiceConfig, TableService
from storage import Store, codec, open_store
from storage.location import is_postgres_url, redact

CONFIG = ServiceConfig(computer_delay=0, heartbeat_seconds=1e9)


class Sink:
    name = "tg"
    owner = "tg:bench"

    async def deliver(self, notices: Sequence[Notice]) -> None:
        return None


def store_for(database: str, clock: Callable[[], float] = time.time) -> Store:
    return open_store(database if is_postgres_url(database) else Path(database), clock=clock)


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


async def throughput(
    database: str, matches: int, plays: int, first: int = 0, ready: Callable[[], None] | None = None,
    alone: bool = False,
) -> tuple[int, float]:
    """``plays`` plays over ``matches`` concurrent matches (chats from ``first`` on); ``ready``
    is called once the matches are open, and the clock starts when it returns."""
    clock = ManualClock()
    async with (
        store_for(database) as store,
        TableService(
            store, [Sink()], clock=clock, config=CONFIG, rng=random.Random(first + 1), alone=alone
        ) as service,
    ):
        ids = await open_matches(service, matches, first)
        if ready is not None:
            ready()
        done = 0
        offset = first + matches + 1_000_000
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


def _child(
    database: str, index: int, matches: int, plays: int, barrier: object, out: object, alone: bool
) -> None:
    def ready() -> None:
        barrier.wait()  # type: ignore[attr-defined]

    done, elapsed = asyncio.run(throughput(database, matches, plays, index * 100_000, ready, alone))
    out.put((done, elapsed))  # type: ignore[attr-defined]


def throughput_in(
    database: str, processes: int, matches: int, plays: int, alone: bool = False
) -> tuple[int, float]:
    """``throughput`` in ``processes`` processes on one database, started together."""
    if processes == 1:
        return asyncio.run(throughput(database, matches, plays, alone=alone))
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(processes)
    out = context.Queue()
    share = max(1, matches // processes)
    children = [
        context.Process(target=_child, args=(database, i, share, plays // processes, barrier, out, alone))
        for i in range(processes)
    ]
    for child in children:
        child.start()
    results = [out.get(timeout=600) for _ in children]
    for child in children:
        child.join()
    return sum(done for done, _ in results), max(elapsed for _, elapsed in results)


#: At most this many matches are played through the service; more are copies of them.
PLAYED = 500

_OPEN = "status IN ('lobby', 'running')"


def _copied_columns(number: str, digits: str) -> str:
    """The table columns of a copy: its id and chat id made unique by the copy's number."""
    names = {"table_id": f"table_id || '.' || {number}", "chat_id": f"chat_id || {digits}"}
    return ", ".join(names.get(column, column) for column in codec.TABLE_COLUMNS)


async def copy_matches(database: str, copies: int) -> None:
    """``copies`` copies of every open table, with its events, under new ids (table id with
    ``.n`` after it, chat id with three digits after it), written in two statements."""
    columns = ", ".join(codec.TABLE_COLUMNS)
    events = "table_id, version, kind, data, at"
    if is_postgres_url(database):
        import asyncpg  # type: ignore[import-untyped]

        series = "generate_series(1, $1) AS n(i)"
        pg_digits = "lpad(i::text, 3, '0')"
        connection = await asyncpg.connect(database)
        try:
            async with connection.transaction():
                await connection.execute(
                    f"INSERT INTO tables ({columns}) SELECT {_copied_columns('i', pg_digits)}"
                    f" FROM tables, {series} WHERE {_OPEN} AND strpos(table_id, '.') = 0", copies,
                )
                await connection.execute(
                    f"INSERT INTO events ({events}) SELECT e.table_id || '.' || i, e.version, kind, data, at"
                    f" FROM events e JOIN tables t USING (table_id), {series}"
                    f" WHERE t.{_OPEN} AND strpos(table_id, '.') = 0", copies,
                )
            # As after any bulk load (a restore too): the planner's figures for the tables as
            # they now are, which autovacuum would gather a little later.
            await connection.execute("ANALYZE tables, events")
        finally:
            await connection.close()
        return
    series = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)"
    digits = "printf('%03d', i)"
    connection = sqlite3.connect(database, isolation_level=None)
    try:
        connection.execute("BEGIN")
        connection.execute(
            f"{series} INSERT INTO tables ({columns}) SELECT {_copied_columns('i', digits)}"
            f" FROM tables, n WHERE {_OPEN} AND instr(table_id, '.') = 0", (copies,),
        )
        connection.execute(
            f"{series} INSERT INTO events ({events}) SELECT e.table_id || '.' || i, e.version, kind, data, at"
            f" FROM events e JOIN tables t USING (table_id), n WHERE t.{_OPEN} AND instr(table_id, '.') = 0",
            (copies,),
        )
        connection.execute("COMMIT")
    finally:
        connection.close()


async def store_open_matches(database: str, count: int, recent: bool = False) -> int:
    """``count`` running 1-v-1 matches, each with a play, written an hour ago by a service
    that stopped having delivered everything (``recent``: a minute ago, and it stopped
    without delivering everything); beyond ``PLAYED``, copies. Returns how many there are
    (``count`` rounded down to whole copies)."""
    long_ago = time.time() - (60 if recent else 3600)
    clock = ManualClock(start=long_ago)
    played = min(count, PLAYED)
    async with store_for(database, clock=lambda: clock.now()) as store:
        service = TableService(store, [Sink()], clock=clock, config=CONFIG, rng=random.Random(9))
        await service.start()
        rng = random.Random(10)
        for table_id in await open_matches(service, played, offset=500_000):
            await play_one(service, table_id, rng)
        await service.close(delivered=not recent)
    copies = count // played - 1  # written as the matches they copy were, with their times
    if copies > 0:
        await copy_matches(database, copies)
    return played * (copies + 1)


def _resident() -> tuple[int, int]:
    """This process's resident memory now and at most so far, in bytes (Linux)."""
    fields = dict(
        line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line
    )
    return int(fields["VmRSS"].split()[0]) * 1024, int(fields["VmHWM"].split()[0]) * 1024


class CallTimes:
    """The time each of a store's calls took, by method, while ``timed``."""

    def __init__(self, store: Store) -> None:
        self.spent: dict[str, float] = {}
        for name in dir(type(store)):
            method = getattr(store, name, None)
            if name.startswith("_") or name in ("open", "close") or not inspect.iscoroutinefunction(method):
                continue
            setattr(store, name, self._timed(name, method))

    def _timed(self, name: str, method: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
        async def call(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return await method(*args, **kwargs)
            finally:
                self.spent[name] = self.spent.get(name, 0.0) + time.perf_counter() - started

        return call

    def __str__(self) -> str:
        calls = sorted(self.spent.items(), key=lambda item: -item[1])
        return ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in calls)


async def start_up(
    database: str, later: float, traced: bool = False, alone: bool = False
) -> tuple[float, int, int, int, str]:
    """Seconds to open the store and start a service on it (the bot's start, less the chat),
    ``later`` seconds after the stop before; the resident memory the start added at its
    most, and the process's at its most (bytes); the most Python memory it had allocated at
    once (tracemalloc's peak, with ``traced``, else 0); and, with ``traced``, how long each
    store call took."""
    clock = ManualClock(start=time.time() + later)
    gc.collect()
    before, _ = _resident()
    if traced:
        tracemalloc.start()
    started = time.perf_counter()
    store = store_for(database)
    calls = CallTimes(store) if traced else None
    await store.open()
    service = TableService(store, [Sink()], clock=clock, config=CONFIG, alone=alone)
    await service.start()
    elapsed = time.perf_counter() - started
    peak = 0
    if traced:
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    _, most = _resident()
    await service.close()  # not delivered: the next start lists the same tables again
    await store.close()
    return elapsed, most - before, most, peak, str(calls or "")


def _start_in_child(database: str, later: float, traced: bool, alone: bool, out: object) -> None:
    out.put(asyncio.run(start_up(database, later, traced, alone)))  # type: ignore[attr-defined]


def start_ups(
    database: str, count: int, recent: bool = False, alone: bool = False
) -> tuple[int, float, int, int, int, str]:
    """Store ``count`` open matches, then start a service on them three times, each in a
    process of its own (as a restart is) a minute after the last stop, and once more traced.
    Returns the matches stored, the median seconds, the most resident memory a start added
    and the most a starting process held, tracemalloc's peak, and the store calls of the
    traced start."""
    stored = asyncio.run(store_open_matches(database, count, recent))
    context = multiprocessing.get_context("spawn")
    runs = []
    for n in range(4):
        out = context.Queue()
        child = context.Process(target=_start_in_child, args=(database, 60.0 * (n + 1), n == 3, alone, out))
        child.start()
        runs.append(out.get(timeout=600))
        child.join()
    timed = runs[:3]
    seconds = statistics.median(run[0] for run in timed)
    added, held = max(run[1] for run in timed), max(run[2] for run in timed)
    return stored, seconds, added, held, runs[3][3], runs[3][4]


async def memory(database: str, matches: int) -> float:
    clock = ManualClock()
    async with (
        store_for(database) as store,
        TableService(store, [Sink()], clock=clock, config=CONFIG, rng=random.Random(2)) as service,
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


class Scratch:
    """A fresh place for one measurement: an SQLite file in a temporary folder, or a schema
    of its own on the PostgreSQL server (dropped afterwards)."""

    def __init__(self, database: str | None, folder: Path) -> None:
        self.base = database
        self.folder = folder
        self.schemas: list[str] = []

    def new(self, name: str) -> str:
        if self.base is None or not is_postgres_url(self.base):
            path = Path(self.base) if self.base else self.folder / f"{name}.sqlite3"
            if self.base:
                path = path.with_name(f"{path.stem}-{name}{path.suffix or '.sqlite3'}")
            return str(path)
        schema = f"bench_{name}_{uuid.uuid4().hex[:8]}"
        asyncio.run(self._sql(f'CREATE SCHEMA "{schema}"'))
        self.schemas.append(schema)
        joiner = "&" if urlsplit(self.base).query else "?"
        return f"{self.base}{joiner}search_path={schema}"

    async def _sql(self, statement: str) -> None:
        import asyncpg  # type: ignore[import-untyped]

        assert self.base is not None
        connection = await asyncpg.connect(self.base)
        try:
            await connection.execute(statement)
        finally:
            await connection.close()

    def drop(self) -> None:
        for schema in self.schemas:
            asyncio.run(self._sql(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))


def plays(where: str, args: argparse.Namespace, backend: str) -> None:
    cpu = time.process_time()
    done, elapsed = throughput_in(where, args.processes, args.matches, args.plays, args.alone)
    cpu = time.process_time() - cpu
    mine = f", {cpu / done * 1000:.2f} ms of this process's CPU a play" if args.processes == 1 else ""
    print(
        f"durable plays: {done} in {elapsed:.2f} s = {done / elapsed:.0f} plays/s "
        f"({args.processes} process{'es' if args.processes > 1 else ''}"
        f"{' acting alone' if args.alone else ''}, {args.matches} concurrent matches, "
        f"{backend}{mine})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--matches", type=int, default=50, help="concurrent matches (default 50)")
    parser.add_argument("--plays", type=int, default=4000, help="plays to time (default 4000; 0: "
                        "no plays timed)")
    parser.add_argument("--database", "--db", help="an SQLite file or a postgresql:// URL "
                        "(default: a temporary SQLite file)")
    parser.add_argument("--processes", type=int, default=1, help="service processes (default 1)")
    parser.add_argument("--startup", default="", help="stored open matches to time start-up with, "
                        "e.g. 1000,5000 (default: not timed)")
    parser.add_argument("--recent", action="store_true", help="the stored matches were written just "
                        "before a stop that did not deliver everything")
    parser.add_argument("--alone", action="store_true", help="each process acts alone on its tables "
                        "(as a Telegram bot's leading process does)")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory figure")
    args = parser.parse_args()
    postgres = args.database is not None and is_postgres_url(args.database)
    if args.processes > 1 and not postgres:
        parser.error("several processes need a PostgreSQL --database (one process per SQLite file)")
    backend = f"PostgreSQL {redact(args.database)}" if postgres else "SQLite WAL synchronous=FULL"
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Scratch(args.database, Path(tmp))
        try:
            if args.plays > 0:
                plays(scratch.new("plays"), args, backend)
            for count in [int(c) for c in args.startup.split(",") if c.strip()]:
                stored, seconds, added, held, peak, calls = start_ups(
                    scratch.new(f"start{count}"), count, args.recent, args.alone
                )
                kind = "written just before a stop that did not deliver" if args.recent else "quiet"
                kind += ", the service acting alone" if args.alone else ""
                print(f"start-up with {stored} stored open matches ({kind}): {seconds * 1000:.0f} ms "
                      f"(median of 3); resident memory +{added / 2**20:.1f} MB at most "
                      f"({held / 2**20:.0f} MB the process in all), {peak / 2**20:.1f} MB allocated "
                      f"at most (tracemalloc) ({backend})")
                print(f"  store calls of a start (traced): {calls}")
            if not args.no_memory:
                per_match = asyncio.run(memory(scratch.new("memory"), 200))
                print(f"memory per running match: {per_match / 1024:.1f} KB (tracemalloc, 200 matches)")
        finally:
            scratch.drop()


if __name__ == "__main__":
    main()
