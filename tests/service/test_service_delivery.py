"""What an adapter may call from inside ``deliver``: read-only views; and message
references, which are delivery's own rows and never wait for the table.

``deliver`` runs under the table's lock, while the table's next action may
already wait for it; ``preview`` must not wait for that action.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import pytest

from bots.outbound.refs import MessageRefs, TableRefs
from bots.service import HandView, ManualClock, Notice, StaleView, TableService, TableView
from storage import SqliteStore, Store
from tests.service.helpers import ALICE, BADR, GROUP, QUIET, FakePlatform

PATIENCE = 2.0  # seconds; a deadlock would wait forever


class Reentrant(FakePlatform):
    """Runs ``work`` from inside the next delivery, as an adapter keeping references would."""

    def __init__(self) -> None:
        super().__init__()
        self.work: Callable[[], Awaitable[None]] | None = None
        self.errors: list[BaseException] = []

    async def deliver(self, notices: Sequence[Notice]) -> None:
        await super().deliver(notices)
        work, self.work = self.work, None
        if work is not None:
            try:
                await work()
            except Exception as error:  # the service would only log it
                self.errors.append(error)


async def test_preview_works_from_inside_deliver_while_the_next_action_waits(
    db_path: Path,
) -> None:
    platform = Reentrant()
    async with (
        SqliteStore(db_path) as store,
        TableService(store, [platform], clock=ManualClock(), config=QUIET, rng=random.Random(3)) as service,
    ):
        lobby = await service.new_lobby(GROUP, ALICE)
        await service.join(lobby.table_id, BADR)
        table = await service.start_match(lobby.table_id, ALICE)
        tid = table.table_id
        first = table.seats[table.to_move or 0].player_id or ""
        second = next(s.player_id or "" for s in table.seats if s.player_id != first)
        mine = await service.hand(tid, first)
        queued: list[asyncio.Task[HandView]] = []
        seen: list[HandView] = []

        async def inside() -> None:
            # The next player plays at once: it waits for the lock this delivery holds.
            theirs = await service.hand(tid, second)
            queued.append(asyncio.create_task(service.play(tid, second, theirs.version, theirs.hand[0])))
            await asyncio.sleep(0.01)
            assert not queued[0].done(), "the queued play should wait for this delivery"
            seen.append(await asyncio.wait_for(service.preview(tid, second, theirs.hand[1]), PATIENCE))
            seen.append(theirs)

        platform.work = inside
        await service.play(tid, first, mine.version, mine.hand[0])
        played = await asyncio.wait_for(queued[0], PATIENCE)

        assert platform.errors == []
        preview, before = seen
        # The preview read the committed state: the queued play had not been decided yet.
        assert preview.preview is not None and preview.preview.card == before.hand[1]
        assert before.hand[0] in preview.hand and preview.version == before.version < played.version
        # Both plays were delivered, in the order they were committed.
        versions = [n.table.version for n in platform.of("table_updated")]
        assert versions == sorted(versions) and versions[-1] == played.version


async def first_turn(service: TableService) -> tuple[TableView, HandView]:
    """Alice and Badr's 1-v-1, started in the group: the table, and the hand of the seat to move."""
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    table = await service.start_match(lobby.table_id, ALICE)
    mover = table.seats[table.to_move or 0].player_id or ""
    return table, await service.hand(table.table_id, mover)


async def test_references_kept_while_a_play_commits_lose_neither(
    service: TableService, platform: FakePlatform, store: Store
) -> None:
    table, hand = await first_turn(service)
    refs = MessageRefs(store)
    for i in range(5):
        refs.keep(table.table_id, f"ref{i}", i)
    played = await service.play(table.table_id, hand.player_id, hand.version, hand.hand[0])
    await refs.flush()
    assert played.version > hand.version
    stored = await store.message_refs(table.table_id)
    assert all(stored[f"ref{i}"] == i for i in range(5))


async def test_references_of_a_finished_match_are_kept_even_at_once(
    service: TableService, platform: FakePlatform, store: Store
) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    await service.start_match(lobby.table_id, ALICE)
    await service.resign(lobby.table_id, BADR.player_id)
    refs = MessageRefs(store)
    for i in range(3):
        refs.keep(lobby.table_id, f"ref{i}", i)
    await refs.flush()
    assert await MessageRefs(store).of(lobby.table_id) == TableRefs({f"ref{i}": i for i in range(3)}, True)


async def test_a_plays_acknowledgement_runs_once_it_is_committed_and_never_for_a_refused_play(
    service: TableService, platform: FakePlatform, db_path: Path
) -> None:
    table, hand = await first_turn(service)
    mover = hand.player_id
    stored_then: list[int] = []

    async def acknowledge() -> None:
        async with SqliteStore(db_path) as other:  # what another process would read now
            stored = await other.get_table(table.table_id)
            assert stored is not None
            stored_then.append(stored.version)

    refused = service.play(table.table_id, mover, hand.version - 1, hand.hand[0], committed=acknowledge)
    with pytest.raises(StaleView):
        await refused
    assert stored_then == []
    played = await service.play(table.table_id, mover, hand.version, hand.hand[0], committed=acknowledge)
    assert stored_then == [played.version]
