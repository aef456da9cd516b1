"""Health and metrics as an operator's Prometheus sees them: scraped over HTTP on loopback from
the real server the bot starts, while people play through buttons on the fake Telegram."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bots.service.thinking import default_processes
from tests.fakes import FakeChat, FakeTelegram, FakeUser
from tests.telegram.test_presses import dealt, press_card
from tests.telegram.test_storage_faults import refusing
from tests.telegram.world import World, start_match, to_move

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def people(server: FakeTelegram) -> tuple[FakeUser, FakeUser, FakeChat]:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    return alice, badr, server.add_group("Cafe", [alice, badr])


async def get(port: int, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(f"http://127.0.0.1:{port}{path}") as answer:
        return answer.status, await answer.text()


async def scrape(port: int) -> Samples:
    status, text = await get(port, "/metrics")
    assert status == 200
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[(name, tuple(sorted(labels.items())))]


def port_of(world: World) -> int:
    assert world.basra.metrics_server is not None
    return world.basra.metrics_server.port


async def play(world: World, group: FakeChat, alice: FakeUser, badr: FakeUser, plays: int) -> None:
    for _ in range(plays):
        table = await world.table(group)
        assert table is not None
        await world.play_any(to_move(table, alice, badr))


async def test_a_scrape_follows_tables_plays_presses_and_writes(server: FakeTelegram, database: Path) -> None:
    alice, badr, group = people(server)
    async with World(server, database, metrics_port=0) as world:
        port = port_of(world)
        assert await get(port, "/healthz") == (200, "ok\n")
        before = await scrape(port)
        assert value(before, "basra_tables", status="running") == 0
        assert value(before, "basra_plays_total", by="person") == 0

        await start_match(world, group, alice, badr)
        await play(world, group, alice, badr, 3)
        after = await scrape(port)

        assert value(after, "basra_tables", status="running") == 1
        assert value(after, "basra_tables", status="lobby") == 0
        assert value(after, "basra_plays_total", by="person") == 3
        assert value(after, "basra_plays_total", by="computer") == 0
        # Join, start, and a card and its confirm for each play: every press answered and timed.
        assert value(after, "basra_press_answer_seconds_count") == 2 + 2 * 3
        assert value(after, "basra_press_answer_seconds_bucket", le="+Inf") == 8
        assert value(after, "basra_deliveries_total", outcome="sent") > value(
            before, "basra_deliveries_total", outcome="sent")
        assert value(after, "basra_deliveries_pending") == 0
        assert value(after, "basra_rate_limited_total") == 0
        assert value(after, "basra_delivery_retries_total") == 0
        assert {kind: value(after, "basra_errors_total", kind=kind)
                for kind in ("storage", "unhandled", "network", "answer", "delivery")} == dict.fromkeys(
            ("storage", "unhandled", "network", "answer", "delivery"), 0)
        assert value(after, "process_resident_memory_bytes") > 0
    # Stopped: nothing listens any more.
    with pytest.raises(aiohttp.ClientConnectionError):
        await get(port, "/healthz")


async def test_429s_retries_and_errors_are_counted_and_health_follows_the_store(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr, group = people(server)
    async with dealt(server, database, metrics_port=0) as world:
        port = port_of(world)
        table = await start_match(world, group, alice, badr)
        mover = to_move(table, alice, badr)
        # Telegram answers the preview's edit (9♥ has two plans: previewed in the hand) with a
        # 429: the bot waits as asked and tries again.
        server.fail_next("editMessageText", retry_after=0.05)
        await press_card(world, mover, world.hand_message(mover), "9H")
        # A play the store cannot save.
        assert world.basra.store is not None
        with refusing(world.basra.store):
            await world.press_verb(mover, world.hand_message(mover), "play")
        samples = await scrape(port)
        assert value(samples, "basra_rate_limited_total") == 1
        assert value(samples, "basra_delivery_retries_total") == 1
        assert value(samples, "basra_errors_total", kind="storage") == 1
        assert value(samples, "basra_plays_total", by="person") == 0
        # Writes failing is not the store being unreachable: it is read as before.
        assert await get(port, "/healthz") == (200, "ok\n")

        await world.basra.store.close()
        assert await get(port, "/healthz") == (503, "store unreachable\n")
        await world.basra.service.close()
        assert await get(port, "/healthz") == (503, "not running\n")


async def test_the_computers_thinking_processes_are_counted(server: FakeTelegram, database: Path) -> None:
    """None until the first match with a computer starts; then the default number, one fewer
    than the cores (at least one)."""
    alice = server.add_user("Alice")
    server.private_chat(alice)
    group = server.add_group("Cafe", [alice])
    async with World(server, database, metrics_port=0) as world:
        port = port_of(world)
        assert value(await scrape(port), "basra_computer_processes") == 0
        await world.send(alice, group, "/newgame")
        lobby = server.last_message(group)
        await world.press_verb(alice, lobby, "computer", len(world.buttons(lobby, "computer")) - 1)
        await world.press_verb(alice, lobby, "start")
        for _ in range(2):  # two turns of Alice's: the computer has played at least once
            await world.play_any(alice)
        samples = await scrape(port)
        assert value(samples, "basra_plays_total", by="computer") >= 1
        assert value(samples, "basra_computer_processes") == default_processes()
