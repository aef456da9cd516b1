"""A fake of Discord's server over real HTTP and a real websocket, for real bot processes.

``FakeDiscord`` serves ``/api/v10/...`` (``discord_rest``) and the gateway at ``/gateway/``
(``discord_gateway``) on 127.0.0.1, for one bot (its token and application), with Discord's
rate limits (``discord_buckets``). It keeps the guilds, channels and users a test made,
every message with every version of it, every call (route, process, time, status) and
every interaction with the connection it went to and the process that answered it. The
processes a test starts are named to it (``processes``); a call or a connection is then
known by its process (``discord_peers``).
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

from .discord_buckets import RateLimits, Refusal
from .discord_forms import invalid_form, problems, written
from .discord_gateway import Gateway
from .discord_payloads import (
    EPHEMERAL,
    LOADING,
    Channel,
    Guild,
    Interaction,
    User,
    attachments,
    message,
    snowflake,
    stamp,
)
from .discord_peers import owner_of
from .discord_rest import Rest, read_body

API = "/api/v10"


@dataclass(frozen=True)
class Call:
    """One REST call: when (monotonic), what, from which process, and its status."""

    at: float
    method: str
    path: str
    process: str | None
    status: int


@dataclass
class Request:
    """A REST call as the routes see it."""

    method: str
    path: str
    body: Any
    files: list[str]
    process: str | None


@dataclass
class Version:
    """One state of a message: when (monotonic), what it showed, which process wrote it."""

    at: float
    payload: dict[str, Any]
    process: str | None


@dataclass
class StoredMessage:
    """A message and each of its versions; ``payload`` is the latest."""

    id: int
    channel: Channel
    ephemeral: bool
    #: The interaction whose answer or follow-up it is, if any (its token may edit it).
    token: str | None
    #: Who sees it, for an ephemeral message.
    viewer: int | None
    versions: list[Version] = field(default_factory=list)
    #: When (monotonic) and by which process it was deleted, if it was.
    deleted: float | None = None
    deleted_by: str | None = None

    @property
    def payload(self) -> dict[str, Any]:
        return self.versions[-1].payload

    @property
    def loading(self) -> bool:
        return bool(int(self.payload.get("flags", 0)) & LOADING)


class FakeDiscord:
    def __init__(self, token: str, bot: User, *, shard_count: int = 1) -> None:
        self.token, self.bot, self.application_id = token, bot, bot.id
        self.shard_count = shard_count
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.users: dict[int, User] = {bot.id: bot}
        self.commands: dict[str | None, list[dict[str, Any]]] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.calls: list[Call] = []
        #: Routes no handler knows: (method, path).
        self.unknown: list[tuple[str, str]] = []
        #: Messages refused as Discord refuses them (``discord_forms``): (method, path, why).
        self.invalid: list[tuple[str, str, list[str]]] = []
        self.limits = RateLimits()
        #: The test's processes, pid: name.
        self.processes: dict[int, str] = {}
        #: Set on every answer or write; a test waiting for one clears it first.
        self.answered = asyncio.Event()
        self.gateway = Gateway(self)
        self.rest = Rest(self)
        #: Each connection's process, by its transport (kept, so that its id is not reused).
        self._owners: dict[int, tuple[object, str]] = {}
        self._dms: dict[int, Channel] = {}
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_route("*", "/{tail:.*}", self.handle)
        self.runner = web.AppRunner(app, handle_signals=False)
        self.url = ""

    @property
    def gateway_url(self) -> str:
        return self.url.replace("http", "ws", 1) + "/gateway/"

    @property
    def refused(self) -> list[Refusal]:
        return self.limits.refused

    async def start(self) -> str:
        await self.runner.setup()
        site = web.TCPSite(self.runner, "127.0.0.1", 0)
        await site.start()
        host, port = self.runner.addresses[0][:2]
        self.url = f"http://{host}:{port}"
        return self.url

    async def stop(self) -> None:
        await self.gateway.close()
        await self.runner.cleanup()

    # -- the world a test makes ------------------------------------------------------

    def add_user(self, name: str) -> User:
        user = User(snowflake(), name)
        self.users[user.id] = user
        return user

    def add_guild(self, guild_id: int, name: str, members: list[User], channel: str = "basra") -> Guild:
        guild = Guild(guild_id, name, members=list(members))
        guild.channels.append(Channel(snowflake(), channel, guild_id=guild_id))
        self.guilds[guild_id] = guild
        for made in guild.channels:
            self.channels[made.id] = made
        return guild

    def dm_of(self, user: User) -> Channel:
        if user.id not in self._dms:
            channel = Channel(snowflake(), "", recipient=user)
            self._dms[user.id] = self.channels[channel.id] = channel
        return self._dms[user.id]

    # -- who calls ----------------------------------------------------------------------

    def process_of(self, request: web.Request) -> str | None:
        """The test's process at the other end of ``request``'s connection, if it is one."""
        transport = request.transport
        if transport is None:
            return None
        key = id(transport)
        if key not in self._owners:
            peer = transport.get_extra_info("peername")
            sock = transport.get_extra_info("sockname")
            owner = owner_of(peer[1], sock[1], self.processes) if peer and sock else None
            if owner is None:  # not (yet) known: looked up again on its next request
                return None
            self._owners[key] = (transport, owner)
        return self._owners[key][1]

    async def handle(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        if not path.startswith(API):
            self.unknown.append((request.method, path))
            return self._answer(request, path, 404, {"message": "404: Not Found", "code": 0}, {})
        path = path[len(API) :]
        body, files = await read_body(request)
        call = Request(request.method, path, body, files, self.process_of(request))
        verdict = self.limits.check(request.method, path)
        if verdict.refusal is not None:
            refusal = verdict.refusal
            data = {
                "message": "You are being rate limited.",
                "retry_after": refusal.retry_after,
                "global": refusal.bucket == "global",
            }
            return self._answer(request, path, 429, data, verdict.headers, call.process)
        found = self.rest.find(request.method, path)
        if found is None:
            self.unknown.append((request.method, path))
            return self._answer(request, path, 404, {"message": "404: Not Found", "code": 0}, verdict.headers)
        handler, match = found
        form = written(request.method, path, body)
        if form is not None and (found_problems := problems(form)):
            self.invalid.append((request.method, path, found_problems))
            return self._answer(
                request, path, 400, invalid_form(found_problems), verdict.headers, call.process
            )
        status, data = await handler(call, match)
        return self._answer(request, path, status, data, verdict.headers, call.process)

    def _answer(
        self,
        request: web.Request,
        path: str,
        status: int,
        data: Any,
        headers: dict[str, str],
        process: str | None = None,
    ) -> web.Response:
        self.calls.append(Call(time.monotonic(), request.method, path, process, status))
        if status == 204:
            return web.Response(status=204, headers=headers)
        return web.Response(
            body=json.dumps(data).encode(),
            status=status,
            headers={**headers, "Content-Type": "application/json"},
        )

    # -- messages ---------------------------------------------------------------------

    def post(
        self,
        channel: Channel,
        body: dict[str, Any],
        process: str | None,
        *,
        interaction: Interaction | None = None,
        ephemeral: bool = False,
        loading: bool = False,
        kind: int = 0,
    ) -> StoredMessage:
        """A new message in ``channel``: the bot's, or an interaction's answer or follow-up."""
        message_id, now = snowflake(), time.time()
        flags = (EPHEMERAL if ephemeral else 0) | (LOADING if loading else 0)
        if interaction is not None and kind == 0 and interaction.original is None and interaction.type == 2:
            kind = 20  # a slash command's answer
        payload = message(
            message_id,
            channel.id,
            self.bot,
            body,
            guild_id=channel.guild_id,
            created=now,
            flags=flags,
            kind=kind,
            webhook_id=self.application_id if interaction is not None else None,
            interaction=interaction.metadata() if interaction is not None else None,
        )
        stored = StoredMessage(
            message_id,
            channel,
            ephemeral,
            interaction.token if interaction else None,
            interaction.user.id if interaction is not None and ephemeral else None,
        )
        stored.versions.append(Version(time.monotonic(), payload, process))
        self.messages[message_id] = stored
        return stored

    def edit(self, stored: StoredMessage, body: dict[str, Any], process: str | None) -> None:
        """A new version: the fields the edit gives replace the old ones (``None`` clears)."""
        payload = dict(stored.payload)
        for key in ("content", "embeds", "components"):
            if key in body:
                payload[key] = body[key] if body[key] is not None else ([] if key != "content" else "")
        if "attachments" in body:
            payload["attachments"] = attachments(body["attachments"])
        payload["flags"] = int(payload.get("flags", 0)) & ~LOADING
        payload["edited_timestamp"] = stamp()
        stored.versions.append(Version(time.monotonic(), payload, process))

    def delete(self, stored: StoredMessage, process: str | None) -> None:
        stored.deleted, stored.deleted_by = time.monotonic(), process

    def shown(self, channel: Channel) -> list[StoredMessage]:
        """What everyone in ``channel`` sees now: its public messages not deleted, oldest first."""
        return [
            m
            for m in self.messages.values()
            if m.channel.id == channel.id and not m.ephemeral and m.deleted is None
        ]

    def public(self, channel: Channel | None = None) -> list[StoredMessage]:
        """Every public message ever sent (in ``channel``), deleted ones too."""
        return [
            m
            for m in self.messages.values()
            if not m.ephemeral and (channel is None or m.channel.id == channel.id)
        ]

    # -- interactions ---------------------------------------------------------------------

    def remember(self, interaction: Interaction) -> None:
        """Know the interaction by its id and its token, made now, as Discord does once it
        sends it."""
        self.interactions[interaction.id] = interaction
        self.by_token[interaction.token] = interaction
        interaction.created = time.monotonic()

    async def interact(self, interaction: Interaction) -> None:
        """Send the interaction to the bot as Discord does: over the shard of its guild."""
        self.remember(interaction)
        guild_id = interaction.guild.id if interaction.guild is not None else None
        connection = await self.gateway.dispatch(
            guild_id, "INTERACTION_CREATE", interaction.payload(self.application_id)
        )
        assert connection.shard is not None
        interaction.sent_to = (connection.process, connection.shard[0])
