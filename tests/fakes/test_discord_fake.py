"""The fake Discord itself, over HTTP and its websocket: the rate limits' headers and 429,
Discord's error codes, unknown routes, and a gateway that sends a shard its own guilds in
zlib-stream frames."""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from tests.fakes.discord_payloads import User, guild_id_on, new_interaction
from tests.fakes.discord_server import FakeDiscord

TOKEN = "fake-discord-token"
BOT = User(1098765432109876540, "basra", bot=True)
HEADERS = {"Authorization": f"Bot {TOKEN}"}
SYNC_FLUSH = b"\x00\x00\xff\xff"


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(TOKEN, BOT, shard_count=2)
    await server.start()
    yield server
    await server.stop()


async def call(method: str, url: str, body: Any = None) -> tuple[int, Any, dict[str, str]]:
    async with (
        aiohttp.ClientSession() as session,
        session.request(method, url, json=body, headers=HEADERS) as response,
    ):
        text = await response.text()
        return response.status, (json.loads(text) if text else None), dict(response.headers)


async def test_six_messages_in_a_channel_within_five_seconds_meet_a_429(fake: FakeDiscord) -> None:
    user = fake.add_user("alice")
    guild = fake.add_guild(guild_id_on(0, 2), "Cairo", [user])
    url = f"{fake.url}/api/v10/channels/{guild.channels[0].id}/messages"
    remaining = []
    for n in range(5):
        status, _, headers = await call("POST", url, {"content": f"line {n}"})
        assert status == 200 and headers["X-RateLimit-Limit"] == "5"
        remaining.append(int(headers["X-RateLimit-Remaining"]))
        assert 0 < float(headers["X-RateLimit-Reset-After"]) <= 5 and headers["X-RateLimit-Bucket"]
    status, data, headers = await call("POST", url, {"content": "one too many"})
    assert remaining == [4, 3, 2, 1, 0]
    assert status == 429 and 0 < data["retry_after"] <= 5 and data["global"] is False
    assert headers["Via"] and headers["X-RateLimit-Scope"] == "user"
    assert [(r.path, r.bucket) for r in fake.refused] == [(url.split("/api/v10")[1], "channel")]
    assert [m.payload["content"] for m in fake.shown(guild.channels[0])] == [f"line {n}" for n in range(5)]


async def test_discord_s_error_codes_and_unknown_routes(fake: FakeDiscord) -> None:
    shy = fake.add_user("shy")
    shy.takes_dms = False
    guild = fake.add_guild(guild_id_on(1, 2), "Giza", [shy])
    api = f"{fake.url}/api/v10"
    status, sent, _ = await call("POST", f"{api}/channels/{guild.channels[0].id}/messages", {"content": "hi"})
    assert status == 200
    message = f"{api}/channels/{guild.channels[0].id}/messages/{sent['id']}"
    assert (await call("PATCH", message, {"content": "hello"}))[0] == 200
    assert (await call("DELETE", message))[0] == 204
    status, data, _ = await call("PATCH", message, {"content": "again"})
    assert (status, data["code"]) == (404, 10008)
    assert [v.payload["content"] for v in fake.messages[int(sent["id"])].versions] == ["hi", "hello"]
    status, dm, _ = await call("POST", f"{api}/users/@me/channels", {"recipient_id": str(shy.id)})
    assert status == 200 and dm["type"] == 1
    status, data, _ = await call("POST", f"{api}/channels/{dm['id']}/messages", {"content": "psst"})
    assert (status, data["code"]) == (403, 50007)
    status, data, _ = await call("GET", f"{api}/guilds/{guild.id}/members")
    assert status == 404 and data["message"] == "404: Not Found"
    assert fake.unknown == [("GET", f"/guilds/{guild.id}/members")]


async def test_an_interaction_answered_late_or_twice_is_refused(fake: FakeDiscord) -> None:
    user = fake.add_user("alice")
    guild = fake.add_guild(guild_id_on(0, 2), "Cairo", [user])
    late = new_interaction(2, user, guild.channels[0], guild, {"name": "basra"})
    fake.remember(late)
    late.created = time.monotonic() - 3.5
    url = f"{fake.url}/api/v10/interactions/{late.id}/{late.token}/callback"
    status, data, _ = await call("POST", url, {"type": 4, "data": {"content": "late"}})
    assert (status, data["code"]) == (404, 10062)
    late.created = time.monotonic()
    status, data, _ = await call("POST", url, {"type": 5, "data": {"flags": 64}})
    assert status == 200 and data["interaction"]["response_message_loading"] is True
    status, data, _ = await call("POST", url, {"type": 4, "data": {"content": "twice"}})
    assert (status, data["code"]) == (400, 40060)
    # The first follow-up after a deferral is the answer itself, still for the user alone.
    hook = f"{fake.url}/api/v10/webhooks/{BOT.id}/{late.token}"
    status, data, _ = await call("POST", f"{hook}?wait=true", {"content": "here"})
    assert status == 200 and data["id"] == str(late.original) and data["flags"] == 64
    assert fake.messages[late.original or 0].ephemeral and fake.shown(guild.channels[0]) == []


