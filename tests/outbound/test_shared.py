"""Writes of several processes of one bot (``bots.outbound.shared``): a message never goes
back to an older state another process sent, and writes that share a lock take turns
across processes. Two dispatchers stand for two processes, on one store's locks and marks
(those of a store of one process, which behave as the shared ones do)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Hashable, Sequence

from bots.outbound import SENT, SKIPPED, Dispatcher, Limit, Outcome, Write
from bots.outbound.shared import Shared
from storage.keyed import KeyedLocks, Marks, Windows

ROOMY = Limit(calls=1000, period=1.0)


class Store:
    def __init__(self) -> None:
        self.locks, self.windows, self.marks = KeyedLocks(), Windows(), Marks()

    @contextlib.asynccontextmanager
    async def hold(self, key: str) -> AsyncIterator[None]:
        async with self.locks.hold(key):
            yield

    async def take_window(self, key: str, calls: int, period: float, now: float) -> float:
        return self.windows.take(key, calls, period, now)

    async def advance_mark(self, key: str, stamp: Sequence[int]) -> bool:
        return self.marks.advance(key, tuple(stamp))


def processes(store: Store, count: int = 2) -> list[Dispatcher]:
    return [Dispatcher(lambda chat: ROOMY, shared=Shared(store, "tg:1")) for _ in range(count)]


class Log:
    def __init__(self) -> None:
        self.events: list[str] = []

    def write(self, name: str, key: Hashable, stamp: tuple[int, ...], *, lock: Hashable | None = None,
              gate: asyncio.Event | None = None, chat: Hashable = "chat") -> Write:
        async def run() -> Outcome:
            self.events.append(f"{name} starts")
            if gate is not None:
                await gate.wait()
            self.events.append(f"{name} ends")
            return SENT

        return Write(key, chat, run, stamp, scope="table", lock=lock)


async def test_a_state_older_than_one_another_process_sent_is_not_sent() -> None:
    store, log = Store(), Log()
    first, second = processes(store)
    second.put(log.write("newer", "table", (6,)))
    assert await second.idle()
    first.put(log.write("older", "table", (5,)))
    assert await first.idle()
    assert log.events == ["newer starts", "newer ends"]
    assert first.counts["stale"] == 1 and first.counts[SKIPPED] == 1


async def test_writes_sharing_a_lock_take_turns_across_processes() -> None:
    store, log = Store(), Log()
    first, second = processes(store)
    gate = asyncio.Event()
    first.put(log.write("hand", "hand", (3,), lock="hand", gate=gate))
    await asyncio.sleep(0.01)
    second.put(log.write("line", "line of a message", (3,), lock="hand"))
    await asyncio.sleep(0.05)
    assert log.events == ["hand starts"]  # the line waits for the hand's write
    gate.set()
    assert await first.idle() and await second.idle()
    assert log.events == ["hand starts", "hand ends", "line starts", "line ends"]


async def test_writes_of_other_locks_do_not_wait_for_each_other() -> None:
    store, log = Store(), Log()
    first, second = processes(store)
    gate = asyncio.Event()
    first.put(log.write("hand", "hand", (3,), lock="hand", gate=gate))
    await asyncio.sleep(0.01)
    second.put(log.write("table", "table", (3,)))
    await asyncio.sleep(0.05)
    assert log.events == ["hand starts", "table starts", "table ends"]
    gate.set()
    assert await first.idle()


async def test_writes_sharing_a_lock_share_its_newest_state_too() -> None:
    """A hand's message became a short line at version 7: the hand's own write of version 6,
    late from another process, would post it again."""
    store, log = Store(), Log()
    first, second = processes(store)
    first.put(log.write("line", "line of a message", (7,), lock="hand"))
    assert await first.idle()
    second.put(log.write("late hand", "hand", (6,), lock="hand"))
    assert await second.idle()
    assert log.events == ["line starts", "line ends"]
    assert second.counts["stale"] == 1
