"""What the outbound side keeps does not grow with every message and every table: a bot
that has served thousands of matches holds about what one that served a hundred does."""

from __future__ import annotations

import asyncio
import tracemalloc
from typing import Any

from bots import memory
from bots.outbound import SENT, Dispatcher, Limit, Outcome, Write
from bots.outbound.refs import MessageRefs

QUICK = Limit(1000, 0.01)  # a window that empties almost at once


async def sent() -> Outcome:
    return SENT


async def test_messages_of_their_own_and_quiet_chats_leave_nothing_behind() -> None:
    dispatcher = Dispatcher(lambda chat: QUICK)

    async def serve(first: int, count: int) -> None:
        for n in range(first, first + count):
            # A reply in a chat of its own: a unique key, no state to order.
            dispatcher.put(Write(key=("reply", n), chat=f"chat {n}", run=sent))
            if n % 500 == 499:  # people come and go: a few hundred chats at a time
                assert await dispatcher.idle(5.0)
                await asyncio.sleep(0.02)
        assert await dispatcher.idle(5.0)

    await serve(0, 2000)  # warm up
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        await serve(2000, 20_000)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # The budgets of the chats seen last, up to about 2,000 of them; not a trace of each message.
    assert grown < 1_500_000, f"{grown / 20_000:.0f} bytes kept per message sent"
    assert dispatcher.counts["sent"] == 22_000


class Rows:
    """A ``RefStore`` in memory, as the store keeps them."""

    def __init__(self) -> None:
        self.rows: dict[str, dict[str, Any]] = {}
        self.reads = 0

    async def message_refs(self, table_id: str) -> dict[str, Any]:
        self.reads += 1
        return dict(self.rows.get(table_id, {}))

    async def keep_refs(self, table_id: str, refs: dict[str, Any]) -> None:
        self.rows.setdefault(table_id, {}).update(refs)


async def test_the_references_of_the_tables_used_last_are_kept_and_the_others_read_again() -> None:
    rows = Rows()
    refs = MessageRefs(rows)
    cap = memory.CAPS.table_refs
    for n in range(3 * cap):
        await refs.of(f"t{n}")
        refs.keep(f"t{n}", "table", [-100, n, 1])
        await asyncio.sleep(0)  # its writer stores it
    await refs.flush()
    kept = [n for n in range(3 * cap) if refs.known(f"t{n}") is not None]
    assert kept == list(range(2 * cap, 3 * cap))
    # One used long ago is read again, whole.
    reads = rows.reads
    assert (await refs.of("t0")).values == {"table": [-100, 0, 1]}
    assert rows.reads == reads + 1
