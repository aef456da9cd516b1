"""A page served by one bot process follows what another process commits at once, when
both run on one PostgreSQL database (``Store.changes``)."""

from __future__ import annotations

import asyncio
import json
import random
from contextlib import AsyncExitStack

from bots.service import ServiceConfig, TableService
from bots.web import WebTable
from bots.web.hub import Page
from storage import open_store
from tests.service.helpers import ALICE, BADR, FakePlatform
from tests.storage.backends import postgres_schema

__all__ = ["postgres_schema"]

CONFIG = ServiceConfig(computer_delay=0.5, heartbeat_seconds=3600, poll_seconds=60.0)


async def test_a_page_of_one_process_shows_a_play_made_through_another(postgres_schema: str) -> None:
    frames: list[dict[str, object]] = []

    async def send(text: str) -> None:
        frames.append(json.loads(text))

    async with AsyncExitStack() as stack:
        services = []
        for n in range(2):
            store = await stack.enter_async_context(open_store(postgres_schema))
            service = TableService(store, [FakePlatform()], config=CONFIG, rng=random.Random(n))
            services.append(await stack.enter_async_context(service))
        serving, playing = services
        web = WebTable("https://basra.example.org", secret=b"s" * 32)
        web.connect(serving)
        await web.start()
        stack.push_async_callback(web.close)

        lobby = await playing.new_lobby("tg:-1", ALICE)
        await playing.join(lobby.table_id, BADR)
        table = await playing.start_match(lobby.table_id, ALICE)
        watcher = Page(table.table_id, BADR.player_id, send, "en")
        web.hub.open(watcher)
        stack.push_async_callback(web.hub.close, watcher)
        for _ in range(100):
            if frames:
                break
            await asyncio.sleep(0.02)
        assert frames and frames[-1]["version"] == table.version

        mover = table.seats[table.to_move or 0].player_id or ""
        hand = await playing.hand(table.table_id, mover)
        await playing.play(table.table_id, mover, hand.version, hand.hand[0])  # not through ``serving``
        for _ in range(250):
            if int(str(frames[-1]["version"])) > table.version:
                break
            await asyncio.sleep(0.02)
        assert int(str(frames[-1]["version"])) > table.version, frames[-1]
        assert web.hub.sent == len(frames)
