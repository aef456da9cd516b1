"""The web table's start page: opened from the bot's welcome as a Mini App, it logs in with
Telegram's ``initData``, shows the person's name and rating, and plays someone online
through the pool's own calls, the chat's waiting message following it; two people who
look there are paired and each is handed their table's page. Refusals are the chat's."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import aiohttp

from tests.fakes import FakeTelegram, FakeUser
from tests.telegram.test_pool import POOL, people, person, waiting, waves
from tests.telegram.world import start_match
from tests.web.sockets import frame_in, next_of, ops, words
from tests.web.test_web_auth import login
from tests.web.web_world import ARTIFACTS, PHONE, PUBLIC, WebWorld, telegram_script

GONE = "This page is not valid any more. Open it again from the bot's chat."
USED = "This page was opened already. Open it again from the bot's chat."
PLAYING = "You are playing a match already. Finish it first, or resign it with /resign."


def pool_world(server: FakeTelegram, database: Path) -> WebWorld:
    return WebWorld(server, database, config=POOL)


async def start_session(world: WebWorld, user: FakeUser) -> str:
    """What the start page gets for the Mini App's ``initData``: a start session."""
    status, body = await login(world, {"telegram": world.init_data(user), "start": True})
    assert status == 200 and body["start"] is True, body
    return str(body["session"])


@asynccontextmanager
async def start_page(world: WebWorld, user: FakeUser) -> AsyncIterator[Any]:
    """The user's start page: logged in, its socket open, its first frame read."""
    session = await start_session(world, user)
    async with aiohttp.ClientSession() as http, http.ws_connect(f"{world.origin}/ws") as socket:
        await socket.send_json({"start": session})
        yield socket





def web_apps(world: WebWorld, user: FakeUser) -> list[str]:
    shown = world.server.messages(world.server.private_chat(user), bot_only=True)
    return [b.web_app for message in shown for row in message.buttons for b in row if b.web_app]


async def test_the_welcome_opens_the_start_page_where_two_people_are_paired_and_sent_to_their_table(
    server: FakeTelegram, database: Path
) -> None:
    amal, badr = people(server)
    async with pool_world(server, database) as world:
        await world.send(amal, None, "/start")
        assert web_apps(world, amal) == [f"{PUBLIC}/start"]
        async with aiohttp.ClientSession() as http, http.get(world.local(f"{PUBLIC}/start")) as page:
            assert page.status == 200 and 'data-mode="start"' in await page.text()

        async with start_page(world, amal) as first, start_page(world, badr) as second:
            idle = await frame_in(first, "idle")
            assert idle["name"] == "Amal" and idle["rating"] == "Your rating: 1500 (provisional)"
            assert [(b["op"], b.get("mode")) for row in idle["buttons"] for b in row] == [
                ("join", "1v1"), ("join", "2v2")]
            assert (await frame_in(second, "idle"))["dir"] == "rtl"

            await first.send_json({"op": "join", "mode": "1v1"})
            looking = await frame_in(first, "waiting")
            assert words(looking).startswith("Looking for an opponent…")
            assert "Nobody else is looking right now." in words(looking)
            assert ops(looking) == ["cancel"] and looking["texts"]["clock"] == "Time waited: {clock}"
            await world.basra.idle()
            # The chat shows the same search, with the button that opens the page again.
            chat = waiting(world, amal)
            assert chat.text.startswith("Looking for an opponent…") and "b1|unseek||0" in chat.button_data()
            assert f"{PUBLIC}/start" in web_apps(world, amal)

            await world.clock.advance(1)
            await second.send_json({"op": "join", "mode": "1v1"})
            arabic = await frame_in(second, "waiting")
            assert "شخصان يبحثان" in words(arabic)  # two are looking, Badr one of them

            await waves(world, 2)

            found = await frame_in(first, "paired")
            theirs = await frame_in(second, "paired")
            table_id = found["table"]
            assert table_id and theirs["table"] == table_id
            assert words(found).startswith("Opponent found: \u2068بدر\u2069")
            assert words(theirs).startswith("وجدت لك منافسًا: \u2068Amal\u2069")
            for frame, other in ((found, badr), (theirs, amal)):
                shown = json.dumps(frame, ensure_ascii=False)
                assert str(other.id) not in shown and str(other.username) not in shown

            # The page asks for its table and is handed a session there, its own seat's.
            await first.send_json({"op": "open", "table": table_id})
            go = await next_of(first, "go")
            assert go["table"] == table_id
            session = world.web.gate.check_session(go["session"])
            assert (session.player_id, session.table_id) == (f"tg:{amal.id}", table_id)

        async with aiohttp.ClientSession() as http, http.ws_connect(f"{world.origin}/ws") as table:
            await table.send_json({"session": go["session"]})
            state = await next_of(table, "state")
            assert state["table"] == table_id and len(state["hand"]) == 4
            assert [s["name"] for s in state["seats"] if not s["you"]] == ["\u2068بدر\u2069"]
        await world.basra.idle()
        # The chat followed: its waiting message names the opponent, the match's cards came.
        assert waiting(world, amal).text.startswith("Opponent found: \u2068بدر\u2069")
        assert world.hand_messages(amal) or world.hand_messages(badr)


