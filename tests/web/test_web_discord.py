"""The Discord bot's web table, on simcord's in-memory Discord: a hand carries a link signed
for its own player and table, good once; the channel's table links to watching it."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
import simcord

from bots.discord import BasraBot, BotOptions
from bots.service import ServiceConfig
from bots.web import WebTable
from tests.web.web_world import PUBLIC, SECRET

CONFIG = ServiceConfig(computer_delay=0, heartbeat_seconds=3600, turn_seconds=3600, language="en")


@pytest.fixture
def simcord_bot(tmp_path: Path) -> BasraBot:
    bot = BasraBot(BotOptions(database=tmp_path / "basra.sqlite3", config=CONFIG, speedup=100.0))
    bot.web = WebTable(PUBLIC, secret=SECRET, port=0, language="en", clock=time.time)
    return bot


@pytest.fixture
async def env(simcord_env: simcord.Env) -> AsyncIterator[simcord.Env]:
    yield simcord_env
    if not simcord_env.bot.is_closed():
        await simcord_env.bot.close()


def links(message: Any) -> list[discord.Button]:
    found = message.message if isinstance(message, simcord.ResponseMessage) else message
    return [child for row in found.components if isinstance(row, discord.ActionRow)
            for child in row.children if isinstance(child, discord.Button) and child.url]


def custom_id(message: Any, verb: str) -> str:
    found = message.message if isinstance(message, simcord.ResponseMessage) else message
    for row in found.components:
        for child in getattr(row, "children", ()):
            if getattr(child, "custom_id", None) and child.custom_id.split("|")[1:2] == [verb]:
                return str(child.custom_id)
    raise AssertionError(f"no {verb} button")


async def test_a_discord_hand_links_to_its_own_seat_once(env: simcord.Env) -> None:
    guild = env.create_guild("Cairo")
    channel = guild.create_text_channel("basra")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    lobby = (await alice.slash(channel, "basra new", mode="1v1")).response
    assert lobby is not None
    await bob.click(lobby, custom_id=custom_id(lobby, "join"))
    await alice.click(lobby, custom_id=custom_id(lobby, "start"))
    bot = env.bot
    assert isinstance(bot, BasraBot) and bot.web is not None
    table_message = next(m for m in reversed(channel.history()) if m.embeds and links(m))
    watch = [b for b in links(table_message) if "/watch#w=" in (b.url or "")]
    assert len(watch) == 1 and watch[0].url and watch[0].url.startswith(PUBLIC)

    result = await alice.click(table_message, custom_id=custom_id(table_message, "hand"))
    assert result.ephemeral and result.response is not None
    [link] = [b for b in links(result.response) if "/play#d=" in (b.url or "")]
    assert link.url is not None
    token = link.url.split("#d=", 1)[1]
    table_id = custom_id(table_message, "hand").split("|")[2]
    # Bob's own link names Bob: nobody gets another's seat from it.
    bobs = await bob.click(table_message, custom_id=custom_id(table_message, "hand"))
    assert bobs.response is not None
    [other] = [b for b in links(bobs.response) if "/play#d=" in (b.url or "")]
    assert other.url is not None and other.url != link.url
    origin = f"http://127.0.0.1:{bot.web.server.port}"
    # (One connection a request: simcord waits for no idle keep-alive of the bot's server.)
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as http:
        async with http.post(f"{origin}/api/login", json={"discord": token}) as answer:
            assert answer.status == 200
            session = bot.web.gate.check_session((await answer.json())["session"])
        assert session.player_id == f"dc:{alice.id}" and session.table_id == table_id
        async with http.post(f"{origin}/api/login", json={"discord": token}) as answer:
            assert answer.status == 403  # a link is good once
        async with http.post(f"{origin}/api/login", json={"discord": other.url.split("#d=", 1)[1]}) as answer:
            assert answer.status == 200
            session = bot.web.gate.check_session((await answer.json())["session"])
        assert session.player_id == f"dc:{bob.id}"

