"""Every call the platform answered counts against the budgets, refused or not: a write
refused for good keeps its slot, and one that had to make a second call spends two."""

from __future__ import annotations

from bots.outbound import REFUSED, SENT, Dispatcher, Limit, Outcome, Write, note_call


def write(name: str, ran: list[str], *, calls: int = 1, outcome: Outcome = SENT) -> Write:
    async def run() -> Outcome:
        for _ in range(calls):
            note_call()  # what the platform's client says for each answered call
        ran.append(name)
        return outcome

    return Write(key=name, chat="private", run=run)


async def test_a_refused_write_keeps_its_slot() -> None:
    ran: list[str] = []
    outbound = Dispatcher(lambda chat: Limit(1, 10.0))
    outbound.put(write("edit of a message gone", ran, outcome=REFUSED))
    outbound.put(write("next", ran))
    assert not await outbound.idle(0.3)  # the window is spent: the next write waits for it
    assert ran == ["edit of a message gone"] and outbound.counts["refused"] == 1
    await outbound.close()


async def test_a_write_that_made_two_calls_spends_two_slots() -> None:
    ran: list[str] = []
    outbound = Dispatcher(lambda chat: Limit(2, 10.0))
    outbound.put(write("edit refused, then a new message", ran, calls=2))
    outbound.put(write("next", ran))
    assert not await outbound.idle(0.3)
    assert ran == ["edit refused, then a new message"] and outbound.counts["extra calls"] == 1
    await outbound.close()


async def test_a_write_of_one_call_spends_one_slot() -> None:
    ran: list[str] = []
    outbound = Dispatcher(lambda chat: Limit(2, 10.0))
    outbound.put(write("one", ran))
    outbound.put(write("two", ran))
    assert await outbound.idle(0.3)
    assert ran == ["one", "two"] and outbound.counts["extra calls"] == 0

