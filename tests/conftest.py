"""Settings shared by every test, and a check that no test leaves a process running."""

import contextlib
import logging
import os
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

# As the Telegram bot does on import (bots/telegram/__init__.py): python-telegram-bot
# gives durations as timedeltas, so tests that use its client alone behave the same.
os.environ.setdefault("PTB_TIMEDELTA", "1")

#: Every process the tests start inherits this, wherever it ends up in the tree of processes:
#: a worker whose parent was killed (and which init adopted) is still found by it.
OWNER = "PYTEST_OWNER_PID"
os.environ[OWNER] = str(os.getpid())
#: How long a test's processes may take to end after it, before they count as left behind.
ENDING = 5.0
#: multiprocessing's own helpers, which this process starts once and keeps to its end.
HELPERS = (b"multiprocessing.forkserver", b"multiprocessing.resource_tracker")


def _proc(pid: int, name: str) -> bytes:
    try:
        return Path(f"/proc/{pid}/{name}").read_bytes()
    except OSError:  # gone, or another user's
        return b""


def _pids() -> set[int]:
    return {int(entry) for entry in os.listdir("/proc") if entry.isdigit()}


def _parent_if_running(pid: int) -> int | None:
    """Process ``pid``'s parent, or None if it has ended (a zombie has)."""
    state = _proc(pid, "stat").rpartition(b")")[2].split()
    return int(state[1]) if len(state) > 1 and state[0] not in (b"Z", b"X") else None


def left_running(before: set[int]) -> dict[int, str]:
    """The processes started since ``before`` that still run and are this test run's:
    descendants of this process, or carrying ``OWNER`` from it. Their command lines, by pid."""
    me = os.getpid()
    parents = {pid: parent for pid in _pids() - before if (parent := _parent_if_running(pid)) is not None}
    mine = f"{OWNER}={me}".encode()

    def ours(pid: int) -> bool:
        if parents.get(pid) == me and any(helper in _proc(pid, "cmdline") for helper in HELPERS):
            return False
        ancestor: int | None = pid
        while ancestor in parents:
            ancestor = parents[ancestor]
        return ancestor == me or mine in _proc(pid, "environ").split(b"\0")

    return {pid: _proc(pid, "cmdline").replace(b"\0", b" ").decode(errors="replace").strip()
            for pid in parents if ours(pid)}


@pytest.fixture(autouse=True)
def no_process_left_behind() -> Iterator[None]:
    """A test whose processes outlive it (by more than ``ENDING`` seconds) fails, and they are killed."""
    if not os.path.isdir("/proc"):
        yield
        return
    before = _pids()
    yield
    deadline = time.monotonic() + ENDING
    while (left := left_running(before)) and time.monotonic() < deadline:
        time.sleep(0.05)
    for pid in left:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    if left:
        pytest.fail("processes left running after the test (killed now): "
                    + "; ".join(f"{pid} {command[:200]}" for pid, command in left.items()))


@pytest.fixture
def logging_restored() -> Iterator[None]:
    """A test that sets up logging as an entry point does leaves it as it found it."""
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    loggers = [lg for lg in logging.root.manager.loggerDict.values() if isinstance(lg, logging.Logger)]
    kept = {lg.name: (lg.level, lg.filters[:]) for lg in loggers}
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for lg in [lg for lg in logging.root.manager.loggerDict.values() if isinstance(lg, logging.Logger)]:
        lg_level, lg.filters[:] = kept.get(lg.name, (logging.NOTSET, []))
        lg.setLevel(lg_level)
