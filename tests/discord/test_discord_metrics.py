"""The Discord bot serves the same health and metrics as the Telegram bot: scraped over HTTP on
loopback while a match is played by button clicks, through a 429 from Discord."""

from __future__ import annotations

import aiohttp
import pytest
from dc_config import BotFactory
from dc_world import World, current_table, open_hand, open_lobby, play_first_card, press
from prometheus_client.parser import text_string_to_metric_families

from bots.discord import BasraBot

pytestmark = pytest.mark.usefixtures("fast_settle")


@pytest.fixture
def simcord_bot(make_bot: BotFactory) -> BasraBot:
    return make_bot(metrics_port=0)


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as answer:
        return answer.status, await answer.text()


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    status, text = await get(port, "/metrics")
    assert status == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def test_a_scrape_follows_the_match_and_counts_discords_429(world: World) -> None:
    server = world.bot.metrics_server
    assert server is not None
    assert await get(server.port, "/healthz") == (200, "ok\n")
    lobby = await open_lobby(world, world.alice, "1v1")
    await press(world.bob, lobby, "join")
    await press(world.alice, lobby, "start")
    table = await current_table(world)
    mover = world.member(table.seats[table.to_move or 0].player_id)
    hand = await open_hand(world, mover)
    # Discord refuses the play's table edit once: the bot tries it again.
    world.env.inject_error("PATCH", "/channels/*/messages/*", status=429, times=1,
                           message="You are being rate limited.")
    await play_first_card(mover, hand)

    samples = await scrape(server.port)
    assert samples[("basra_tables", (("status", "running"),))] == 1
    assert samples[("basra_plays_total", (("by", "person"),))] == 1
    # join, start, "My hand", a card and its confirm
    assert samples[("basra_press_answer_seconds_count", ())] == 5
    assert samples[("basra_rate_limited_total", ())] == 1
    assert samples[("basra_delivery_retries_total", ())] == 1
    assert samples[("basra_errors_total", (("kind", "unhandled"),))] == 0
