"""Fixtures for the simcord harness: one bot per test and a guild with two players."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
import simcord.interactions

from .example_bot import ExampleBot, TableStore, create_bot


@pytest.fixture
def store(tmp_path: Path) -> TableStore:
    """The bot's persistent state; shared by every bot instance of one test."""
    return TableStore(db_path=tmp_path / "basra.sqlite3")


@pytest.fixture
def simcord_bot(store: TableStore) -> ExampleBot:
    """simcord's pytest plugin builds ``simcord_env`` from this fixture (a fresh bot per test)."""
    return create_bot(store)


@dataclass
class World:
    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor


@pytest.fixture
async def world(simcord_env: simcord.Env) -> AsyncIterator[World]:
    guild = simcord_env.create_guild("Cairo")
    channel = guild.create_text_channel("basra")
    alice = guild.add_member(simcord_env.create_user("alice"))
    bob = guild.add_member(simcord_env.create_user("bob"))
    yield World(simcord_env, guild, channel, alice, bob)
    # simcord's teardown never calls Client.close(); do it so close() hooks (DB, tasks) run.
    if not simcord_env.bot.is_closed():
        await simcord_env.bot.close()


@pytest.fixture
def set_interaction_locale(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Make later simulated interactions carry ``locale`` / ``guild_locale``.

    simcord 3.2.1 hard-codes ``"en-US"`` for both in every INTERACTION_CREATE payload and
    has no public switch, so this wraps its (internal) payload builder.
    """
    original = simcord.interactions.base_payload

    def apply(locale: str, guild_locale: str | None = None) -> None:
        def patched(*args: Any, **kwargs: Any) -> Any:
            record, payload = original(*args, **kwargs)
            payload["locale"] = locale
            if "guild_locale" in payload:
                payload["guild_locale"] = guild_locale or locale
            return record, payload

        monkeypatch.setattr(simcord.interactions, "base_payload", patched)

    return apply


def pinged_user_ids(env: simcord.Env, message: discord.Message | simcord.ResponseMessage) -> list[int]:
    """Users the message actually notified (its allowed_mentions applied).

    ``discord.Message.mentions`` lists every ``<@id>`` parsed from the content whatever the
    allowed_mentions; who was *pinged* is only on simcord's (internal) stored message.
    """
    channel_id = message.channel_id if isinstance(message, simcord.ResponseMessage) else message.channel.id
    return list(env.backend.get_message(channel_id, message.id).ping_user_ids)


@pytest.fixture
def fast_settle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Poll for bot idleness every 2 ms instead of simcord's fixed 50 ms.

    Every actor verb (slash/click/...) settles with ``idle=0.05`` and that costs ~50 ms of
    wall time per action even for a trivial handler; this (internal) patch makes long
    scripted games ~5x faster. Settlement semantics are unchanged (still two empty polls).
    """
    original = simcord.Env._settle_internal

    async def settle(self: simcord.Env, *, idle: float = 0.05, **kwargs: Any) -> None:
        await original(self, idle=min(idle, 0.002), **kwargs)

    monkeypatch.setattr(simcord.Env, "_settle_internal", settle)
