"""A real bot process killed with SIGKILL at random moments loses no acknowledged play."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import time
from pathlib import Path

from bots.service import ManualClock, TableService
from storage import SqliteStore
from tests.service.helpers import QUIET, FakePlatform, play_out

CHILD = Path(__file__).with_name("crash_child.py")
BUDGET_SECONDS = 12.0


async def run_and_kill(db_path: Path, seed: int, rng: random.Random) -> list[tuple[str, int, int, str]]:
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        str(CHILD),
        str(db_path),
        str(seed),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    acks: list[tuple[str, int, int, str]] = []
    assert child.stdout is not None
    try:
        ready = await asyncio.wait_for(child.stdout.readline(), timeout=30)
        assert ready == b"ready\n", (await child.stderr.read()).decode() if child.stderr else ready

        async def collect() -> None:
            assert child.stdout is not None
            async for line in child.stdout:
                if line.endswith(b"\n") and line.startswith(b"ack "):
                    _, table, version, seat, card = line.decode().split()
                    acks.append((table, int(version), int(seat), card))

        reader = asyncio.ensure_future(collect())
        await asyncio.sleep(rng.uniform(0.05, 0.5))
        if child.returncode is not None:
            assert child.stderr is not None
            raise AssertionError((await child.stderr.read()).decode())
        os.kill(child.pid, signal.SIGKILL)
        assert await child.wait() == -signal.SIGKILL
        await reader
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
    return acks


async def test_every_acknowledged_play_survives_sigkill_and_every_match_continues(db_path: Path) -> None:
    rng = random.Random(2024)
    started = time.monotonic()
    iterations = 0
    all_acks: list[tuple[str, int, int, str]] = []
    while time.monotonic() - started < BUDGET_SECONDS or iterations < 3:
        acks = await run_and_kill(db_path, rng.randrange(1 << 30), rng)
        all_acks.extend(acks)
        iterations += 1
        async with SqliteStore(db_path) as store:
            for table_id, version, seat, card in acks:
                record = await store.get_table(table_id)
                assert record is not None and record.version >= version
                events = await store.load_events(table_id, after_version=0)
                played = [e for e in events if e.kind == "card_played" and e.version <= version]
                assert any(e.data["card"] == card and e.data["seat"] == seat for e in played[-1:]), (
                    table_id,
                    version,
                    card,
                )
    assert iterations >= 3 and len(all_acks) > 50, (iterations, len(all_acks))

    # Every match left running after the last kill continues to its end.
    clock = ManualClock()
    async with (
        SqliteStore(db_path) as store,
        TableService(store, [FakePlatform()], clock=clock, config=QUIET) as svc,
    ):
        open_tables = await store.open_tables()
        assert open_tables
        for record in open_tables:
            final = await play_out(svc, clock, record.table_id)
            assert final.status == "finished"
