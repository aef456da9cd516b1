"""Fixtures for the Discord bot's end-to-end tests: the real bot on simcord's in-memory Discord.

Adapted from ``tests/discord_harness`` (see its NOTES.md): one fresh bot per
test on a real SQLite file, a guild "Cairo" with a ``#basra`` channel and four
members (alice may manage the channel), and the faster settle poll.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from dc_config import SPEEDUP, TEST_CONFIG, BotFactory
from dc_world import World
from discord_limits import RateLimits
from listening import heard_as_bot_work

from bots.discord import BasraBot, BotOptions


class SimulatedClock:
    """The service's clock on simcord's virtual time (``discord.utils.utcnow`` follows it,
    and so do the loop's timers), so that ``env.advance_time`` runs turn clocks."""

    def now(self) -> float:
        return discord.utils.utcnow().timestamp()

    def call_at(self, when: float, action: Callable[[], Awaitable[None]]) -> asyncio.TimerHandle:
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0.0, when - self.now()), lambda: loop.create_task(action()))


@pytest.fixture(autouse=True)
def listening_outside_the_bot_work() -> Iterator[None]:
    """On PostgreSQL the service listens to the database for ever: not the bot's work
    (``listening``)."""
    with heard_as_bot_work():
        yield


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "basra.sqlite3"


@pytest.fixture
def make_bot(db_path: Path) -> BotFactory:
    """A new, unstarted bot on the test's database (a restart makes a second one)."""

    def make(**overrides: Any) -> BasraBot:
        options = {"database": db_path, "config": TEST_CONFIG, "speedup": SPEEDUP}
        options.update(overrides)
        return BasraBot(BotOptions(**options), clock=SimulatedClock())

    return make


@pytest.fixture
def simcord_bot(make_bot: BotFactory) -> BasraBot:
    return make_bot()


@pytest.fixture
def rate_limits(monkeypatch: pytest.MonkeyPatch) -> RateLimits:
    """Discord's rate limits on the fake server (simcord has none)."""
    limits = RateLimits(speedup=SPEEDUP)
    monkeypatch.setattr(simcord.http.router, "dispatch", limits.wrap(simcord.http.router.dispatch))
    return limits


@pytest.fixture
async def world(simcord_env: simcord.Env, rate_limits: RateLimits) -> AsyncIterator[World]:
    env = simcord_env
    guild = env.create_guild("Cairo")
    channel = guild.create_text_channel("basra")
    moderators = guild.create_role("moderators", permissions=discord.Permissions(manage_channels=True))
    alice = guild.add_member(env.create_user("alice"), roles=[moderators])
    bob = guild.add_member(env.create_user("bob"))
    carol = guild.add_member(env.create_user("carol"))
    dave = guild.add_member(env.create_user("dave"))
    world = World(env, guild, channel, alice, bob, carol, dave, rate_limits)
    yield world
    assert rate_limits.refused == [], f"the bot met Discord's rate limits: {rate_limits.refused[:5]}"
    # simcord never calls Client.close(); the bot's close() stops the service and the database.
    if not env.bot.is_closed():
        await env.bot.close()


@pytest.fixture
def fast_settle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Poll for bot idleness every 2 ms instead of 50 ms (see the harness's NOTES.md)."""
    original = simcord.Env._settle_internal

    async def settle(self: simcord.Env, *, idle: float = 0.05, **kwargs: Any) -> None:
        await original(self, idle=min(idle, 0.002), **kwargs)

    monkeypatch.setattr(simcord.Env, "_settle_internal", settle)
