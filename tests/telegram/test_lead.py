"""Two processes of one bot on a PostgreSQL database: one leads the bot and speaks for its
token, the other waits (healthy, as a standby) and takes over the game where it stands when
the first stops: the same table message edited, the same hands, the match played on."""

from __future__ import annotations

import asyncio

import aiohttp

from tests.fakes import FakeTelegram
from tests.storage.backends import postgres_schema
from tests.telegram.test_presses import players
from tests.telegram.world import World, start_match, to_move

__all__ = ["postgres_schema"]

PATIENCE = 10.0


async def health(world: World) -> tuple[int, str]:
    server = world.basra.metrics_server
    assert server is not None
    url = f"http://127.0.0.1:{server.port}/healthz"
    async with aiohttp.ClientSession() as session, session.get(url) as got:
        return got.status, (await got.text()).strip()


async def test_the_second_process_waits_then_takes_the_game_over_where_it_stands(
    server: FakeTelegram, postgres_schema: str
) -> None:
    alice, badr, group = players(server)
    first = World(server, postgres_schema, metrics_port=0)  # type: ignore[arg-type]  # a URL
    second = World(server, postgres_schema, metrics_port=0, seed=8)  # type: ignore[arg-type]
    server.attach(first.app.bot)  # updates come to the first until it stops
    await first.__aenter__()
    waiting = asyncio.create_task(second.__aenter__())
    try:
        table = await start_match(first, group, alice, badr)
        mover = to_move(table, alice, badr)
        await asyncio.sleep(0.5)
        assert not waiting.done()  # the first leads the bot
        assert await health(second) == (200, "standby")
        assert await health(first) == (200, "ok")
        shown = first.server.last_message(group)
        hand = first.hand_message(mover)

        await first.__aexit__(None, None, None)
        await asyncio.wait_for(waiting, PATIENCE)
        server.attach(second.app.bot)
        assert await health(second) == (200, "ok")
        await second.play_any(mover)  # a card, then its confirm, on the hand the first sent
        assert "played" in hand.text and not hand.button_data()
        after = await second.table(group)
        assert after is not None and after.version > table.version
        # The table message the first process posted is the one the second edits.
        assert server.last_message(group) is shown and len(shown.versions) > 1
        other = badr if mover is alice else alice
        assert second.hand_message(other)  # the next turn came as the first process would send it
    finally:
        if not waiting.done():
            waiting.cancel()
            await asyncio.gather(waiting, return_exceptions=True)
            await first.__aexit__(None, None, None)
        else:
            await second.__aexit__(None, None, None)