async def test_cancel_on_the_page_leaves_the_pool_and_the_chat_says_so(server: FakeTelegram,
                                                                       database: Path) -> None:
    amal, _ = people(server)
    async with pool_world(server, database) as world, start_page(world, amal) as page:
        await frame_in(page, "idle")
        await page.send_json({"op": "join", "mode": "2v2"})
        looking = await frame_in(page, "waiting")
        assert words(looking).startswith("Looking for players: two against two…")
        await page.send_json({"op": "cancel"})
        await frame_in(page, "idle")
        assert await world.basra.service.pool_status(person(amal)) is None
        await world.basra.idle()
        assert world.latest_private(amal).text.startswith("You stopped looking for an opponent.")
        await page.send_json({"op": "cancel"})  # again: nothing to stop
        assert (await next_of(page, "refused"))["text"] == "You are not waiting for an opponent now."
        assert (await next_of(page, "start"))["state"] == "idle"


async def test_the_computer_is_offered_after_the_wait_and_its_practice_match_opens(
    server: FakeTelegram, database: Path
) -> None:
    amal, _ = people(server)
    async with pool_world(server, database) as world, start_page(world, amal) as page:
        await page.send_json({"op": "join", "mode": "1v1"})
        await frame_in(page, "waiting")
        await waves(world, 12)  # past BASRA_POOL_WAIT_SECONDS (10 s here)
        offered = await frame_in(page, "waiting")
        while ops(offered) != ["computer", "wait", "cancel"]:
            offered = await frame_in(page, "waiting")
        assert "Play the computer (beginner) now, or keep waiting." in words(offered)
        await page.send_json({"op": "wait"})
        assert ops(await frame_in(page, "waiting")) == ["computer", "wait", "cancel"]
        await page.send_json({"op": "computer"})
        go = await next_of(page, "go")
        table = await world.basra.service.table(go["table"])
        assert table.practice and table.running and table.seat_of(f"tg:{amal.id}") is not None
        await world.basra.idle()
        assert waiting(world, amal).text.startswith("You chose to play the computer (beginner)")
        assert world.hand_messages(amal)  # the chat plays the same practice match


