"""The web table's start page for Discord people, on simcord's in-memory Discord: the DM's
``/basra help`` and a search's waiting message carry a link signed for the reader alone,
good once and for ``BASRA_WEB_LOGIN_SECONDS``; it logs in to the start page, where the
person looks for someone through the pool's own calls, the DM's waiting message following
the page; two people who look there are paired and each is handed their own table.

simcord waits for every piece of the bot's work before it settles, an open socket of the
bot's web server included: so each page here is closed before simcord is asked to settle or
to move its clock (a wave runs with the bot's heartbeat, ``WAVE``), and opened again with
its session after, as the page does when it reconnects.
"""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
import simcord

from bots.discord import BasraBot, BotOptions
from bots.service import Person, ServiceConfig
from bots.web import WebTable
from tests.web.sockets import frame_in, next_of, ops, words
from tests.web.web_world import PUBLIC, SECRET

#: Seconds between heartbeats, so between the pool's waves.
WAVE = 10.0
#: How long a start link is good for (``BASRA_WEB_LOGIN_SECONDS``).
LOGIN_SECONDS = 60.0
CONFIG = ServiceConfig(computer_delay=0, heartbeat_seconds=WAVE, poll_seconds=3600, turn_seconds=3600,
                       pool_wave_seconds=1.0, pool_turn_seconds=3600, pool_wait_seconds=30.0, language="en")
LINK = "🃏 Play on the web table"
LINK_AR = "🃏 العب على صفحة الطاولة"
GONE = "This page is not valid any more. Open it again from the bot's chat."
GONE_AR = "هذه الصفحة لم تعد صالحة. افتحها من جديد من محادثتك مع البوت."
USED_AR = "فُتحت هذه الصفحة من قبل. افتحها من جديد من محادثتك مع البوت."


class SimulatedClock:
    """The service's (and the links') clock on simcord's virtual time, whose timers
    ``env.advance_time`` runs."""

    def now(self) -> float:
        return discord.utils.utcnow().timestamp()

    def call_at(self, when: float, action: Callable[[], Awaitable[None]]) -> asyncio.TimerHandle:
        loop = asyncio.get_running_loop()
        return loop.call_later(max(0.0, when - self.now()), lambda: asyncio.ensure_future(action()))


@pytest.fixture
def simcord_bot(tmp_path: Path) -> BasraBot:
    clock = SimulatedClock()
    bot = BasraBot(BotOptions(database=tmp_path / "basra.sqlite3", config=CONFIG, speedup=100.0), clock=clock)
    bot.web = WebTable(PUBLIC, secret=SECRET, port=0, language="en", clock=clock.now, max_age=LOGIN_SECONDS)
    return bot


