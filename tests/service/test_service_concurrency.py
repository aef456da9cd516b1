"""Many presses at once on one match, and many matches at once: no lost or doubled play."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bots.service import ManualClock, Person, ServiceError, StaleView, TableService
from storage import SqliteStore
from tests.service.helpers import ALICE, BADR, GROUP, QUIET, FakePlatform


async def test_simultaneous_presses_on_one_match_play_exactly_once(
    service: TableService, db_path: Path
) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    await service.start_match(lobby.table_id, ALICE)
    for _ in range(10):
        table = await service.table(lobby.table_id)
        mover = table.seats[table.to_move or 0].player_id or ""
        other = table.seats[1 - (table.to_move or 0)].player_id or ""
        hand = await service.hand(lobby.table_id, mover)
        theirs = await service.hand(lobby.table_id, other)
        presses = [
            service.play(lobby.table_id, mover, hand.version, card) for card in hand.hand for _ in range(5)
        ]
        presses += [service.play(lobby.table_id, other, theirs.version, card) for card in theirs.hand]
        outcomes = await asyncio.gather(*presses, return_exceptions=True)
        accepted = [o for o in outcomes if not isinstance(o, BaseException)]
        refused = [o for o in outcomes if isinstance(o, BaseException)]
        assert len(accepted) == 1, outcomes
        assert all(isinstance(o, ServiceError) for o in refused)
        assert sum(isinstance(o, StaleView) for o in refused) >= len(hand.hand) * 5 - 1
        after = await service.table(lobby.table_id)
        assert after.version > hand.version and after.to_move != table.to_move
    store = SqliteStore(db_path)
    async with store:
        events = await store.load_events(lobby.table_id)
    assert sum(e.kind == "card_played" for e in events) == 10


async def test_many_matches_at_once_lose_and_double_nothing(db_path: Path) -> None:
    platform = FakePlatform()
    clock = ManualClock()
    accepted: dict[str, list[str]] = {}
    async with (
        SqliteStore(db_path) as store,
        TableService(store, [platform], clock=clock, config=QUIET, rng=random.Random(11)) as service,
    ):

        async def one_match(n: int) -> None:
            a, b = Person(f"tg:{n}1", f"A{n}"), Person(f"tg:{n}2", f"B{n}")
            lobby = await service.new_lobby(f"tg:-{n}", a)
            await service.join(lobby.table_id, b)
            await service.start_match(lobby.table_id, a)
            rng = random.Random(n)
            plays = accepted.setdefault(lobby.table_id, [])
            for _ in range(60):
                table = await service.table(lobby.table_id)
                if not table.running:
                    break
                pid = table.seats[table.to_move or 0].player_id or ""
                hand = await service.hand(lobby.table_id, pid)
                card = rng.choice(hand.hand)
                twice = await asyncio.gather(
                    service.play(lobby.table_id, pid, hand.version, card),
                    service.play(lobby.table_id, pid, hand.version, card),
                    return_exceptions=True,
                )
                assert sum(not isinstance(o, BaseException) for o in twice) == 1
                plays.append(card)

        await asyncio.gather(*(one_match(n) for n in range(30)))
    async with SqliteStore(db_path) as store:
        for table_id, cards in accepted.items():
            events = await store.load_events(table_id)
            assert [e.data["card"] for e in events if e.kind == "card_played"] == cards
            assert [e.version for e in events] == list(range(1, len(events) + 1))