async def test_the_page_refuses_in_the_chat_s_words_and_changes_nothing(server: FakeTelegram,
                                                                        database: Path) -> None:
    amal, badr = people(server)
    group = server.add_group("Cafe", [amal, badr])
    async with pool_world(server, database) as world:
        world.web.server.starts.refresh_seconds = 0.05  # a match begun in a group tells the pool nothing
        # Expired or replayed logins, and sessions of the wrong kind, are refused.
        status, body = await login(world, {"telegram": world.init_data(amal, age=601), "start": True})
        assert status == 401 and body["error"] == GONE
        used = world.init_data(amal)
        assert (await login(world, {"telegram": used, "start": True}))[0] == 200
        status, body = await login(world, {"telegram": used, "start": True})
        assert status == 403 and body["error"] == USED
        start = await start_session(world, amal)
        async with aiohttp.ClientSession() as http:
            for hello in ({"start": "forged.token"}, {"session": start},
                          {"start": world.web.gate.session(f"tg:{amal.id}", "t1", "en")}):
                async with http.ws_connect(f"{world.origin}/ws") as socket:
                    await socket.send_json(hello)
                    await socket.receive()
                    assert socket.close_code == 4401

        async with start_page(world, amal) as page:
            await frame_in(page, "idle")
            await page.send_json({"op": "join", "mode": "1v1"})
            await frame_in(page, "waiting")
            await page.send_json({"op": "join", "mode": "1v1"})
            assert (await next_of(page, "refused"))["text"].startswith("I am already looking for an opponent")
            await frame_in(page, "waiting")
            await page.send_json({"op": "join", "mode": "3v3"})  # no such kind: nothing at all
            await page.send_json({"op": "cancel"})
            await frame_in(page, "idle")

            table = await start_match(world, group, amal, badr)
            playing = await frame_in(page, "playing")
            assert words(playing) == PLAYING
            assert [b.get("table") for row in playing["buttons"] for b in row] == [table.table_id]
            await page.send_json({"op": "join", "mode": "1v1"})
            assert (await next_of(page, "refused"))["text"] == words(playing)
            assert await world.basra.service.pool_status(person(amal)) is None
            # A table where one has no seat is never handed over.
            await page.send_json({"op": "open", "table": "nosuchtable"})
            assert (await next_of(page, "refused"))["text"]
        async with start_page(world, server.add_user("Carla", language_code="en")) as other:
            await frame_in(other, "idle")
            await other.send_json({"op": "open", "table": table.table_id})
            refused = await next_of(other, "refused")
            assert "go" not in json.dumps(refused) and refused["text"]


async def test_a_search_stopped_in_the_chat_shows_on_the_page(server: FakeTelegram, database: Path) -> None:
    """A press in the chat tells no platform: the page reads the pool again by itself."""
    amal, _ = people(server)
    async with pool_world(server, database) as world:
        world.web.server.starts.refresh_seconds = 0.05
        async with start_page(world, amal) as page:
            await page.send_json({"op": "join", "mode": "1v1"})
            await frame_in(page, "waiting")
            await world.basra.idle()
            await world.press_verb(amal, waiting(world, amal), "unseek")
            await asyncio.wait_for(frame_in(page, "idle"), 5)
        assert world.web.server.starts.pages(f"tg:{amal.id}") == 0


async def test_in_a_browser_the_arabic_start_page_looks_then_opens_the_table_found(
    server: FakeTelegram, database: Path, browser: Any
) -> None:
    """start.js as a phone runs it: right to left in Arabic, the search pressed, its clock
    counting, and the table's page opened once a wave found someone."""
    amal, badr = people(server)
    async with pool_world(server, database) as world:
        context = await browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                            has_touch=True, locale="ar-EG")
        await context.route("https://telegram.org/**", lambda route: route.abort())
        await context.add_init_script(telegram_script(world.init_data(badr)))
        page = await context.new_page()
        try:
            await page.goto(world.local(f"{PUBLIC}/start"))
            await page.wait_for_selector('#start[data-state="idle"]')
            assert await page.get_attribute("html", "dir") == "rtl"
            assert await page.inner_text("#name") == "بدر"
            assert await page.inner_text("#rating") == "تصنيفك: 1500 (مؤقت)"
            await page.click('#buttons button[data-mode="1v1"]')
            await page.wait_for_selector('#start[data-state="waiting"] #lines .clock')
            assert await page.locator('#buttons button[data-op="cancel"]').count() == 1
            await page.screenshot(path=str(ARTIFACTS / "ar-start-waiting.png"))
            async with start_page(world, amal) as first:
                await first.send_json({"op": "join", "mode": "1v1"})
                await frame_in(first, "waiting")
                await waves(world, 2)
                await page.wait_for_url("**/play?t=*", timeout=10_000)
            await page.wait_for_selector("#table[data-version]")
            cards = await page.eval_on_selector_all("#hand .card", "nodes => nodes.map(n => n.dataset.card)")
            assert len(cards) == 4
            table = await world.basra.service.pool_status(person(badr))
            assert table is not None and page.url.endswith(f"/play?t={table.table_id}")
        finally:
            await context.close()
