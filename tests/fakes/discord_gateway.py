"""The fake Discord's gateway: a real websocket, as discord.py's shards use it.

A connection gets HELLO; the bot's IDENTIFY (its token, ``shard: [id, count]``) gets
READY and then a GUILD_CREATE for each guild on that shard (``(guild_id >> 22) % count``),
and nothing of the others. As on Discord, two IDENTIFYs of one bucket (``shard_id %
max_concurrency``) within 5 s get an INVALID_SESSION instead. Heartbeats are acknowledged.
With ``compress=zlib-stream`` in the URL (what discord.py 2.7 asks without zstd) every
frame is one zlib stream's data up to a Z_SYNC_FLUSH, sent as binary. ``dispatch`` sends
an event (INTERACTION_CREATE) to the live connection of a guild's shard. Which process
holds each connection is known (``discord_peers``), so a test can say where each event went.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
import zlib
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .discord_payloads import shard_of

if TYPE_CHECKING:
    from .discord_server import FakeDiscord

log = logging.getLogger(__name__)

HEARTBEAT_MS = 41250
#: Identifies in one bucket (``shard_id % max_concurrency``) must be this far apart.
IDENTIFY_EVERY = 5.0
DISPATCH, HEARTBEAT, IDENTIFY, RESUME, RECONNECT, INVALID_SESSION, HELLO, HEARTBEAT_ACK = (
    0,
    1,
    2,
    6,
    7,
    9,
    10,
    11,
)


@dataclass
class Connection:
    """One websocket: its shard once identified, its process, its sequence."""

    socket: web.WebSocketResponse
    compress: bool
    process: str | None
    opened: float = field(default_factory=time.monotonic)
    shard: tuple[int, int] | None = None
    session_id: str = field(default_factory=lambda: secrets.token_hex(16))
    sequence: int = 0
    heartbeats: int = 0
    closed: bool = False
    #: Every event sent: (monotonic time, name).
    events: list[tuple[float, str]] = field(default_factory=list)
    _deflate: Any = field(default_factory=zlib.compressobj)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, op: int, data: Any, event: str | None = None) -> None:
        async with self._lock:
            frame: dict[str, Any] = {"op": op, "d": data, "s": None, "t": event}
            if op == DISPATCH:
                self.sequence += 1
                frame["s"] = self.sequence
                self.events.append((time.monotonic(), event or ""))
            text = json.dumps(frame)
            if self.compress:
                packed = self._deflate.compress(text.encode()) + self._deflate.flush(zlib.Z_SYNC_FLUSH)
                await self.socket.send_bytes(packed)
            else:
                await self.socket.send_str(text)


class Gateway:
    """Every connection the fake's gateway has had, and the guilds' routing to them."""

    def __init__(self, server: FakeDiscord) -> None:
        self.server = server
        self.connections: list[Connection] = []
        #: What the bots sent that the fake does not take: (op, connection's shard).
        self.unexpected: list[tuple[int, tuple[int, int] | None]] = []
        #: As ``session_start_limit.max_concurrency`` says: identify buckets, and each one's last.
        self.max_concurrency = 16
        self._identified: dict[int, float] = {}
        #: Identifies refused (too soon in their bucket) with an INVALID_SESSION: their shards.
        self.too_soon: list[tuple[int, int]] = []

    def live(self, shard: int, count: int) -> Connection | None:
        """The identified, open connection of ``shard`` of ``count``, the newest if several."""
        found = [c for c in self.connections if c.shard == (shard, count) and not c.closed]
        return found[-1] if found else None

    def for_guild(self, guild_id: int) -> Connection | None:
        counts = {c.shard[1] for c in self.connections if c.shard is not None and not c.closed}
        for count in counts:
            connection = self.live(shard_of(guild_id, count), count)
            if connection is not None:
                return connection
        return None

    async def handle(self, request: web.Request) -> web.StreamResponse:
        socket = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await socket.prepare(request)
        compress = request.query.get("compress") == "zlib-stream"
        connection = Connection(socket, compress, self.server.process_of(request))
        self.connections.append(connection)
        try:
            await connection.send(HELLO, {"heartbeat_interval": HEARTBEAT_MS})
            async for frame in socket:
                if frame.type == WSMsgType.TEXT:
                    await self._receive(connection, json.loads(frame.data))
                elif frame.type == WSMsgType.BINARY:
                    await self._receive(connection, json.loads(zlib.decompress(frame.data)))
                elif frame.type in (WSMsgType.ERROR, WSMsgType.CLOSE):
                    break
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            connection.closed = True
        return socket

    async def _receive(self, connection: Connection, frame: dict[str, Any]) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            connection.heartbeats += 1
            await connection.send(HEARTBEAT_ACK, None)
        elif op == IDENTIFY:
            await self._identify(connection, data or {})
        elif op == RESUME:  # no sessions are kept: start again
            await connection.send(INVALID_SESSION, False)
        elif op in (3, 4, 8):  # presence, voice, member requests: nothing to do
            return
        else:
            self.unexpected.append((int(op or -1), connection.shard))

    async def _identify(self, connection: Connection, data: dict[str, Any]) -> None:
        server = self.server
        if data.get("token") != server.token:
            await connection.socket.close(code=4004, message=b"Authentication failed.")
            return
        shard_id, count = data.get("shard") or [0, 1]
        if not 0 <= shard_id < count:
            await connection.socket.close(code=4010, message=b"Invalid shard.")
            return
        bucket, now = shard_id % self.max_concurrency, time.monotonic()
        if now - self._identified.get(bucket, -IDENTIFY_EVERY) < IDENTIFY_EVERY:
            self.too_soon.append((shard_id, count))
            await connection.send(INVALID_SESSION, False)
            return
        self._identified[bucket] = now
        connection.shard = (shard_id, count)
        guilds = [g for g in server.guilds.values() if shard_of(g.id, count) == shard_id]
        ready = {
            "v": 10,
            "user": server.bot.payload(),
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "session_id": connection.session_id,
            "resume_gateway_url": server.gateway_url,
            "shard": [shard_id, count],
            "application": {"id": str(server.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "user_settings": {},
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
        }
        await connection.send(DISPATCH, ready, "READY")
        for guild in guilds:
            await connection.send(DISPATCH, guild.payload(server.bot), "GUILD_CREATE")
        log.info("shard %s of %s identified (%s)", shard_id, count, connection.process)

    async def dispatch(self, guild_id: int | None, event: str, data: dict[str, Any]) -> Connection:
        """Send ``event`` where Discord would: a guild's to its shard's connection; a DM's to
        shard 0's."""
        if guild_id is None:
            counts = {c.shard[1] for c in self.connections if c.shard is not None and not c.closed}
            connection = next((c for n in counts if (c := self.live(0, n)) is not None), None)
        else:
            connection = self.for_guild(guild_id)
        if connection is None:
            raise LookupError(f"no shard is connected for guild {guild_id}")
        await connection.send(DISPATCH, data, event)
        return connection

    async def close(self) -> None:
        for connection in self.connections:
            if not connection.closed:
                await connection.socket.close()
