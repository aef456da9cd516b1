"""Web tables of two bot processes on one PostgreSQL database: a page served by one follows
what the other commits at once (``Store.changes``), and a login good once is good once in
all of them."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack, asynccontextmanager

import aiohttp

from bots.service import ServiceConfig, TableService, TableView
from bots.web import WebTable, signed_init_data
from bots.web.hub import Page
from storage import open_store
from tests.service.helpers import ALICE, BADR, FakePlatform
from tests.storage.backends import postgres_schema

__all__ = ["postgres_schema"]

CONFIG = ServiceConfig(computer_delay=0.5, heartbeat_seconds=3600, poll_seconds=60.0)


async def watched_match(
    stack: AsyncExitStack,
    web: WebTable,
    serving: TableService,
    playing: TableService,
    send: Callable[[str], Awaitable[None]],
) -> TableView:
    """``web`` started on ``serving``, and a match started through ``playing`` with a
    page of Badr's open on ``web``: the match as it started."""
    web.connect(serving)
    await web.start()
    stack.push_async_callback(web.close)
    lobby = await playing.new_lobby("tg:-1", ALICE)
    await playing.join(lobby.table_id, BADR)
    table = await playing.start_match(lobby.table_id, ALICE)
    watcher = Page(table.table_id, BADR.player_id, send, "en")
    web.hub.open(watcher)
    stack.push_async_callback(web.hub.close, watcher)
    return table


async def newer_frame(frames: list[dict[str, object]], version: int) -> None:
    """Wait up to five seconds for the last frame sent to show a version after ``version``."""
    for _ in range(250):
        if frames and int(str(frames[-1]["version"])) > version:
            return
        await asyncio.sleep(0.02)
    assert frames and int(str(frames[-1]["version"])) > version, frames[-1:]


async def test_a_page_of_one_process_shows_a_play_made_through_another(postgres_schema: str) -> None:
    frames: list[dict[str, object]] = []

    async def send(text: str) -> None:
        frames.append(json.loads(text))

    async with AsyncExitStack() as stack:
        services = []
        for n in range(2):
            store = await stack.enter_async_context(open_store(postgres_schema, announce=True))
            service = TableService(store, [FakePlatform()], config=CONFIG, rng=random.Random(n))
            services.append(await stack.enter_async_context(service))
        serving, playing = services
        web = WebTable("https://basra.example.org", secret=b"s" * 32)
        table = await watched_match(stack, web, serving, playing, send)
        for _ in range(100):
            if frames:
                break
            await asyncio.sleep(0.02)
        assert frames and frames[-1]["version"] == table.version

        mover = table.seats[table.to_move or 0].player_id or ""
        hand = await playing.hand(table.table_id, mover)
        await playing.play(table.table_id, mover, hand.version, hand.hand[0])  # not through ``serving``
        await newer_frame(frames, table.version)
        assert web.hub.sent == len(frames)


async def test_a_page_does_not_read_again_what_its_own_process_committed(postgres_schema: str) -> None:
    # Its own process's notices bring a play made through it (the web table is a
    # platform of its service, as in the bots); the database's
    # notification of the same commit is not passed on (``Store.changes``), so the
    # page does not read the table's results again for it.
    frames: list[dict[str, object]] = []

    async def send(text: str) -> None:
        frames.append(json.loads(text))

    async with AsyncExitStack() as stack:
        store = await stack.enter_async_context(open_store(postgres_schema, announce=True))
        web = WebTable("https://basra.example.org", secret=b"s" * 32)
        service = await stack.enter_async_context(
            TableService(store, [web.platform(FakePlatform())], config=CONFIG, rng=random.Random(0))
        )
        reads: list[str] = []
        last_results = service.last_results

        async def counted(table_id: str) -> list[object]:
            reads.append(table_id)
            return list(await last_results(table_id))

        service.last_results = counted  # type: ignore[method-assign,assignment]
        table = await watched_match(stack, web, service, service, send)
        mover = table.seats[table.to_move or 0].player_id or ""
        hand = await service.hand(table.table_id, mover)
        await service.play(table.table_id, mover, hand.version, hand.hand[0])
        await newer_frame(frames, table.version)
        await asyncio.sleep(0.5)  # time for the database's notification to come, if it did
    assert reads == []


TOKEN = "123456:" + "A" * 35


@asynccontextmanager
async def two_processes(url: str) -> AsyncIterator[tuple[list[TableService], list[WebTable]]]:
    async with AsyncExitStack() as stack:
        services, webs = [], []
        for n in range(2):
            store = await stack.enter_async_context(open_store(url, announce=True))
            service = TableService(store, [FakePlatform()], config=CONFIG, rng=random.Random(n))
            services.append(await stack.enter_async_context(service))
            web = WebTable("https://basra.example.org", secret=b"s" * 32, bot_token=TOKEN)
            web.connect(service)
            await web.start()
            stack.push_async_callback(web.close)
            webs.append(web)
        yield services, webs


async def test_a_mini_app_login_used_on_one_process_is_refused_on_another(postgres_schema: str) -> None:
    async with two_processes(postgres_schema) as (services, webs), aiohttp.ClientSession() as http:
        lobby = await services[0].new_lobby("tg:-1", ALICE)
        await services[0].join(lobby.table_id, BADR)
        await services[0].start_match(lobby.table_id, ALICE)

        async def log_in(web: WebTable, init_data: str) -> int:
            body = {"telegram": init_data, "table": lobby.table_id}
            async with http.post(f"http://127.0.0.1:{web.server.port}/api/login", json=body) as answer:
                return answer.status

        alice = {"id": 1, "first_name": "Alice"}
        init_data = signed_init_data(TOKEN, alice, int(time.time()))
        assert await log_in(webs[0], init_data) == 200
        assert await log_in(webs[1], init_data) == 403  # the same one again, elsewhere
        assert await log_in(webs[0], init_data) == 403
        later = signed_init_data(TOKEN, alice, int(time.time()), query_id="AAHlater")
        assert await log_in(webs[1], later) == 200  # a new one is good there


async def test_a_round_scored_by_another_process_shows_its_result_on_the_page(postgres_schema: str) -> None:
    frames: list[dict[str, object]] = []

    async def send(text: str) -> None:
        frames.append(json.loads(text))

    async with two_processes(postgres_schema) as (services, webs):
        playing = services[1]  # the page is served by the first
        lobby = await playing.new_lobby("tg:-1", ALICE)
        await playing.join(lobby.table_id, BADR)
        table = await playing.start_match(lobby.table_id, ALICE)
        page = Page(table.table_id, BADR.player_id, send, "en")
        webs[0].hub.open(page)
        try:
            while table.running and table.round_no == 1:  # the first round, all through the other
                mover = table.seats[table.to_move or 0].player_id or ""
                hand = await playing.hand(table.table_id, mover)
                await playing.play(table.table_id, mover, hand.version, hand.hand[0])
                table = await playing.table(table.table_id)
            for _ in range(250):
                if frames and int(str(frames[-1]["version"])) == table.version:
                    break
                await asyncio.sleep(0.02)
            last = frames[-1]
            assert last["version"] == table.version
            result = last["result"]
            assert isinstance(result, dict) and str(result["id"]).endswith(":r1"), result
            assert any("Round 1" in str(line["text"]) for line in result["lines"]), result
        finally:
            await webs[0].hub.close(page)
