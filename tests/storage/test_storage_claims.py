"""Timed work: which open tables are due, which process claims each, cross-process
locks on a key, and rate budgets shared by every process on the database."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest

from storage import Seat, Store, TableRecord

NewTable = Callable[..., TableRecord]
BOT, OTHER_BOT = "tg:1", "tg:2"


async def test_due_tables_lists_the_open_tables_of_the_bots_asked_soonest_first(
    store: Store, new_table: NewTable
) -> None:
    late = await store.create_table(new_table(chat_id="tg:-1", owner=BOT, due_at=300.0))
    soon = await store.create_table(new_table(chat_id="tg:-2", owner=BOT, status="running", due_at=100.0))
    await store.create_table(new_table(chat_id="tg:-3", owner=BOT))  # nothing due
    await store.create_table(new_table(chat_id="tg:-4", owner=BOT, status="finished", due_at=50.0))
    theirs = await store.create_table(new_table(chat_id="tg:-5", owner=OTHER_BOT, due_at=200.0))
    assert await store.due_tables([BOT]) == [(soon.table_id, 100.0), (late.table_id, 300.0)]
    assert await store.due_tables([BOT, OTHER_BOT]) == [
        (soon.table_id, 100.0), (theirs.table_id, 200.0), (late.table_id, 300.0)
    ]
    assert await store.due_tables([]) == []


async def test_due_at_is_stored_as_written_and_moved_by_resume_like_the_deadline(
    store: Store, new_table: NewTable
) -> None:
    table = await store.create_table(new_table(owner=BOT, deadline=1000.0, due_at=990.0))
    assert table.due_at == 990.0
    lobby = await store.create_table(new_table(chat_id="tg:-9", owner=BOT, due_at=500.0))
    theirs = await store.create_table(new_table(chat_id="tg:-8", owner=OTHER_BOT, due_at=500.0))
    await store.note_alive(BOT, 400.0)
    assert await store.resume(BOT, 460.0, 461.0, [BOT]) == 60.0
    moved = await store.get_table(table.table_id)
    assert moved is not None and (moved.deadline, moved.due_at) == (1060.0, 1050.0)
    assert (await store.get_table(lobby.table_id)).due_at == 560.0  # type: ignore[union-attr]
    assert (await store.get_table(theirs.table_id)).due_at == 500.0  # type: ignore[union-attr]
    cleared = await store.update_table(moved.model_copy(update={"due_at": None}))
    assert cleared.due_at is None and await store.due_tables([BOT]) == [(lobby.table_id, 560.0)]


async def test_open_rows_can_be_narrowed_to_bots_and_to_rows_written_since(
    store: Store, new_table: NewTable
) -> None:
    first = await store.create_table(new_table(chat_id="tg:-1", owner=BOT))
    theirs = await store.create_table(new_table(chat_id="tg:-2", owner=OTHER_BOT))
    second = await store.create_table(new_table(chat_id="tg:-3", owner=BOT))
    await store.create_table(new_table(chat_id="tg:-4", owner=BOT, status="finished"))
    assert await store.open_rows() == [first, theirs, second]
    assert await store.open_rows(owners=[BOT]) == [first, second]
    assert await store.open_rows(owners=[]) == []
    assert await store.open_rows(updated_since=second.updated_at) == [second]
    assert await store.open_rows(owners=[OTHER_BOT], updated_since=first.updated_at) == [theirs]
    written = await store.update_table(first.model_copy(update={"warned": True}))
    assert await store.open_rows(owners=[BOT], updated_since=second.updated_at + 0.5) == [written]


async def test_open_rows_can_be_narrowed_to_the_tables_a_player_sits_at(
    store: Store, new_table: NewTable
) -> None:
    mine = await store.create_table(new_table(chat_id="tg:-1", owner=BOT))  # tg:42 sits here
    others = (Seat(player_id="tg:7", name="Badr"), Seat(computer="expert", name="Computer", team=1))
    theirs = await store.create_table(new_table(chat_id="tg:-2", owner=BOT, seats=others))
    await store.create_table(new_table(chat_id="tg:-3", owner=BOT, status="finished"))
    assert await store.open_rows(player="tg:42") == [mine]
    assert await store.open_rows(owners=[BOT], player="tg:7") == [theirs]
    assert await store.open_rows(owners=[OTHER_BOT], player="tg:42") == []
    assert await store.open_rows(player="tg:4") == []  # not a prefix match


async def test_changed_tables_are_the_bots_tables_written_since_a_moment_latest_first(
    store: Store, new_table: NewTable
) -> None:
    done = await store.create_table(new_table(chat_id="tg:-1", owner=BOT, status="finished"))
    running = await store.create_table(new_table(chat_id="tg:-2", owner=BOT))
    await store.create_table(new_table(chat_id="tg:-3", owner=OTHER_BOT, status="cancelled"))
    gone = await store.create_table(new_table(chat_id="tg:-4", owner=BOT, status="expired"))
    latest_first = [(t.table_id, t.updated_at) for t in (gone, running, done)]
    assert await store.changed_tables([BOT], done.updated_at) == latest_first
    assert await store.changed_tables([BOT], gone.updated_at) == latest_first[:1]
    assert await store.changed_tables([OTHER_BOT, BOT], gone.updated_at + 1) == []
    assert await store.changed_tables([], 0.0) == []


async def test_changed_tables_are_read_a_page_at_a_time(store: Store, new_table: NewTable) -> None:
    for n in range(3):
        await store.create_table(new_table(chat_id=f"tg:-{n}", owner=BOT))
    await store.create_table(new_table(chat_id="tg:-8", owner=OTHER_BOT))
    await store.create_table(new_table(chat_id="tg:-9", owner=BOT, status="finished"))
    everything = await store.changed_tables([BOT, OTHER_BOT], 0.0)
    times = [at for _, at in everything]
    assert len(everything) == 5 and times == sorted(times, reverse=True)
    pages: list[tuple[str, float]] = []
    before = None
    while True:
        page = await store.changed_tables([BOT, OTHER_BOT], 0.0, before=before, limit=2)
        pages.extend(page)
        if len(page) < 2:
            break
        before = page[-1]
    assert pages == everything
    assert await store.changed_tables([BOT], 0.0, limit=0) == []


async def test_claim_due_takes_due_open_tables_once_until_the_lease_runs_out(
    store: Store, new_table: NewTable
) -> None:
    due = await store.create_table(new_table(chat_id="tg:-1", owner=BOT, due_at=100.0))
    sooner = await store.create_table(new_table(chat_id="tg:-2", owner=BOT, due_at=90.0))
    await store.create_table(new_table(chat_id="tg:-3", owner=BOT, due_at=500.0))  # not yet
    await store.create_table(new_table(chat_id="tg:-4", owner=OTHER_BOT, due_at=50.0))  # not asked
    await store.create_table(new_table(chat_id="tg:-5", owner=BOT, status="expired", due_at=50.0))

    assert await store.claim_due([BOT], 200.0, "a", lease=30.0) == [sooner.table_id, due.table_id]
    assert await store.claim_due([BOT], 210.0, "b", lease=30.0) == []  # a's claims are live
    assert await store.claim_due([BOT], 210.0, "a", lease=30.0) == [sooner.table_id, due.table_id]
    assert await store.claim_due([BOT], 241.0, "b", lease=30.0, limit=1) == [sooner.table_id]
    assert await store.claim_due([], 241.0, "b", lease=30.0) == []


async def test_a_write_of_the_row_lets_its_claim_go(store: Store, new_table: NewTable) -> None:
    table = await store.create_table(new_table(owner=BOT, status="running", due_at=100.0))
    assert await store.claim_due([BOT], 200.0, "a", lease=60.0) == [table.table_id]
    written = await store.append_events(table.table_id, 0, [{"kind": "play"}])
    assert await store.claim_due([BOT], 201.0, "b", lease=60.0) == [table.table_id]
    await store.update_table(written.model_copy(update={"warned": True}))
    assert await store.claim(table.table_id, 202.0, "c", lease=60.0)


async def test_claim_takes_one_open_table_unless_another_holds_it(store: Store, new_table: NewTable) -> None:
    table = await store.create_table(new_table(owner=BOT))  # due or not
    closed = await store.create_table(new_table(chat_id="tg:-7", owner=BOT, status="finished"))
    assert await store.claim(table.table_id, 100.0, "a", lease=10.0)
    assert await store.claim(table.table_id, 105.0, "a", lease=10.0)  # renewed, to 115
    assert not await store.claim(table.table_id, 112.0, "b", lease=10.0)
    assert await store.claim(table.table_id, 116.0, "b", lease=10.0)
    assert not await store.claim(closed.table_id, 100.0, "a", lease=10.0)
    assert not await store.claim("no-such-table", 100.0, "a", lease=10.0)
    assert await store.claim_due([BOT], 120.0, "a", lease=10.0) == []  # no due_at: never due


async def test_hold_lets_one_task_at_a_time_into_a_key_and_others_through(
    store: Store, new_table: NewTable
) -> None:
    inside: list[str] = []
    most = 0

    async def hold(key: str, name: str) -> None:
        nonlocal most
        async with store.hold(key):
            inside.append(name)
            most = max(most, sum(1 for n in inside if n.startswith(key)))
            await asyncio.sleep(0.01)
            inside.remove(name)

    await asyncio.gather(*(hold("k1", f"k1-{i}") for i in range(5)))
    assert most == 1
    async with store.hold("k1"), store.hold("k2"):  # another key does not wait
        # and the store's own writes inside a hold do not wait either
        table = await store.create_table(new_table())
        await store.update_table(table.model_copy(update={"warned": True}))


async def test_a_hold_is_let_go_when_its_block_fails(store: Store) -> None:
    with pytest.raises(RuntimeError):
        async with store.hold("k"):
            raise RuntimeError("boom")
    async with asyncio.timeout(5):
        async with store.hold("k"):
            pass


async def test_take_window_lets_calls_through_within_the_budget_and_says_how_long_to_wait(
    store: Store,
) -> None:
    assert [await store.take_window("chat", 3, 10.0, t) for t in (100.0, 101.0, 102.0)] == [0.0] * 3
    assert await store.take_window("chat", 3, 10.0, 104.0) == pytest.approx(6.0)
    assert await store.take_window("other", 3, 10.0, 104.0) == 0.0  # keys are apart
    assert await store.take_window("chat", 3, 10.0, 110.0) == 0.0  # the stamp at 100 has left
    assert await store.take_window("chat", 3, 10.0, 110.5) == pytest.approx(0.5)
    assert await store.take_window("chat", 3, 10.0, 111.0) == 0.0
    with pytest.raises(ValueError):
        await store.take_window("chat", 0, 10.0, 111.0)


async def test_a_key_no_longer_held_or_awaited_is_forgotten() -> None:
    from storage.keyed import KeyedLocks

    locks = KeyedLocks()
    async with locks.hold("a"):
        waiting = asyncio.create_task(locks.hold("a").__aenter__())
        await asyncio.sleep(0)
        assert len(locks) == 1
    await waiting
    assert len(locks) == 1  # the waiter holds it now


async def test_a_mark_only_moves_forward(store: Store) -> None:
    assert await store.advance_mark("msg", (3, 1))
    assert await store.advance_mark("msg", (3, 1))  # the same stamp again
    assert not await store.advance_mark("msg", (2, 9))
    assert await store.advance_mark("msg", (3, 1, 0))  # longer, as tuples compare
    assert not await store.advance_mark("msg", (3, 1))
    assert await store.advance_mark("other", (0,))


async def test_idle_windows_and_marks_are_forgotten_and_live_ones_kept(store: Store) -> None:
    assert await store.advance_mark("msg", (5,))
    assert await store.take_window("chat", 1, 1.0, time.time()) == 0.0
    assert await store.forget_idle(3600.0) == 0  # both were used just now
    assert not await store.advance_mark("msg", (4,))
    if not store.shared:
        return  # kept in the process, and bounded there: nothing to forget in the database
    await asyncio.sleep(0.05)
    assert await store.forget_idle(0.01) == 2
    assert await store.advance_mark("msg", (4,))  # a message not edited for that long
    assert await store.take_window("chat", 1, 1.0, time.time()) == 0.0
