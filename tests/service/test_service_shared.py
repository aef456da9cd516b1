"""Two table services on one PostgreSQL database, as two bot processes: either may take any
action of any table, each on the latest state, and when one dies the other takes over its
clocks and computer turns, each step happening once."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from typing import Any

import pytest

from bots.service import (
    HandView,
    ManualClock,
    MatchEnded,
    NotYourTurn,
    ServiceConfig,
    StaleView,
    TableService,
)
from bots.service.languages import SETTINGS_FRESH
from storage import Store, TableRecord, open_store
from tests.service.helpers import ALICE, BADR, FakePlatform

CONFIG = ServiceConfig(computer_delay=0.5, heartbeat_seconds=3600, poll_seconds=1.0, takeover_seconds=1.5)


class Pair:
    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.platforms = (FakePlatform(), FakePlatform())
        self.stores: list[Store] = []
        self.services: list[TableService] = []


@pytest.fixture
async def pair(postgres_schema: str) -> AsyncIterator[Pair]:
    clock = ManualClock()
    both = Pair(clock)
    async with AsyncExitStack() as stack:
        for n, platform in enumerate(both.platforms):
            store = await stack.enter_async_context(open_store(postgres_schema))
            assert store.shared
            service = TableService(store, [platform], clock=clock, config=CONFIG, rng=random.Random(n))
            await stack.enter_async_context(service)
            both.stores.append(store)
            both.services.append(service)
        yield both


def die(service: TableService) -> None:
    """The process is gone: nothing it armed fires any more (its store lets its locks go)."""
    for live in list(service.tables.live.values()):
        live.cancel_timer()
    for timer in (service.lifecycle._takeover, service.lifecycle._heartbeat):
        if timer is not None:
            timer.cancel()
    service.lifecycle._takeover = service.lifecycle._heartbeat = None


async def plays_of(store: Store, table_id: str) -> list[tuple[int, int, str]]:
    return [
        (e.version, int(e.data["seat"]), str(e.data["card"]))
        for e in await store.load_events(table_id)
        if e.kind == "card_played"
    ]


async def test_either_process_takes_the_next_action_on_the_latest_state(pair: Pair) -> None:
    first, second = pair.services
    lobby = await first.new_lobby("tg:-1", ALICE)
    await second.join(lobby.table_id, BADR)  # the lobby is loaded by the second, moved there
    table = await first.start_match(lobby.table_id, ALICE)  # and started by the first
    for turn in range(6):
        service = pair.services[turn % 2]
        mover = table.seats[table.to_move or 0].player_id or ""
        hand = await service.hand(lobby.table_id, mover)
        assert hand.version == table.version  # what the other process did is seen here
        await service.play(lobby.table_id, mover, hand.version, hand.hand[0])
        table = await pair.services[(turn + 1) % 2].table(lobby.table_id)
    plays = await plays_of(pair.stores[0], lobby.table_id)
    assert len(plays) == 6 and len({v for v, _, _ in plays}) == 6


async def seen_by_the_second(pair: Pair) -> tuple[str, str, HandView]:
    """A match started by the first process, and the hand of the player to move as the
    second process shows it (which caches the table there): the table, the player, the hand."""
    first, second = pair.services
    lobby = await first.new_lobby("tg:-1", ALICE)
    await first.join(lobby.table_id, BADR)
    table = await first.start_match(lobby.table_id, ALICE)
    mover = table.seats[table.to_move or 0].player_id or ""
    return lobby.table_id, mover, await second.hand(lobby.table_id, mover)


async def test_a_stale_press_is_refused_by_the_process_that_did_not_see_the_play(pair: Pair) -> None:
    first, second = pair.services
    table_id, mover, seen = await seen_by_the_second(pair)
    await first.play(table_id, mover, seen.version, seen.hand[0])
    with pytest.raises((StaleView, NotYourTurn)):
        await second.play(table_id, mover, seen.version, seen.hand[1])
    assert len(await plays_of(pair.stores[1], table_id)) == 1


async def test_a_reference_kept_while_the_other_process_plays_conflicts_with_nothing(pair: Pair) -> None:
    """Message references are delivery's own rows: one kept by this process while the other
    commits a play neither waits for that play nor makes it refused, and both are stored."""
    first, second = pair.services
    table_id, mover, seen = await seen_by_the_second(pair)
    append = pair.stores[0].append_events
    kept: list[bool] = []

    async def append_after_a_reference(*args: Any, **kwargs: Any) -> TableRecord:
        if not kept:  # the second process keeps a reference just before the play is written
            await pair.stores[1].keep_refs(table_id, {"table": {"id": 7}})
            kept.append(True)
        return await append(*args, **kwargs)

    pair.stores[0].append_events = append_after_a_reference  # type: ignore[method-assign]
    played = await first.play(table_id, mover, seen.version, seen.hand[0])
    assert kept and played.version > seen.version
    assert await pair.stores[0].message_refs(table_id) == {"table": {"id": 7}}
    assert (await second.table(table_id)).version == played.version


async def test_when_a_process_dies_the_other_plays_its_computer_turn_once(pair: Pair) -> None:
    first, second = pair.services
    table = await first.practice("tg:1", ALICE, players=2, level="beginner")
    if table.seats[table.to_move or 0].player_id != ALICE.player_id:
        await pair.clock.advance(CONFIG.computer_delay)  # the computer led: let it play first
        table = await first.table(table.table_id)
    hand = await first.hand(table.table_id, ALICE.player_id)
    await first.play(table.table_id, ALICE.player_id, hand.version, hand.hand[0])
    before = await plays_of(pair.stores[0], table.table_id)
    die(first)  # before its computer turn came
    await pair.clock.advance(CONFIG.computer_delay + CONFIG.takeover_seconds + 2 * CONFIG.poll_seconds)
    after = await plays_of(pair.stores[1], table.table_id)
    assert len(after) == len(before) + 1  # the computer played, once
    resumed = await second.table(table.table_id)
    assert resumed.seats[resumed.to_move or 0].player_id == ALICE.player_id


async def test_a_turn_clock_fires_once_though_both_processes_watch_it(pair: Pair) -> None:
    first, second = pair.services
    lobby = await first.new_lobby("tg:-1", ALICE)
    await first.join(lobby.table_id, BADR)
    table = await first.start_match(lobby.table_id, ALICE)
    await second.table(lobby.table_id)  # loaded by both
    assert table.seconds_left is not None
    await pair.clock.advance(table.seconds_left + CONFIG.takeover_seconds + 3 * CONFIG.poll_seconds)
    events = await pair.stores[0].load_events(lobby.table_id)
    ends = [e for e in events if e.data.get("reason") == "timeout"]
    assert len(ends) == 1 and ends[0].version == len(events)
    ended = [n for p in pair.platforms for n in p.notices if isinstance(n, MatchEnded)]
    assert len(ended) == 1  # told once, by the process that ran it


async def test_when_a_process_dies_the_other_runs_out_its_turn_clocks(pair: Pair) -> None:
    first, second = pair.services
    lobby = await first.new_lobby("tg:-1", ALICE)
    await first.join(lobby.table_id, BADR)
    table = await first.start_match(lobby.table_id, ALICE)
    die(first)
    assert table.seconds_left is not None
    await pair.clock.advance(table.seconds_left + CONFIG.takeover_seconds + 3 * CONFIG.poll_seconds)
    ended = [n for n in pair.platforms[1].notices if isinstance(n, MatchEnded)]
    assert [n.table_id for n in ended] == [lobby.table_id]
    assert (await second.table(lobby.table_id)).status == "finished"


async def test_the_poller_forgets_idle_windows_and_marks_now_and_then(
    pair: Pair, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bots.service import lifecycle as module

    store = pair.stores[0]
    assert await store.advance_mark("msg", (5,))
    monkeypatch.setattr(module, "IDLE_FOR", 0.0)  # anything unused counts as idle
    monkeypatch.setattr(module, "FORGET_EVERY", 20.0)  # (an hour in production)
    await pair.clock.advance(15)
    assert not await store.advance_mark("msg", (4,))  # not yet FORGET_EVERY since the start
    await pair.clock.advance(6)
    assert await store.advance_mark("msg", (4,))  # forgotten: a lower stamp goes again


async def test_a_chat_s_settings_changed_by_another_process_are_read_again_within_a_while(pair: Pair) -> None:
    first, second = pair.services
    lobby = await second.new_lobby("tg:-1", ALICE)
    before = pair.platforms[1].of("lobby_updated")[-1].lang
    other = "en" if before == "ar" else "ar"
    await first.set_chat_language("tg:-1", other)

    await second.join(lobby.table_id, BADR)  # read a moment ago: taken as it was
    assert pair.platforms[1].of("lobby_updated")[-1].lang == before
    pair.clock.jump(SETTINGS_FRESH + 1)
    await second.leave(lobby.table_id, BADR)  # read again before this action
    assert pair.platforms[1].of("lobby_updated")[-1].lang == other
