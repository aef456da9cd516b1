"""The outbound queue: the ``Dispatcher``'s lanes (newest state wins, stale states refused,
chats side by side, order within a chat, limits kept in real time, retries, refunds,
closing) and the ``Gate`` for the bot's budget (``test_budget`` has the budgets)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Hashable, Iterable
from dataclasses import dataclass, field
from itertools import pairwise

import pytest

from bots.outbound import FAILED, SENT, SKIPPED, Dispatcher, Limit, Outcome, Retry, Write

PATIENCE = 2.0  # seconds; a lane that never finishes fails the test instead of hanging it
ROOMY = Limit(1000, 1.0)  # a limit no test here reaches


# -- Dispatcher: a recording fake platform ----------------------------------------------


@dataclass
class Platform:
    """Makes writes that record when they ran (loop time) and answer given outcomes."""

    runs: list[tuple[str, float]] = field(default_factory=list)
    in_flight: int = 0
    most_in_flight: int = 0

    def write(
        self,
        name: str,
        *,
        key: Hashable | None = None,
        chat: Hashable = "group",
        outcomes: Iterable[Outcome | Exception] = (),
        stamp: tuple[int, ...] = (),
        urgent: bool = False,
        order: int = 1,
        hold: asyncio.Event | None = None,
    ) -> Write:
        """A write named ``name`` (its key unless ``key`` is given); it answers ``outcomes``
        one run after the other, then ``SENT``; it waits for ``hold`` if given."""
        answers = iter(outcomes)
        sent: Outcome = SENT

        async def run() -> Outcome:
            self.runs.append((name, asyncio.get_running_loop().time()))
            self.in_flight += 1
            self.most_in_flight = max(self.most_in_flight, self.in_flight)
            try:
                if hold is not None:
                    await hold.wait()
                answer = next(answers, sent)
                if isinstance(answer, Exception):
                    raise answer
                return answer
            finally:
                self.in_flight -= 1

        return Write(
            key=name if key is None else key, chat=chat, run=run, stamp=stamp, urgent=urgent, order=order
        )

    def names(self) -> list[str]:
        return [name for name, _ in self.runs]

    def times(self, name: str) -> list[float]:
        return [at for ran, at in self.runs if ran == name]


def dispatcher(limit: Limit = ROOMY, *, attempts: int = 8, first_delay: float = 0.5) -> Dispatcher:
    """A dispatcher giving every chat ``limit``, with no overall one."""
    return Dispatcher(lambda chat: limit, attempts=attempts, first_delay=first_delay)


async def test_a_newer_state_replaces_a_pending_one() -> None:
    platform, outbound = Platform(), dispatcher()
    for version in (1, 2, 3):
        assert outbound.put(platform.write(f"table v{version}", key="table", stamp=(version,)))
    assert outbound.pending() == 1
    assert await outbound.idle(PATIENCE)
    assert platform.names() == ["table v3"]
    assert outbound.counts["replaced"] == 2
    assert outbound.counts["sent"] == 1


async def test_a_newer_state_replaces_one_waiting_for_the_budget() -> None:
    platform, outbound = Platform(), dispatcher(Limit(1, 0.1))
    outbound.put(platform.write("lobby"))
    await asyncio.sleep(0.01)  # the lobby went; the table now waits for the window
    outbound.put(platform.write("table v1", key="table", stamp=(1,)))
    await asyncio.sleep(0.01)
    outbound.put(platform.write("table v2", key="table", stamp=(2,)))
    assert await outbound.idle(PATIENCE)
    assert platform.names() == ["lobby", "table v2"]


async def test_an_older_state_than_the_pending_one_is_refused() -> None:
    platform, outbound = Platform(), dispatcher()
    assert outbound.put(platform.write("table v2", key="table", stamp=(2,)))
    assert not outbound.put(platform.write("table v1", key="table", stamp=(1,)))
    # The same state again is not older: it is taken (and replaces the pending one).
    assert outbound.put(platform.write("table v2 again", key="table", stamp=(2,)))
    assert await outbound.idle(PATIENCE)
    assert platform.names() == ["table v2 again"]
    assert outbound.counts["stale"] == 1


async def test_an_older_state_than_the_last_started_one_is_refused() -> None:
    platform, outbound = Platform(), dispatcher()
    hold = asyncio.Event()
    outbound.put(platform.write("table v2", key="table", stamp=(2, 0), hold=hold))
    await asyncio.sleep(0.01)
    assert platform.names() == ["table v2"]  # under way, no longer pending
    assert not outbound.put(platform.write("table v1", key="table", stamp=(1, 5)))
    hold.set()
    assert await outbound.idle(PATIENCE)
    # Also once the newer one is done.
    assert not outbound.put(platform.write("table v1 later", key="table", stamp=(1, 9)))
    assert outbound.put(platform.write("table v3", key="table", stamp=(3,)))
    assert await outbound.idle(PATIENCE)
    assert platform.names() == ["table v2", "table v3"]
    assert outbound.counts["stale"] == 2


async def test_a_slow_chat_does_not_delay_another() -> None:
    platform, outbound = Platform(), dispatcher()
    hold = asyncio.Event()
    outbound.put(platform.write("slow", chat="group", hold=hold))
    outbound.put(platform.write("slow's next", chat="group"))
    outbound.put(platform.write("quick", chat="private"))
    outbound.put(platform.write("quick's next", chat="private"))
    await asyncio.sleep(0.05)
    assert platform.names() == ["slow", "quick", "quick's next"]
    assert outbound.counts["sent"] == 2
    assert outbound.pending() == 1  # the slow chat's next waits for its first
    hold.set()
    assert await outbound.idle(PATIENCE)
    assert platform.names()[-1] == "slow's next"


async def test_a_chat_runs_one_write_at_a_time() -> None:
    platform, outbound = Platform(), dispatcher(Limit(100, 1.0, spacing=0.01))
    for n in range(5):
        outbound.put(platform.write(f"refresh {n}"))
        await asyncio.sleep(0.003)  # some arrive while the lane sleeps for the spacing
        outbound.put(platform.write(f"reply {n}", urgent=True))
    assert await outbound.idle(PATIENCE)
    assert len(platform.runs) == 10
    assert platform.most_in_flight == 1


async def test_writes_to_different_messages_keep_their_arrival_order() -> None:
    platform, outbound = Platform(), dispatcher()
    names = [f"message {n}" for n in range(6)]
    for name in names:
        outbound.put(platform.write(name))
    assert await outbound.idle(PATIENCE)
    assert platform.names() == names


async def test_a_lower_order_goes_first() -> None:
    platform, outbound = Platform(), dispatcher()
    outbound.put(platform.write("refresh a", order=2))
    outbound.put(platform.write("reply", order=0))
    outbound.put(platform.write("notice a", order=1))
    outbound.put(platform.write("refresh b", order=2))
    outbound.put(platform.write("notice b", order=1))
    assert await outbound.idle(PATIENCE)
    assert platform.names() == ["reply", "notice a", "notice b", "refresh a", "refresh b"]


async def test_a_replaced_write_keeps_its_place_in_the_order() -> None:
    platform, outbound = Platform(), dispatcher()
    outbound.put(platform.write("table v1", key="table", stamp=(1,)))
    outbound.put(platform.write("lobby"))
    outbound.put(platform.write("table v2", key="table", stamp=(2,)))
    assert await outbound.idle(PATIENCE)
    assert platform.names() == ["table v2", "lobby"]


async def test_the_chat_limit_holds_in_real_time() -> None:
    platform, outbound = Platform(), dispatcher(Limit(3, 0.2))
    for n in range(8):
        outbound.put(platform.write(f"message {n}"))
    assert await outbound.idle(PATIENCE)
    times = [at for _, at in platform.runs]
    assert len(times) == 8
    # No 4 writes within 0.2 s (a run starts right after its slot is spent: µs of slack).
    assert all(later - earlier >= 0.2 - 1e-3 for earlier, later in zip(times, times[3:], strict=False))


async def test_the_overall_limit_holds_across_chats() -> None:
    platform = Platform()
    outbound = Dispatcher(lambda chat: ROOMY, Limit(2, 0.15))
    for n in range(6):
        outbound.put(platform.write(f"message {n}", chat=n))
    assert await outbound.idle(PATIENCE)
    times = sorted(at for _, at in platform.runs)
    assert len(times) == 6
    assert all(later - earlier >= 0.15 - 1e-3 for earlier, later in zip(times, times[2:], strict=False))


async def test_paced_writes_keep_their_spacing() -> None:
    platform, outbound = Platform(), dispatcher(Limit(100, 1.0, spacing=0.05))
    for n in range(4):
        outbound.put(platform.write(f"refresh {n}"))
    assert await outbound.idle(PATIENCE)
    times = [at for _, at in platform.runs]
    assert all(later - earlier >= 0.05 * 0.9 for earlier, later in pairwise(times))


async def test_an_urgent_write_does_not_wait_for_a_paced_ones_slot() -> None:
    platform, outbound = Platform(), dispatcher(Limit(10, 1.0, spacing=0.15))
    outbound.put(platform.write("table v1", key="table", stamp=(1,)))
    await asyncio.sleep(0.01)
    outbound.put(platform.write("table v2", key="table", stamp=(2,)))
    await asyncio.sleep(0.02)  # the lane sleeps until v2's spacing is over
    outbound.put(platform.write("your turn", urgent=True))
    assert await outbound.idle(PATIENCE)
    # Had the lane slept on, the turn would have gone after v2 (it arrived later).
    assert platform.names() == ["table v1", "your turn", "table v2"]
    (first,), (second,) = platform.times("table v1"), platform.times("table v2")
    assert second - first >= 0.15 * 0.9  # waking the lane did not spend v2's spacing early
    assert platform.most_in_flight == 1


async def test_an_urgent_write_may_use_the_reserve() -> None:
    platform, outbound = Platform(), dispatcher(Limit(3, 5.0, reserve=1))
    outbound.put(platform.write("refresh a"))
    outbound.put(platform.write("refresh b"))
    outbound.put(platform.write("refresh c"))  # the window's last slot is kept back
    await asyncio.sleep(0.05)
    outbound.put(platform.write("reply", urgent=True))
    await asyncio.wait_for(_until(lambda: len(platform.runs) == 3), PATIENCE)
    assert platform.names() == ["refresh a", "refresh b", "reply"]
    assert outbound.pending() == 1
    await outbound.close()


async def test_a_retry_runs_again_after_a_doubling_back_off_and_gives_up() -> None:
    platform, outbound = Platform(), dispatcher(attempts=3, first_delay=0.03)
    outbound.put(platform.write("table", outcomes=[Retry()] * 10))
    assert await outbound.idle(PATIENCE)
    times = platform.times("table")
    assert len(times) == 3
    assert times[1] - times[0] >= 0.03 * 0.9
    assert times[2] - times[1] >= 0.06 * 0.9
    assert outbound.counts["retried"] == 2
    assert outbound.counts["gave up"] == 1
    assert outbound.counts["sent"] == 0


async def test_a_retry_that_then_goes_is_sent_once() -> None:
    platform, outbound = Platform(), dispatcher(first_delay=0.01)
    outbound.put(platform.write("table", outcomes=[Retry(), Retry()]))
    assert await outbound.idle(PATIENCE)
    assert len(platform.times("table")) == 3
    assert outbound.counts["sent"] == 1
    assert outbound.counts["gave up"] == 0


async def test_a_retry_after_blocks_the_chat_but_not_another() -> None:
    platform, outbound = Platform(), dispatcher(first_delay=0.001)
    outbound.put(platform.write("table", chat="group", outcomes=[Retry(after=0.2)]))
    outbound.put(platform.write("lobby", chat="group"))
    await asyncio.sleep(0.01)
    outbound.put(platform.write("elsewhere", chat="private"))
    assert await outbound.idle(PATIENCE)
    first, again = platform.times("table")
    (lobby,) = platform.times("lobby")
    (elsewhere,) = platform.times("elsewhere")
    assert again - first >= 0.2 * 0.9
    assert lobby - first >= 0.2 * 0.9  # the whole chat waited, not only the refused write
    assert elsewhere < again
    assert outbound.counts["told to wait"] == 1


async def test_a_429_that_names_no_pause_is_counted_as_told_to_wait_and_backs_off() -> None:
    platform, outbound = Platform(), dispatcher(first_delay=0.001)
    outbound.put(platform.write("table", outcomes=[Retry(throttled=True)]))
    assert await outbound.idle(PATIENCE)
    assert len(platform.times("table")) == 2
    assert outbound.counts["told to wait"] == 1 and outbound.counts["retried"] == 1


async def test_a_newer_state_replaces_a_write_waiting_to_retry() -> None:
    platform, outbound = Platform(), dispatcher(first_delay=0.05)
    outbound.put(platform.write("table v1", key="table", stamp=(1,), outcomes=[Retry()] * 10))
    await asyncio.sleep(0.01)  # v1 failed once and waits for its back-off
    assert outbound.put(platform.write("table v2", key="table", stamp=(2,)))
    assert await outbound.idle(PATIENCE)
    assert platform.names() == ["table v1", "table v2"]
    assert outbound.counts["sent"] == 1


async def test_a_newer_state_put_while_a_write_is_under_way_goes_instead_of_its_retry() -> None:
    platform, outbound = Platform(), dispatcher(first_delay=0.01)
    hold = asyncio.Event()
    outbound.put(platform.write("table v1", key="table", stamp=(1,), outcomes=[Retry()] * 10, hold=hold))
    await asyncio.sleep(0.01)
    assert outbound.put(platform.write("table v2", key="table", stamp=(2,)))
    hold.set()
    assert await outbound.idle(PATIENCE)
    assert platform.names() == ["table v1", "table v2"]
    assert outbound.counts["retried"] == 0
    assert outbound.counts["sent"] == 1


async def test_a_skipped_write_gives_its_slot_back() -> None:
    platform, outbound = Platform(), dispatcher(Limit(1, 10.0))
    outbound.put(platform.write("unchanged table", outcomes=[SKIPPED]))
    outbound.put(platform.write("lobby"))
    # Without the refund the lobby would wait 10 s for the window.
    assert await outbound.idle(1.0)
    assert platform.names() == ["unchanged table", "lobby"]
    assert outbound.counts["skipped"] == 1
    assert outbound.counts["sent"] == 1


async def test_a_skipped_write_gives_its_slot_back_to_the_overall_budget() -> None:
    platform = Platform()
    outbound = Dispatcher(lambda chat: ROOMY, Limit(1, 10.0))
    outbound.put(platform.write("unchanged table", chat="group", outcomes=[SKIPPED]))
    await asyncio.sleep(0.01)
    outbound.put(platform.write("reply", chat="private"))
    assert await outbound.idle(1.0)
    assert platform.names() == ["unchanged table", "reply"]


async def test_a_write_that_raises_counts_as_failed_and_the_lane_goes_on() -> None:
    platform, outbound = Platform(), dispatcher()
    outbound.put(platform.write("broken", outcomes=[RuntimeError("boom")]))
    outbound.put(platform.write("gave up", outcomes=[FAILED]))
    outbound.put(platform.write("fine"))
    assert await outbound.idle(PATIENCE)
    assert platform.names() == ["broken", "gave up", "fine"]
    assert outbound.counts["failed"] == 2
    assert outbound.counts["sent"] == 1
    # The chat still takes writes afterwards.
    outbound.put(platform.write("later"))
    assert await outbound.idle(PATIENCE)
    assert platform.names()[-1] == "later"


async def test_a_cancelled_write_does_not_run() -> None:
    platform, outbound = Platform(), dispatcher()
    outbound.put(platform.write("lobby"))
    outbound.put(platform.write("table"))
    outbound.cancel("group", "lobby")
    assert await outbound.idle(PATIENCE)
    assert platform.names() == ["table"]
    assert outbound.counts["cancelled"] == 1


async def test_a_write_cancelled_while_under_way_is_not_retried() -> None:
    platform, outbound = Platform(), dispatcher(first_delay=0.01)
    hold = asyncio.Event()
    outbound.put(platform.write("lobby", outcomes=[Retry()], hold=hold))
    await asyncio.sleep(0.01)
    outbound.cancel("group", "lobby")  # e.g. the lobby message became the table
    hold.set()
    assert await outbound.idle(PATIENCE)
    assert platform.names() == ["lobby"]


async def test_a_held_write_waits_and_a_newer_state_goes_in_its_place_at_once() -> None:
    platform, outbound = Platform(), dispatcher()
    loop = asyncio.get_running_loop()
    put_at = loop.time()
    held = platform.write("hand", stamp=(1,))
    outbound.put(Write(held.key, held.chat, held.run, held.stamp, after=0.3))
    await asyncio.sleep(0.05)
    assert platform.names() == []  # held back
    outbound.put(platform.write("hand", stamp=(2,)))  # a newer state of the same message
    assert await outbound.idle(PATIENCE)
    assert platform.names() == ["hand"] and platform.times("hand")[0] - put_at < 0.2
    # Alone, a held write goes once its time is up.
    line = platform.write("line")
    outbound.put(Write(line.key, line.chat, line.run, after=0.1))
    started = loop.time()
    assert await outbound.idle(PATIENCE)
    assert platform.times("line")[0] - started >= 0.1


async def test_a_held_write_withdrawn_never_runs_and_leaves_nothing_to_wait_for() -> None:
    platform, outbound = Platform(), dispatcher()
    line = platform.write("line")
    outbound.put(Write(line.key, line.chat, line.run, after=5.0))
    assert outbound.withdraw("group", "line")  # dropped before it started
    assert not outbound.withdraw("group", "line")  # nothing left to drop
    assert await outbound.idle(0.1)  # not held up by the 5 s it would have waited
    assert platform.names() == []


async def test_idle_is_true_once_everything_went() -> None:
    platform, outbound = Platform(), dispatcher(Limit(2, 0.05))
    for n in range(5):
        outbound.put(platform.write(f"message {n}", chat=n % 2))
    assert await outbound.idle(PATIENCE)
    assert len(platform.runs) == 5
    assert outbound.pending() == 0
    assert await outbound.idle(0.0)  # nothing left: at once


async def test_idle_is_false_when_writes_are_still_waiting() -> None:
    platform, outbound = Platform(), dispatcher(Limit(1, 10.0))
    outbound.put(platform.write("lobby"))
    outbound.put(platform.write("table"))
    assert not await outbound.idle(0.05)
    assert platform.names() == ["lobby"]
    await outbound.close()


async def test_close_drops_what_cannot_go_in_time() -> None:
    platform, outbound = Platform(), dispatcher(Limit(1, 10.0))
    loop = asyncio.get_running_loop()
    hold = asyncio.Event()
    outbound.put(platform.write("lobby"))
    outbound.put(platform.write("table"))  # waits 10 s for the window
    outbound.put(platform.write("stuck", chat="private", hold=hold))  # never answers
    start = loop.time()
    await asyncio.wait_for(outbound.close(grace=0.05), PATIENCE)
    assert loop.time() - start < PATIENCE
    assert sorted(platform.names()) == ["lobby", "stuck"]
    assert outbound.pending() == 0
    await asyncio.sleep(0.05)
    assert sorted(platform.names()) == ["lobby", "stuck"]
    assert platform.in_flight == 0  # the stuck call was cancelled


async def test_close_sends_what_fits_in_the_grace() -> None:
    platform, outbound = Platform(), dispatcher(Limit(1, 0.05))
    outbound.put(platform.write("lobby"))
    outbound.put(platform.write("table"))
    await outbound.close(grace=PATIENCE)
    assert platform.names() == ["lobby", "table"]


async def _until(condition: Callable[[], bool]) -> None:
    while not condition():
        await asyncio.sleep(0.005)


# -- the bot's budget, shared by every chat (``Gate``) --------------------------------------


async def test_when_the_bots_budget_is_short_a_write_someone_waits_for_goes_before_refreshes() -> None:
    platform = Platform()
    outbound = Dispatcher(lambda chat: ROOMY, Limit(1, 0.1))
    for n in range(4):
        outbound.put(platform.write(f"refresh {n}", chat=f"group {n}"))
    await asyncio.sleep(0.02)  # the first refresh went; the others wait for the bot's budget
    outbound.put(platform.write("your turn", chat="private", urgent=True))
    assert await outbound.idle(PATIENCE)
    assert platform.names()[:2] == ["refresh 0", "your turn"]


async def test_when_the_bots_budget_is_short_the_chat_waiting_longest_goes_first() -> None:
    """A busy chat with a write after each of its writes does not keep the others waiting:
    each chat's message takes its turn by how long it has waited."""
    platform = Platform()
    outbound = Dispatcher(lambda chat: ROOMY, Limit(1, 0.05))
    for n in range(4):
        outbound.put(platform.write(f"busy {n}", chat="busy"))
    await asyncio.sleep(0.01)
    for name in ("calm a", "calm b", "calm c"):
        outbound.put(platform.write(name, chat=name))
    assert await outbound.idle(PATIENCE)
    order = platform.names()
    # Each calm chat waits for at most one more of the busy chat's writes.
    assert order.index("calm c") <= 5, order
    times = sorted(at for _, at in platform.runs)
    assert all(later - earlier >= 0.05 - 1e-3 for earlier, later in pairwise(times))



