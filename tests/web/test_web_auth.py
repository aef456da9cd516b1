"""Who may open a table's page: forged, expired and replayed logins and links are refused
(401/403) and logged without what was sent; a socket without a genuine session is closed;
a page's play goes through the same checks as a button press."""

from __future__ import annotations

import json
import logging
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bots.web import Gate, Refused
from tests.fakes import FakeTelegram, FakeUser
from tests.telegram.test_storage_faults import NOT_SAVED, refusing
from tests.telegram.world import start_match
from tests.web.sockets import next_of
from tests.web.web_world import WebWorld


def play(card: str, plan: int | None, version: int) -> dict[str, Any]:
    return {"op": "play", "card": card, "plan": plan, "version": version}


async def login(world: WebWorld, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    async with aiohttp.ClientSession() as http, http.post(f"{world.origin}/api/login", json=body) as answer:
        return answer.status, await answer.json()


@pytest.fixture
def players(server: FakeTelegram) -> tuple[FakeUser, FakeUser, FakeUser, Any]:
    alice, badr, carla = (server.add_user(n, language_code=lang)
                          for n, lang in (("Alice", "en"), ("Badr", "ar"), ("Carla", "en")))
    for user in (alice, badr, carla):
        server.private_chat(user)
    return alice, badr, carla, server.add_group("Cafe", [alice, badr, carla])


async def test_forged_expired_and_replayed_init_data_are_refused_and_logged_without_it(
    server: FakeTelegram, database: Path, players: Any, caplog: pytest.LogCaptureFixture
) -> None:
    alice, _, carla, group = players
    caplog.set_level(logging.INFO)
    async with WebWorld(server, database) as world:
        table = await start_match(world, group, alice, players[1])
        tid = table.table_id
        forged = world.init_data(alice, token="999999:" + "z" * 35)  # signed with another bot's token
        tampered = world.init_data(alice).replace("Alice", "Alicf")
        expired = world.init_data(alice, age=601)
        genuine = world.init_data(alice)
        stranger = world.init_data(carla)  # genuine, but Carla has no seat here
        assert (await login(world, {"telegram": forged, "table": tid}))[0] == 401
        assert (await login(world, {"telegram": tampered, "table": tid}))[0] == 401
        status, body = await login(world, {"telegram": expired, "table": tid})
        assert status == 401 and "not valid any more" in body["error"]
        assert (await login(world, {"telegram": stranger, "table": tid}))[0] == 403
        status, body = await login(world, {"telegram": genuine, "table": tid})
        assert status == 200 and body["table"] == tid
        status, body = await login(world, {"telegram": genuine, "table": tid})  # the same, again
        assert status == 403 and "used already" in body["error"]
        assert (await login(world, {"telegram": "", "table": tid}))[0] == 401
        assert (await login(world, {"nothing": 1}))[0] == 401
    refusals = [r.getMessage() for r in caplog.records if "refused" in r.getMessage()]
    assert len(refusals) == 7
    logged = "\n".join(r.getMessage() for r in caplog.records)
    for secret in (forged, tampered, expired, genuine, server.token):
        assert secret not in logged
    assert "hash=" not in logged and "auth_date" not in logged


async def test_a_login_used_before_a_restart_is_refused_after_it(server: FakeTelegram, database: Path,
                                                                  players: Any) -> None:
    """What was used is kept in the store until it expires: a restarted bot remembers it."""
    alice, badr, _, group = players
    async with WebWorld(server, database) as world:
        table = await start_match(world, group, alice, badr)
        genuine = world.init_data(alice)
        link = world.web.gate.hand_link(f"tg:{alice.id}", table.table_id, "en")
        assert (await login(world, {"telegram": genuine, "table": table.table_id}))[0] == 200
        assert (await login(world, {"discord": link}))[0] == 200
    async with WebWorld(server, database) as world:  # the bot, its web table and its store again
        world.opened = 100  # Telegram's client opens the Mini App again: another query
        status, body = await login(world, {"telegram": genuine, "table": table.table_id})
        assert status == 403 and "used already" in body["error"]
        assert (await login(world, {"discord": link}))[0] == 403
        assert (await login(world, {"telegram": world.init_data(alice), "table": table.table_id}))[0] == 200


async def test_discord_links_are_signed_bound_expiring_and_good_once(server: FakeTelegram, database: Path,
                                                                      players: Any) -> None:
    alice, badr, _, group = players
    async with WebWorld(server, database) as world:
        table = await start_match(world, group, alice, badr)
        gate = world.web.gate
        link = gate.hand_link(f"tg:{alice.id}", table.table_id, "en")
        payload, mac = link.split(".")
        assert (await login(world, {"discord": payload + "." + mac[::-1]}))[0] == 401  # forged
        other = Gate(b"another secret of 32 bytes long!", clock=time.time)
        assert (await login(world, {"discord": other.hand_link(f"tg:{alice.id}", table.table_id)}))[0] == 401
        stale = Gate(b"web tests secret, 32 bytes long!", clock=lambda: time.time() - 3600)
        assert (await login(world, {"discord": stale.hand_link(f"tg:{alice.id}", table.table_id)}))[0] == 401
        # A session token is not a link, nor a watching link a hand's.
        assert (await login(world, {"discord": gate.session(f"tg:{alice.id}", table.table_id)}))[0] == 401
        assert (await login(world, {"discord": gate.watch_link(table.table_id)}))[0] == 401
        status, body = await login(world, {"discord": link})
        assert status == 200 and gate.check_session(body["session"]).player_id == f"tg:{alice.id}"
        assert (await login(world, {"discord": link}))[0] == 403  # replayed
        # Bound to the player and table it names: a link for a seat that is not there is refused.
        assert (await login(world, {"discord": gate.hand_link("tg:1", table.table_id)}))[0] == 403
    with pytest.raises(Refused) as refused:
        gate.check_session("not.a-token")
    assert refused.value.status == 401


async def test_a_socket_needs_a_session_and_a_page_plays_through_the_same_checks(
    server: FakeTelegram, database: Path, players: Any
) -> None:
    alice, badr, _, group = players
    async with WebWorld(server, database) as world:
        table = await start_match(world, group, alice, badr)
        gate = world.web.gate
        async with aiohttp.ClientSession() as http:
            async with http.ws_connect(f"{world.origin}/ws") as socket:
                await socket.send_str(json.dumps({"session": "forged.token"}))
                await socket.receive()
                assert socket.close_code == 4401
            # Badr's own page: it is Alice's turn, so his play is refused, and a stale one too.
            async with http.ws_connect(f"{world.origin}/ws") as socket:
                await socket.send_json({"session": gate.session(f"tg:{badr.id}", table.table_id, "en")})
                frame = await socket.receive_json(timeout=5)
                assert frame["type"] == "state" and frame["hand"] == ["5C", "5D", "8S", "8H"]
                assert not frame["your_turn"] and "previews" in frame
                await socket.send_json(play("5C", None, frame["version"]))
                refused = await next_of(socket, "refused")
                assert "Alice" in refused["text"]
            async with http.ws_connect(f"{world.origin}/ws") as socket:
                await socket.send_json({"session": gate.session(f"tg:{alice.id}", table.table_id, "en")})
                frame = await socket.receive_json(timeout=5)
                assert frame["your_turn"] and frame["hand"] == ["6C", "10C", "KS", "9D"]
                await socket.send_json(play("6C", 1, frame["version"] - 1))
                assert (await next_of(socket, "refused"))["text"]  # from an outdated view
                await socket.send_json(play("5C", None, frame["version"]))
                assert "5♣" in (await next_of(socket, "refused"))["text"]  # not in her hand
                await socket.send_json(play("10C", 1, frame["version"]))
                played = await next_of(socket, "state")
                while played["version"] == frame["version"]:
                    played = await next_of(socket, "state")
                assert played["floor"] == [] and "10C" not in played["hand"]  # a basra
        after = await world.basra.service.table(table.table_id)
        assert after.version > frame["version"] and after.floor == ()
        assert after.last_play is not None and after.last_play.card == "10C" and after.last_play.basra


async def test_a_watching_page_gets_the_public_table_and_no_hand(server: FakeTelegram, database: Path,
                                                                 players: Any) -> None:
    alice, badr, _, group = players
    async with WebWorld(server, database) as world:
        table = await start_match(world, group, alice, badr)
        await world.basra.idle()
        link = world.watch_link(group)
        token = link.split("#w=", 1)[1]
        status, body = await login(world, {"watch": token})
        assert status == 200
        assert (await login(world, {"watch": token}))[0] == 200  # anyone in the chat, any number of times
        assert (await login(world, {"watch": token[:-2] + "xx"}))[0] == 401
        async with aiohttp.ClientSession() as http, http.ws_connect(f"{world.origin}/ws") as socket:
            await socket.send_json({"session": body["session"]})
            frame = await socket.receive_json(timeout=5)
            assert frame["watching"] and frame["floor"] == list(table.floor)
            assert "hand" not in frame and "previews" not in frame
            text = json.dumps(frame)
            for card in ("6C", "10C", "KS", "9D", "5C", "5D", "8S", "8H"):
                assert f'"{card}"' not in text
            await socket.send_json(play("6C", 1, frame["version"]))
        assert (await world.basra.service.table(table.table_id)).version == table.version


async def test_a_page_s_play_the_store_refuses_is_refused_as_not_saved(
    server: FakeTelegram, database: Path, players: Any
) -> None:
    """The page answers a failing store as the chat does: nothing changed, try again."""
    alice, badr, _, group = players
    async with WebWorld(server, database) as world:
        table = await start_match(world, group, alice, badr)
        store = world.basra.store
        assert store is not None
        async with aiohttp.ClientSession() as http, http.ws_connect(f"{world.origin}/ws") as socket:
            session = world.web.gate.session(f"tg:{alice.id}", table.table_id, "en")
            await socket.send_json({"session": session})
            frame = await socket.receive_json(timeout=5)
            with refusing(store):
                await socket.send_json(play("10C", 1, frame["version"]))
                refused = await next_of(socket, "refused")
            assert refused["text"] == NOT_SAVED
            await socket.send_json(play("10C", 1, frame["version"]))  # once it works again
            played = await next_of(socket, "state")
            while played["version"] == frame["version"]:
                played = await next_of(socket, "state")
            assert "10C" not in played["hand"]
