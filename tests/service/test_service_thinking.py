"""Computer seats think in worker processes (``bots.service.thinking``), as the bots run them."""

from __future__ import annotations

import asyncio
import logging
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bots.service import ManualClock, ServiceConfig, TableService
from bots.service.thinking import Thinker, decide, default_processes
from core import Match, Rules
from storage import SqliteStore
from tests.service.helpers import ALICE, GROUP, FakePlatform, play_turn


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie waiting to be reaped has)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except OSError:
        return True


def wait_gone(pids: list[int]) -> None:
    """Wait up to 10 s for the processes to end; fail if they do not."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and not all(gone(pid) for pid in pids):
        time.sleep(0.05)
    assert all(gone(pid) for pid in pids)


async def first_round(db_path: Path, processes: int) -> tuple[list[tuple[int, str]], list[int]]:
    """A practice match against the expert to the end of its first round, Alice playing her
    first card: each play's seat and card, and the thinking processes seen meanwhile."""
    clock = ManualClock()
    config = ServiceConfig(computer_delay=0, heartbeat_seconds=3600, computer_processes=processes)
    seen: set[int] = set()
    async with (
        SqliteStore(db_path) as store,
        TableService(store, [FakePlatform()], clock=clock, config=config, rng=random.Random(11)) as service,
    ):
        table = await service.practice(GROUP, ALICE, level="expert")
        for _ in range(200):
            await clock.run_due()
            table = await service.table(table.table_id)
            seen.update(service.timers.thinker.pids())
            if table.round_no > 1 or not table.running:
                break
            seat = table.seats[table.to_move or 0]
            if seat.player_id == ALICE.player_id:
                await play_turn(service, table.table_id, ALICE.player_id)
        assert table.round_no > 1, "the first round did not end"
        events = await store.load_events(table.table_id)
    plays = [(e.data["seat"], e.data["card"]) for e in events if e.kind == "card_played"]
    return plays, sorted(seen)


async def test_a_round_against_computers_thinking_in_processes(tmp_path: Path) -> None:
    in_processes, pids = await first_round(tmp_path / "a.sqlite3", processes=1)
    assert len(in_processes) >= 48  # a whole round of 2-player deals: 52 cards less the floor's 4
    assert pids and os.getpid() not in pids


async def test_a_worker_process_decides_as_this_process_does() -> None:
    """A decision travels as level, seed and view, so a worker makes the play this process
    would make, view for view, whatever its own hash seed."""
    thinker = Thinker(1)
    try:
        variant = Rules(optional_capture=True, seven_diamonds_basra="count", majority_tie="split")
        for players, level, rules in (
            (2, "expert", Rules()),
            (4, "expert", Rules()),
            (2, "expert", variant),
            (2, "strong", Rules()),
        ):
            match = Match.new(players, rules, seed=players)
            for k in range(24):
                seat = match.to_move
                assert seat is not None
                view = match.view(seat)
                seed = f"same:{players}:{rules.optional_capture}:{k}"
                play = await thinker.choose(level, seed, view)
                assert play == decide(level, seed, view)
                match.play(seat, *play)
    finally:
        await thinker.close()


async def test_a_killed_worker_costs_no_decision(db_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A worker killed mid-match (out of memory, say): the decision it took with it is made
    again in the service's own process, and the next ones in a new worker."""
    clock = ManualClock()
    config = ServiceConfig(computer_delay=0, heartbeat_seconds=3600, computer_processes=1)
    async with (
        SqliteStore(db_path) as store,
        TableService(store, [FakePlatform()], clock=clock, config=config, rng=random.Random(3)) as service,
    ):
        table = await service.practice(GROUP, ALICE, level="expert")
        thinker = service.timers.thinker
        killed: list[int] = []
        made = 0
        for _ in range(200):
            await clock.run_due()
            table = await service.table(table.table_id)
            if table.seats[table.to_move or 0].player_id != ALICE.player_id:
                continue
            workers = thinker.pids()
            if workers and len(killed) < 2:
                for pid in workers:
                    os.kill(pid, signal.SIGKILL)
                    killed.append(pid)
                wait_gone(killed)
            before = table.version
            await play_turn(service, table.table_id, ALICE.player_id)
            made += 1
            await clock.run_due()  # the computer's answer
            after = await service.table(table.table_id)
            assert after.version > before + 1 or not after.running  # Alice's play and the computer's
            if made == 6:
                break
        assert len(killed) == 2 and made == 6
        assert thinker.pids() and not set(thinker.pids()) & set(killed)
    assert "thinking process died" in caplog.text
    assert all(record.levelno == logging.WARNING for record in caplog.records if "died" in record.message)


async def test_a_worker_killed_while_a_decision_waits_on_it(caplog: pytest.LogCaptureFixture) -> None:
    """A worker that dies with a decision sent to it and not yet answered: that decision
    is made again in this process, the same play, and the next one in a new worker."""
    thinker = Thinker(1)
    match = Match.new(2, Rules(), seed=9)
    view = match.view(match.to_move or 0)
    try:
        await thinker.choose("expert", "held:1", view)
        [worker] = thinker.pids()
        os.kill(worker, signal.SIGSTOP)  # it holds the next decision and cannot answer it
        held = asyncio.create_task(thinker.choose("expert", "held:2", view))
        await asyncio.sleep(0.3)
        assert not held.done()
        os.kill(worker, signal.SIGKILL)
        assert await asyncio.wait_for(held, 30) == decide("expert", "held:2", view)
        wait_gone([worker])
        assert await thinker.choose("expert", "held:3", view) == decide("expert", "held:3", view)
        assert thinker.pids() and worker not in thinker.pids()
    finally:
        await thinker.close()
    warnings = [r for r in caplog.records if "died" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING


def started_child() -> tuple[subprocess.Popen[str], list[int]]:
    """``thinking_child.py`` in a process group of its own, once its workers run."""
    child = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("thinking_child.py"))],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert child.stdout is not None
    try:
        line = child.stdout.readline().split()
        assert line[:1] == ["ready"] and int(line[1]) == child.pid
        workers = [int(pid) for pid in line[2:]]
        assert len(workers) == 2 and not any(gone(pid) for pid in workers)
    except BaseException:
        # The child, the server its workers fork from and the workers share its process group.
        os.killpg(child.pid, signal.SIGKILL)
        child.communicate()
        raise
    return child, workers