async def test_a_refresh_that_waited_long_goes_before_newer_urgent_writes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Writes people wait for do not starve a table's refresh: each write has a deadline
    (``gate``), and a refresh past its own goes before urgent writes that came later."""
    from bots.outbound import gate

    monkeypatch.setattr(gate, "URGENT_WAIT", 0.02)
    monkeypatch.setattr(gate, "PACED_WAIT", 0.2)
    platform = Platform()
    outbound = Dispatcher(lambda chat: ROOMY, Limit(1, 0.04))
    outbound.put(platform.write("refresh a", chat="group a"))
    outbound.put(platform.write("refresh b", chat="group b"))
    for n in range(60):  # a person's write every 10 ms, more than the budget lets through
        outbound.put(platform.write(f"turn {n}", chat=f"private {n}", urgent=True))
        await asyncio.sleep(0.01)
    assert await outbound.idle(PATIENCE)
    order = platform.names()
    assert order.index("turn 0") < order.index("refresh b")  # before its deadline, people's first
    # Its deadline (0.2 s) comes before those of the turns put after 0.2 s: it goes first,
    # instead of waiting until the people's writes stop coming.
    assert order.index("refresh b") < order.index("turn 25") < order.index("turn 59")


async def test_the_tables_with_writes_waiting_or_under_way_are_told_until_they_went() -> None:
    outbound = Dispatcher(lambda chat: Limit(1, 0.2))
    release = asyncio.Event()

    async def slow() -> Outcome:
        await release.wait()
        return SENT

    async def quick() -> Outcome:
        return SENT

    outbound.put(Write("t1 table", "group", slow, scope="t1"))
    outbound.put(Write("t2 table", "group", quick, scope="t2"))  # waits for the chat's window
    outbound.put(Write("reply", "other", quick))  # of no table
    await asyncio.sleep(0.05)
    assert outbound.pending_scopes() == {"t1", "t2"}  # t1 under way, t2 waiting
    release.set()
    assert await outbound.idle(PATIENCE)
    assert outbound.pending_scopes() == set()
    await outbound.close()