async def test_a_shard_gets_its_own_guilds_in_zlib_stream_frames(fake: FakeDiscord) -> None:
    fake.add_guild(guild_id_on(0, 2), "Cairo", [])
    mine = fake.add_guild(guild_id_on(1, 2), "Giza", [])
    inflate = zlib.decompressobj()

    async def receive(socket: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
        frame = await socket.receive_bytes(timeout=5)
        assert frame.endswith(SYNC_FLUSH)
        return dict(json.loads(inflate.decompress(frame)))

    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(f"{fake.gateway_url}?v=10&encoding=json&compress=zlib-stream") as socket,
    ):
        hello = await receive(socket)
        assert hello["op"] == 10 and hello["d"]["heartbeat_interval"] > 0
        await socket.send_json({"op": 1, "d": None})
        assert (await receive(socket))["op"] == 11
        await socket.send_json({"op": 2, "d": {"token": TOKEN, "shard": [1, 2], "intents": 1}})
        ready = await receive(socket)
        assert ready["t"] == "READY" and ready["d"]["shard"] == [1, 2]
        assert [g["id"] for g in ready["d"]["guilds"]] == [str(mine.id)]
        created = await receive(socket)
        assert created["t"] == "GUILD_CREATE" and created["d"]["id"] == str(mine.id) and created["s"] == 2
        connection = fake.gateway.live(1, 2)
        assert connection is not None and fake.gateway.for_guild(mine.id) is connection


async def test_a_second_identify_of_one_bucket_within_five_seconds_is_an_invalid_session(
    fake: FakeDiscord,
) -> None:
    async with aiohttp.ClientSession() as session:
        sockets = [await session.ws_connect(f"{fake.gateway_url}?v=10&encoding=json") for _ in range(2)]
        for socket in sockets:
            assert (await socket.receive_json(timeout=5))["op"] == 10
            await socket.send_json({"op": 2, "d": {"token": TOKEN, "shard": [1, 2], "intents": 1}})
        assert (await sockets[0].receive_json(timeout=5))["t"] == "READY"
        refused = await sockets[1].receive_json(timeout=5)
        assert (refused["op"], refused["d"]) == (9, False) and fake.gateway.too_soon == [(1, 2)]
        for socket in sockets:
            await socket.close()


async def test_a_file_sent_with_a_message_is_one_of_its_attachments(fake: FakeDiscord) -> None:
    guild = fake.add_guild(guild_id_on(0, 2), "Cairo", [])
    form = aiohttp.FormData(quote_fields=False)
    payload = {"content": "the record", "attachments": [{"id": 0, "filename": "match.basra"}]}
    form.add_field("payload_json", json.dumps(payload))
    form.add_field("files[0]", b"basra-record/1", filename="match.basra")
    async with (
        aiohttp.ClientSession() as session,
        session.post(
            f"{fake.url}/api/v10/channels/{guild.channels[0].id}/messages", data=form, headers=HEADERS
        ) as response,
    ):
        assert response.status == 200
        sent = await response.json()
    assert sent["content"] == "the record"
    assert [a["filename"] for a in sent["attachments"]] == ["match.basra"] and sent["attachments"][0]["url"]


async def test_a_message_over_discord_s_limits_is_an_invalid_form_body(fake: FakeDiscord) -> None:
    guild = fake.add_guild(guild_id_on(0, 2), "Cairo", [])
    url = f"{fake.url}/api/v10/channels/{guild.channels[0].id}/messages"
    row = {"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": "b1|same"}] * 2}
    status, data, _ = await call("POST", url, {"content": "x" * 2001, "components": [row]})
    assert (status, data["code"]) == (400, 50035)
    assert data["errors"]["problems"] == [
        "content is longer than 2000",
        "components.0.components.1.custom_id is used twice in the message",
    ]
    assert fake.shown(guild.channels[0]) == [] and len(fake.invalid) == 1


async def test_an_interaction_s_token_works_for_fifteen_minutes(fake: FakeDiscord) -> None:
    user = fake.add_user("alice")
    guild = fake.add_guild(guild_id_on(0, 2), "Cairo", [user])
    interaction = new_interaction(2, user, guild.channels[0], guild, {"name": "basra"})
    fake.remember(interaction)
    hook = f"{fake.url}/api/v10/webhooks/{BOT.id}/{interaction.token}"
    status, data, _ = await call("POST", f"{hook}?wait=true", {"content": "too soon"})
    assert (status, data["code"]) == (404, 10015)  # not answered yet
    answer = f"{fake.url}/api/v10/interactions/{interaction.id}/{interaction.token}/callback"
    assert (await call("POST", answer, {"type": 4, "data": {"content": "hi"}}))[0] == 200
    assert (await call("PATCH", f"{hook}/messages/@original", {"content": "hello"}))[0] == 200
    interaction.created -= 15 * 60 + 1
    status, data, _ = await call("PATCH", f"{hook}/messages/@original", {"content": "late"})
    assert (status, data["code"]) == (401, 50027)
    assert [v.payload["content"] for v in fake.messages[interaction.original or 0].versions] == [
        "hi",
        "hello",
    ]