def test_a_killed_service_leaves_no_worker_behind() -> None:
    """Killed outright, the service closes nothing: its workers see it gone and end."""
    child, workers = started_child()
    child.kill()
    child.communicate()
    wait_gone(workers)


def test_ctrl_c_leaves_the_screen_clean() -> None:
    """Ctrl-C at a terminal reaches the whole process group: the workers leave it to the
    service, so no traceback of theirs lands under the table, and they end with it."""
    child, workers = started_child()
    try:
        os.killpg(child.pid, signal.SIGINT)
        _, errors = child.communicate(timeout=30)
    finally:
        child.kill()
    assert child.returncode == 130
    assert errors == ""
    wait_gone(workers)


async def test_a_clock_s_choice_does_not_wait_for_the_processes_to_start() -> None:
    """A turn clock plays the beginner's card for the absent person at once: where no
    computer has played yet, it is decided in the thread, and the processes start meanwhile
    for the next."""
    thinker = Thinker(1)
    try:
        match = Match.new(4, Rules(), seed=9)
        view = match.view(match.to_move or 0)
        started = time.perf_counter()
        play = await thinker.choose("beginner", "clock:1", view, wait=False)
        took = time.perf_counter() - started
        assert play == decide("beginner", "clock:1", view)
        assert thinker.pids() == []  # decided before any process ran
        for _ in range(200):  # and they came up meanwhile
            if thinker.pids():
                break
            await asyncio.sleep(0.05)
        assert len(thinker.pids()) == 1, took
        again = await thinker.choose("beginner", "clock:2", view, wait=False)
        assert again == decide("beginner", "clock:2", view)
    finally:
        await thinker.close()


async def test_a_closed_thinker_starts_nothing_more() -> None:
    thinker = Thinker(1)
    match = Match.new(2, Rules(), seed=5)
    view = match.view(match.to_move or 0)
    first = await thinker.choose("expert", "t:1", view)
    workers = thinker.pids()
    assert len(workers) == 1
    await thinker.close()
    assert thinker.pids() == []
    assert await thinker.choose("expert", "t:1", view) == first  # in a thread, the same play
    wait_gone(workers)
    await thinker.close()


def test_the_default_leaves_a_core_to_the_event_loop() -> None:
    cores = len(os.sched_getaffinity(0))
    assert default_processes() == max(1, cores - 1)
    with pytest.raises(ValueError):
        Thinker(-1)


async def test_no_process_can_start_so_computers_think_in_a_thread(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Where no process can start (a container without /dev/shm, say), the computers still
    play: in a thread of the service, after one warning."""
    from bots.service import thinking

    def refused(*args: object, **kwargs: object) -> None:
        raise OSError(38, "Function not implemented")

    monkeypatch.setattr(thinking, "ProcessPoolExecutor", refused)
    thinker = Thinker(2)
    match = Match.new(2, Rules(), seed=8)
    view = match.view(match.to_move or 0)
    try:
        assert await thinker.choose("strong", "t:2", view) == decide("strong", "t:2", view)
        assert await thinker.choose("strong", "t:2", view) == decide("strong", "t:2", view)
    finally:
        await thinker.close()
    assert thinker.processes == 0 and thinker.pids() == []
    warnings = [r for r in caplog.records if "did not start" in r.getMessage()]
    assert len(warnings) == 1 and warnings[0].levelno == logging.WARNING
