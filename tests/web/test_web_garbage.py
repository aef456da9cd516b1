"""Garbage on the page's socket: a frame too big, JSON nested too deep, binary, not
JSON, not UTF-8, bytes that are no WebSocket frame. Each closes that socket with one
clear line in the log and no traceback, before a session or after it, and the table
goes on serving."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import logging
import os
import struct
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.fakes import FakeTelegram
from tests.telegram.world import start_match
from tests.web.web_world import WebWorld

TEXT, BINARY = 0x1, 0x2


def frame(payload: bytes, opcode: int = TEXT) -> bytes:
    """A client's frame, masked with a key of zeros (so the payload goes as it is)."""
    size = len(payload)
    if size < 126:
        head = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
    elif size < 65536:
        head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
    else:
        head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
    return head + b"\0\0\0\0" + payload


#: What is sent, what the socket is closed with, what the log line says.
GARBAGE: dict[str, tuple[bytes, int, str]] = {
    "a frame of 100 KB": (frame(json.dumps({"op": "play", "card": "x" * 100_000}).encode()), 1009,
                          "a frame over 4096 bytes"),
    "JSON nested 2,000 deep": (frame(b"[" * 2000 + b"]" * 2000), 1008, "JSON nested deeper than 4"),
    "a binary frame": (frame(b"\x00\xff" * 10, BINARY), 1003, "a binary frame"),
    "text that is not JSON": (frame(b"garbage{"), 1007, "a frame that is not JSON"),
    "text that is not UTF-8": (frame(b"\xff\xfe\xfd"), 1007, "a text frame that is not UTF-8"),
    "bytes that are no frame": (b"\x8f\x05garbage", 1002, "bytes that are not a WebSocket frame"),
}


async def close_code(origin: str, hello: dict[str, Any] | None, garbage: bytes) -> int:
    """Open ``/ws`` by hand, say hello (or not), send ``garbage``; the server's close code."""
    host, port = origin.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))

    async def closed() -> int:
        while True:  # frames until the close frame (the page's state comes first after a hello)
            first, second = await reader.readexactly(2)
            size = second & 0x7F
            if size == 126:
                size = struct.unpack("!H", await reader.readexactly(2))[0]
            elif size == 127:
                size = struct.unpack("!Q", await reader.readexactly(8))[0]
            payload = await reader.readexactly(size)
            if first & 0x0F == 0x8:
                return int(struct.unpack("!H", payload[:2])[0])

    try:
        key = base64.b64encode(os.urandom(16)).decode()
        writer.write((f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                      f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
                     .encode())
        assert b" 101 " in await reader.readuntil(b"\r\n\r\n")
        # Read while writing: the server closes before the rest of a frame too big has gone,
        # and its close frame must be read before the connection is reset.
        reading = asyncio.get_running_loop().create_task(closed())
        if hello is not None:
            writer.write(frame(json.dumps(hello).encode()))
        for at in range(0, len(garbage), 4096):
            writer.write(garbage[at:at + 4096])
            with contextlib.suppress(ConnectionError):
                await writer.drain()
            if reading.done():
                break
        return await asyncio.wait_for(reading, 5)
    finally:
        writer.close()


@pytest.mark.parametrize("after_hello", [False, True], ids=["instead of a hello", "after a session"])
async def test_garbage_on_a_socket_closes_it_with_one_clear_line_and_no_traceback(
    server: FakeTelegram, database: Path, caplog: pytest.LogCaptureFixture, after_hello: bool
) -> None:
    alice, badr = (server.add_user(name, language_code="en") for name in ("Alice", "Badr"))
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with WebWorld(server, database) as world:
        table = await start_match(world, group, alice, badr)
        hello = {"session": world.web.gate.session(f"tg:{alice.id}", table.table_id, "en")}
        for what, (garbage, code, reason) in GARBAGE.items():
            caplog.clear()
            caplog.set_level(logging.INFO)
            assert await close_code(world.origin, hello if after_hello else None, garbage) == code, what
            await asyncio.sleep(0.05)  # the handler's last words
            lines = [r for r in caplog.records if r.name.startswith(("aiohttp", "bots.web"))]
            assert [r.getMessage() for r in lines] == [f"web socket closed ({code}): {reason} from 127.0.0.1"]
            assert not any(r.exc_info for r in caplog.records), what
            assert "Traceback" not in caplog.text and "Error handling request" not in caplog.text
        # The table goes on: a page that speaks properly gets its state.
        async with aiohttp.ClientSession() as http, http.ws_connect(f"{world.origin}/ws") as socket:
            await socket.send_json(hello)
            state = await socket.receive_json(timeout=5)
            assert state["type"] == "state" and state["hand"] == ["6C", "10C", "KS", "9D"]


async def test_a_login_nested_too_deep_is_refused_as_not_a_login(
    server: FakeTelegram, database: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    async with WebWorld(server, database) as world, aiohttp.ClientSession() as http:
        body = '{"telegram": ' + "[" * 2000 + "]" * 2000 + "}"
        async with http.post(f"{world.origin}/api/login", data=body,
                             headers={"Content-Type": "application/json"}) as answer:
            assert answer.status == 401
    assert "web login refused (401: not a login)" in caplog.text
    assert not any(r.exc_info for r in caplog.records) and "Error handling request" not in caplog.text