class Web:
    """The bot's web server as a browser reaches it (one connection a request: simcord
    waits for no idle keep-alive of the bot's server)."""

    def __init__(self, env: simcord.Env, http: aiohttp.ClientSession) -> None:
        self.env = env
        self.http = http

    @property
    def bot(self) -> BasraBot:
        bot = self.env.bot
        assert isinstance(bot, BasraBot) and bot.web is not None
        return bot

    @property
    def web(self) -> WebTable:
        assert self.bot.web is not None
        return self.bot.web

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.web.server.port}"

    async def login(self, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
        async with self.http.post(f"{self.origin}/api/login", json=body) as answer:
            return answer.status, await answer.json()

    async def start_session(self, token: str) -> str:
        """What the start page gets for a Discord start link's token: a start session."""
        status, body = await self.login({"discord": token, "start": True})
        assert status == 200 and body["start"] is True, body
        return str(body["session"])

    @asynccontextmanager
    async def page(self, session: str) -> AsyncIterator[Any]:
        """A start page's socket, open with its session; closed on leaving, after which the
        bot's work may settle."""
        async with self.http.ws_connect(f"{self.origin}/ws") as socket:
            await socket.send_json({"start": session})
            yield socket
        await self.env.settle()

    async def table(self, session: str) -> dict[str, Any]:
        """The first state frame of a table's page, opened with a table's session."""
        async with self.http.ws_connect(f"{self.origin}/ws") as socket:
            await socket.send_json({"session": session})
            state = await next_of(socket, "state")
        await self.env.settle()
        return state

    async def wave(self) -> None:
        """The next heartbeat, and the pool's wave it runs (every page closed)."""
        await self.env.advance_time(WAVE)


@pytest.fixture
async def site(simcord_env: simcord.Env) -> AsyncIterator[Web]:
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as http:
        yield Web(simcord_env, http)
    if not simcord_env.bot.is_closed():
        await simcord_env.bot.close()


# -- reading ---------------------------------------------------------------------------------


def as_message(message: Any) -> discord.Message:
    return message.message if isinstance(message, simcord.ResponseMessage) else message


def links(message: Any) -> list[discord.Button]:
    return [child for row in as_message(message).components if isinstance(row, discord.ActionRow)
            for child in row.children if isinstance(child, discord.Button) and child.url]


def verbs(message: Any) -> list[str]:
    return [str(child.custom_id).split("|")[1] for row in as_message(message).components
            if isinstance(row, discord.ActionRow) for child in row.children
            if isinstance(child, discord.Button) and child.custom_id]


def text_of(message: Any) -> str:
    found = as_message(message)
    return "\n".join(text for text in [found.content, *(e.description for e in found.embeds)] if text)


def dm(member: simcord.MemberActor) -> list[discord.Message]:
    return member.user.dm_channel.history(viewer=member.user)


def waiting_message(member: simcord.MemberActor) -> discord.Message:
    """The member's newest waiting message (its own, never an ephemeral answer)."""
    for message in reversed(dm(member)):
        if not message.flags.ephemeral and any(word in text_of(message) for word in (
                "Looking for", "Opponent found", "You stopped looking", "You chose to play the computer")):
            return message
    raise AssertionError(f"no waiting message in {member.name}'s DM")


def start_token(message: Any, label: str = LINK) -> str:
    """The token of the message's one link to the start page, which says so."""
    [link] = [b for b in links(message) if "/start#d=" in (b.url or "")]
    assert link.url is not None and link.url.startswith(f"{PUBLIC}/start#d=") and link.label == label
    return link.url.split("#d=", 1)[1]


def token_body(token: str) -> dict[str, Any]:
    payload = token.split(".")[0]
    body: dict[str, Any] = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    return body


async def help_link(member: simcord.MemberActor, label: str = LINK) -> str:
    """``/basra help`` in the member's DM with the bot: its link's token."""
    helped = await member.user.slash("basra help")
    assert helped.ephemeral and helped.response is not None
    return start_token(helped.response, label)






def person(member: simcord.MemberActor) -> Person:
    return Person(f"dc:{member.id}", member.name)


# -- the tests -------------------------------------------------------------------------------


async def test_two_discord_people_look_on_the_start_page_and_each_is_handed_their_table(site: Web) -> None:
    env = site.env
    guild = env.create_guild("Cairo")
    channel = guild.create_text_channel("basra")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    service = site.bot.service

    # Only the DM's help links to the page: a server's channel plays no search.
    in_server = await alice.slash(channel, "basra help")
    assert in_server.response is not None and links(in_server.response) == []
    token = await help_link(alice)
    # The link holds what a hand's does but the table: its reader alone, signed.
    body = token_body(token)
    assert set(body) == {"k", "p", "l", "e", "n"} and body["p"] == f"dc:{alice.id}" and body["l"] == "en"
    assert str(bob.id) not in token

    session = await site.start_session(token)
    started = site.web.gate.check_start(session)
    assert started.player_id == f"dc:{alice.id}" and started.name == "alice"
    assert started.chat_id == f"dc:{alice.user.dm_channel.id}"  # her DM with the bot
    bobs = await site.start_session(await help_link(bob))

    async with site.page(session) as first:
        idle = await frame_in(first, "idle")
        assert idle["name"] == "alice" and idle["rating"] == "Your rating: 1500 (provisional)"
        assert [(b["op"], b.get("mode")) for row in idle["buttons"] for b in row] == [
            ("join", "1v1"), ("join", "2v2")]
        await first.send_json({"op": "join", "mode": "1v1"})
        looking = await frame_in(first, "waiting")
        assert words(looking).startswith("Looking for an opponent…") and ops(looking) == ["cancel"]
    # The DM shows the same search, with its Cancel and a fresh link to the page.
    chat = waiting_message(alice)
    assert text_of(chat).startswith("**Looking for an opponent…**") and verbs(chat) == ["unseek"]
    assert start_token(chat) != token

    async with site.page(bobs) as second:
        await frame_in(second, "idle")
        await second.send_json({"op": "join", "mode": "1v1"})
        assert "2 people are looking, you included." in words(await frame_in(second, "waiting"))
    await site.wave()

    status = await service.pool_status(person(alice))
    assert status is not None and status.state == "seated" and status.table_id is not None
    table_id = status.table_id
    gone_to: dict[str, str] = {}
    for member, other, session_of in ((alice, bob, session), (bob, alice, bobs)):
        async with site.page(session_of) as page:
            found = await frame_in(page, "paired")
            assert found["table"] == table_id
            assert words(found).startswith(f"Opponent found: \u2068{other.name}\u2069")
            assert str(other.id) not in json.dumps(found, ensure_ascii=False)
            # The page asks for its table and is handed a session at its own seat.
            await page.send_json({"op": "open", "table": table_id})
            go = await next_of(page, "go")
        assert go["table"] == table_id
        seat = site.web.gate.check_session(go["session"])
        assert (seat.player_id, seat.table_id) == (f"dc:{member.id}", table_id)
        gone_to[member.name] = go["session"]

    state = await site.table(gone_to["alice"])
    assert state["table"] == table_id and len(state["hand"]) == 4
    assert [s["name"] for s in state["seats"] if not s["you"]] == ["\u2068bob\u2069"]
    # Each DM followed: the waiting message names the opponent, without a link now, and the
    # match's table is there with My hand, the other's id nowhere.
    for member, other in ((alice, bob), (bob, alice)):
        found_message = waiting_message(member)
        assert f"Opponent found: \u2068{other.name}\u2069" in text_of(found_message)
        assert links(found_message) == [] and verbs(found_message) == []
        assert any("hand" in verbs(m) for m in dm(member) if m.embeds and not m.flags.ephemeral)
        for message in dm(member):
            shown = text_of(message) + " ".join(b.url or b.custom_id or "" for b in links(message))
            assert str(other.id) not in shown
    assert channel.history() == []  # nothing of the search nor the match in the server


async def test_cancel_on_the_page_stops_the_dm_s_search_and_the_dm_says_so(site: Web) -> None:
    env = site.env
    guild = env.create_guild("Cairo")
    channel = guild.create_text_channel("basra")
    alice = guild.add_member(env.create_user("alice"))

    asked = await alice.slash(channel, "basra play", mode="2v2")
    assert asked.acknowledged and asked.ephemeral
    chat = waiting_message(alice)
    assert text_of(chat).startswith("**Looking for players: two against two…**")
    assert verbs(chat) == ["invite", "unseek"]
    session = await site.start_session(start_token(chat))
    async with site.page(session) as page:
        # The page shows the search the DM began, and stops it.
        looking = await frame_in(page, "waiting")
        assert words(looking).startswith("Looking for players: two against two…")
        await page.send_json({"op": "cancel"})
        await frame_in(page, "idle")
        await page.send_json({"op": "cancel"})  # again: nothing to stop
        assert (await next_of(page, "refused"))["text"] == "You are not waiting for an opponent now."
        assert (await next_of(page, "start"))["state"] == "idle"
    assert await site.bot.service.pool_status(person(alice)) is None
    stopped = waiting_message(alice)
    assert stopped.id == chat.id
    assert text_of(stopped) == "**You stopped looking for an opponent.**\nSend /basra play to look again."
    assert links(stopped) == [] and verbs(stopped) == []

    # Looking again on the page posts a new waiting message in the DM; Cancel there shows on the page.
    async with site.page(session) as page:
        await frame_in(page, "idle")
        await page.send_json({"op": "join", "mode": "1v1"})
        await frame_in(page, "waiting")
    again = waiting_message(alice)
    assert again.id != chat.id and verbs(again) == ["unseek"] and start_token(again)
    pressed = await alice.user.click(again, custom_id=next(
        str(b.custom_id) for row in again.components if isinstance(row, discord.ActionRow)
        for b in row.children if isinstance(b, discord.Button) and b.custom_id))
    assert pressed.acknowledged
    async with site.page(session) as page:
        await frame_in(page, "idle")


async def test_the_computer_offered_on_the_page_starts_its_practice_match_in_the_dm(site: Web) -> None:
    env = site.env
    guild = env.create_guild("Cairo")
    guild.create_text_channel("basra")
    alice = guild.add_member(env.create_user("alice"))

    await alice.user.slash("basra play")
    session = await site.start_session(start_token(waiting_message(alice)))
    for _ in range(4):  # past BASRA_POOL_WAIT_SECONDS (30 s here)
        await site.wave()
    offer = waiting_message(alice)
    assert verbs(offer) == ["solo", "wait", "unseek"] and start_token(offer)
    async with site.page(session) as page:
        offered = await frame_in(page, "waiting")
        assert ops(offered) == ["computer", "wait", "cancel"]
        assert "Play the computer (beginner) now, or keep waiting." in words(offered)
        await page.send_json({"op": "wait"})
        assert ops(await frame_in(page, "waiting")) == ["computer", "wait", "cancel"]
    waited = waiting_message(alice)
    assert waited.id == offer.id and verbs(waited) == ["solo", "wait", "unseek"] and start_token(waited)

    async with site.page(session) as page:
        await frame_in(page, "waiting")
        await page.send_json({"op": "computer"})
        go = await next_of(page, "go")
    table = await site.bot.service.table(go["table"])
    assert table.practice and table.running and table.seat_of(f"dc:{alice.id}") is not None
    assert table.chat_id == f"dc:{alice.user.dm_channel.id}"  # the DM plays the same match
    chose = waiting_message(alice)
    assert chose.id == offer.id and text_of(chose).startswith(
        "**You chose to play the computer \\(beginner\\): the practice match begins below.**")
    assert links(chose) == [] and verbs(chose) == []
    below = [m for m in dm(alice) if m.id > chose.id and m.embeds and not m.flags.ephemeral]
    assert any("hand" in verbs(m) for m in below)
    state = await site.table(go["session"])
    assert state["table"] == table.table_id and state["hand"]


async def test_a_used_or_expired_link_is_refused_in_the_reader_s_words_and_changes_nothing(site: Web) -> None:
    env = site.env
    guild = env.create_guild("Cairo")
    channel = guild.create_text_channel("basra")
    alice = guild.add_member(env.create_user("alice"))
    bob = guild.add_member(env.create_user("bob"))
    await alice.slash(channel, "basra settings", my_language="ar")
    service = site.bot.service

    token = await help_link(alice, LINK_AR)
    assert token_body(token)["l"] == "ar"
    session = await site.start_session(token)
    async with site.page(session) as page:
        assert (await frame_in(page, "idle"))["dir"] == "rtl"  # her language, as in the DM
    status, body = await site.login({"discord": token, "start": True})
    assert status == 403 and body["error"] == USED_AR

    late = await help_link(alice, LINK_AR)
    await env.advance_time(LOGIN_SECONDS + 1)
    status, body = await site.login({"discord": late, "start": True})
    assert status == 401 and body["error"] == GONE_AR
    # Not genuine: refused in the server's words. A start link opens no table, and a
    # table's link no start page.
    status, body = await site.login({"discord": late[:-2] + "xx", "start": True})
    assert status == 401 and body["error"] == GONE
    fresh = await help_link(bob)
    assert (await site.login({"discord": fresh}))[0] == 401
    hand = site.web.gate.hand_link(f"dc:{bob.id}", "t1", "en")
    assert (await site.login({"discord": hand, "start": True}))[0] == 401
    for member in (alice, bob):
        assert await service.pool_status(person(member)) is None
    assert site.web.server.starts.pages(f"dc:{alice.id}") == 0
    # Bob's link, refused as a table's, is still good once for the start page.
    assert site.web.gate.check_start(await site.start_session(fresh)).player_id == f"dc:{bob.id}"
