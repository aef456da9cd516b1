"""Clocks count downtime exactly once: after a SIGKILL, or a crash loop, a turn has at most
the time it had left when the process died (to within the 1 s heartbeat), never more."""

from __future__ import annotations

import asyncio
import itertools
import signal
import sys
import time
from pathlib import Path

from bots.service import ServiceConfig, TableService, TableView
from storage import SqliteStore

CHILD = Path(__file__).with_name("clock_child.py")
CHAT = "tg:-1"
HEARTBEAT = 1.0


class Quiet:
    name = "tg"
    owner = "tg"

    async def deliver(self, notices: object) -> None:
        return None


async def run_child(db_path: Path, up: float) -> float:
    """Start the child, let it run ``up`` seconds once ready, SIGKILL it; returns when it died."""
    child = await asyncio.create_subprocess_exec(
        sys.executable, str(CHILD), str(db_path), stdout=asyncio.subprocess.PIPE
    )
    assert child.stdout is not None
    assert (await asyncio.wait_for(child.stdout.readline(), 30)).strip() == b"ready"
    await asyncio.sleep(up)
    child.send_signal(signal.SIGKILL)
    died = time.time()
    assert await child.wait() == -signal.SIGKILL
    return died


async def seconds_left(db_path: Path) -> float:
    """The time the turn has left once a new process has started (exact, from the deadline)."""
    config = ServiceConfig(computer_delay=0, heartbeat_seconds=HEARTBEAT, turn_seconds=120)
    async with SqliteStore(db_path) as store:
        service = TableService(store, [Quiet()], config=config)
        await service.start(redeliver=False)
        try:
            table = await service.open_table(CHAT)
            assert isinstance(table, TableView) and table.running
            record = await store.get_table(table.table_id)
            assert record is not None and record.deadline is not None
            return record.deadline - time.time()
        finally:
            await service.close()


async def test_a_killed_process_gives_back_no_time_it_ran(db_path: Path) -> None:
    started = time.time()
    died = await run_child(db_path, up=2.5)
    await asyncio.sleep(2.0)  # down
    left = await seconds_left(db_path)
    ran = died - started  # an upper bound of the time the turn ran (start-up included)
    # Never more than it had when it died; less by at most a heartbeat (and a loaded
    # machine's late beat).
    assert 120 - ran - HEARTBEAT - 1.5 <= left <= 120 - 2.5 + 0.1, (left, ran)


async def test_a_crash_loop_never_stops_a_clock(db_path: Path) -> None:
    lefts = []
    for _ in range(3):
        await run_child(db_path, up=0.3)  # shorter than a heartbeat
        await asyncio.sleep(0.5)
        lefts.append(await seconds_left(db_path))
    # Each round of the loop took at least the time the child ran: the clock went on.
    assert all(later <= earlier - 0.3 for earlier, later in itertools.pairwise(lefts)), lefts
