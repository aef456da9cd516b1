"""The fake Discord's REST API (``/api/v10/...``): what the Basra bot calls, answered as
Discord answers it.

Logging in, syncing application commands, ``/gateway/bot``; interaction callbacks (types
1, 4, 5, 6, 7, 9) and the token's webhook (follow-ups, ``@original`` and follow-ups read,
edited, deleted); channel messages sent, edited, deleted, read; DMs opened. Errors as
Discord's: 404 code 10008 for an unknown or deleted message, 10062 for an interaction not
answered within 3 s, 40060 for one answered twice, 10015 for a webhook of no answered
interaction, 401 code 50027 for a token past its 15 minutes, 403 code 50007 for a DM to
someone who takes none. Any other route is a 404
with JSON, kept in ``FakeDiscord.unknown``.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .discord_payloads import EPHEMERAL, Interaction, snowflake

if TYPE_CHECKING:
    from .discord_server import FakeDiscord, Request, StoredMessage

Answer = tuple[int, Any]
Handler = Callable[["Request", re.Match[str]], Awaitable[Answer]]

#: An interaction must be answered this soon, as Discord wants; its token works this long.
ANSWER_WITHIN = 3.0
TOKEN_LIFE = 15 * 60.0


def error(status: int, code: int, message: str) -> Answer:
    return status, {"message": message, "code": code}


UNKNOWN_MESSAGE = error(404, 10008, "Unknown Message")
UNKNOWN_CHANNEL = error(404, 10003, "Unknown Channel")
UNKNOWN_WEBHOOK = error(404, 10015, "Unknown Webhook")
UNKNOWN_INTERACTION = error(404, 10062, "Unknown interaction")
ALREADY_ANSWERED = error(400, 40060, "Interaction has already been acknowledged.")
NO_DMS = error(403, 50007, "Cannot send messages to this user")
EXPIRED_TOKEN = error(401, 50027, "Invalid Webhook Token")


class Rest:
    """The routes, each a regex over the path after ``/api/v10`` and its method."""

    def __init__(self, server: FakeDiscord) -> None:
        self.server = server
        app = server.application_id
        self.routes: list[tuple[str, re.Pattern[str], Handler]] = [
            (method, re.compile(f"^{pattern}$"), handler)
            for method, pattern, handler in [
                ("GET", r"/users/@me", self.me),
                ("GET", r"/oauth2/applications/@me", self.application),
                ("GET", r"/gateway/bot", self.gateway_bot),
                ("GET", r"/gateway", self.gateway),
                ("PUT", rf"/applications/{app}/commands", self.put_commands),
                ("PUT", rf"/applications/{app}/guilds/(\d+)/commands", self.put_commands),
                ("GET", rf"/applications/{app}/commands", self.get_commands),
                ("GET", rf"/applications/{app}/guilds/(\d+)/commands", self.get_commands),
                ("POST", r"/interactions/(\d+)/([^/]+)/callback", self.callback),
                ("POST", rf"/webhooks/{app}/([^/]+)", self.followup),
                ("GET", rf"/webhooks/{app}/([^/]+)/messages/(@original|\d+)", self.webhook_message),
                ("PATCH", rf"/webhooks/{app}/([^/]+)/messages/(@original|\d+)", self.webhook_message),
                ("DELETE", rf"/webhooks/{app}/([^/]+)/messages/(@original|\d+)", self.webhook_message),
                ("POST", r"/channels/(\d+)/messages", self.send),
                ("GET", r"/channels/(\d+)/messages/(\d+)", self.channel_message),
                ("PATCH", r"/channels/(\d+)/messages/(\d+)", self.channel_message),
                ("DELETE", r"/channels/(\d+)/messages/(\d+)", self.channel_message),
                ("GET", r"/channels/(\d+)", self.channel),
                ("POST", r"/users/@me/channels", self.open_dm),
                ("GET", r"/users/(\d+)", self.user),
            ]
        ]

    def find(self, method: str, path: str) -> tuple[Handler, re.Match[str]] | None:
        for verb, pattern, handler in self.routes:
            match = pattern.match(path)
            if verb == method and match is not None:
                return handler, match
        return None

    # -- logging in, commands, the gateway ------------------------------------------

    async def me(self, request: Request, match: re.Match[str]) -> Answer:
        return 200, self.server.bot.payload()

    async def application(self, request: Request, match: re.Match[str]) -> Answer:
        bot = self.server.bot.payload()
        return 200, {
            "id": str(self.server.application_id),
            "name": bot["username"],
            "icon": None,
            "description": "",
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": 0,
            "owner": bot,
            "bot": bot,
        }

    async def gateway(self, request: Request, match: re.Match[str]) -> Answer:
        return 200, {"url": self.server.gateway_url}

    async def gateway_bot(self, request: Request, match: re.Match[str]) -> Answer:
        return 200, {
            "url": self.server.gateway_url,
            "shards": self.server.shard_count,
            "session_start_limit": {
                "total": 1000,
                "remaining": 999,
                "reset_after": 86400000,
                "max_concurrency": self.server.gateway.max_concurrency,
            },
        }

    async def put_commands(self, request: Request, match: re.Match[str]) -> Answer:
        guild = match.group(1) if match.groups() else None
        synced = []
        for command in request.body or []:
            synced.append(
                {
                    **command,
                    "id": str(snowflake()),
                    "application_id": str(self.server.application_id),
                    "version": str(snowflake()),
                    "guild_id": guild,
                    "type": command.get("type", 1),
                }
            )
        self.server.commands[guild] = synced
        return 200, synced

    async def get_commands(self, request: Request, match: re.Match[str]) -> Answer:
        return 200, self.server.commands.get(match.group(1) if match.groups() else None, [])

    # -- interactions ------------------------------------------------------------------

    async def callback(self, request: Request, match: re.Match[str]) -> Answer:
        server = self.server
        interaction = server.interactions.get(int(match.group(1)))
        if interaction is None or interaction.token != match.group(2):
            return UNKNOWN_INTERACTION
        if interaction.callback is not None:
            return ALREADY_ANSWERED
        if time.monotonic() - interaction.created > ANSWER_WITHIN:
            return UNKNOWN_INTERACTION
        body = request.body or {}
        kind, data = int(body.get("type", 0)), body.get("data") or {}
        interaction.callback, interaction.answered_by = kind, request.process
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        resource: dict[str, Any] = {"type": kind}
        if kind == 4:
            stored = server.post(
                interaction.channel, data, request.process, interaction=interaction, ephemeral=ephemeral
            )
            interaction.original = stored.id
            resource["message"] = stored.payload
        elif kind == 5:
            stored = server.post(
                interaction.channel,
                {},
                request.process,
                interaction=interaction,
                ephemeral=ephemeral,
                loading=True,
            )
            interaction.original = stored.id
        elif kind in (6, 7):
            if interaction.message is None:
                interaction.callback = None
                return error(400, 40004, "Interaction response type is not valid here")
            stored = server.messages[int(interaction.message["id"])]
            interaction.original = stored.id
            if kind == 7:
                server.edit(stored, data, request.process)
                resource["message"] = stored.payload
        elif kind not in (1, 9):
            interaction.callback = None
            return error(400, 50035, f"Invalid interaction response type {kind}")
        server.answered.set()
        original = server.messages.get(interaction.original or 0)
        return 200, {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_id": str(interaction.original) if interaction.original else None,
                "response_message_loading": kind == 5,
                "response_message_ephemeral": bool(original and original.ephemeral),
            },
            "resource": resource,
        }

    def _answered(self, token: str) -> Interaction | Answer:
        """The answered interaction whose token it is, or Discord's refusal: an unknown
        webhook (no such token, or not answered yet), or a token past its 15 minutes."""
        interaction = self.server.by_token.get(token)
        if interaction is None or interaction.callback is None:
            return UNKNOWN_WEBHOOK
        if time.monotonic() - interaction.created > TOKEN_LIFE:
            return EXPIRED_TOKEN
        return interaction

    async def followup(self, request: Request, match: re.Match[str]) -> Answer:
        server = self.server
        interaction = self._answered(match.group(1))
        if not isinstance(interaction, Interaction):
            return interaction
        data = request.body or {}
        original = server.messages.get(interaction.original or 0)
        if original is not None and original.loading and interaction.callback == 5:
            # The first follow-up after a deferral is the answer itself, as Discord has it.
            server.edit(original, data, request.process)
            return 200, original.payload
        ephemeral = bool(int(data.get("flags") or 0) & EPHEMERAL)
        stored = server.post(
            interaction.channel, data, request.process, interaction=interaction, ephemeral=ephemeral, kind=0
        )
        server.answered.set()
        return 200, stored.payload

    async def webhook_message(self, request: Request, match: re.Match[str]) -> Answer:
        server = self.server
        interaction = self._answered(match.group(1))
        if not isinstance(interaction, Interaction):
            return interaction
        which = match.group(2)
        message_id = interaction.original if which == "@original" else int(which)
        stored = server.messages.get(message_id or 0)
        if stored is None or stored.deleted is not None:
            return UNKNOWN_MESSAGE
        if which != "@original" and stored.token != interaction.token:
            return UNKNOWN_MESSAGE
        return self._on_message(request, stored)

    def _on_message(self, request: Request, stored: StoredMessage) -> Answer:
        """Read, delete or edit a message found for the request (``GET``, ``DELETE``, else an
        edit)."""
        if request.method == "GET":
            return 200, stored.payload
        if request.method == "DELETE":
            self.server.delete(stored, request.process)
            return 204, None
        self.server.edit(stored, request.body or {}, request.process)
        self.server.answered.set()
        return 200, stored.payload

    # -- channels, messages, DMs ----------------------------------------------------------

    async def send(self, request: Request, match: re.Match[str]) -> Answer:
        server = self.server
        channel = server.channels.get(int(match.group(1)))
        if channel is None:
            return UNKNOWN_CHANNEL
        if channel.recipient is not None and not channel.recipient.takes_dms:
            return NO_DMS
        stored = server.post(channel, request.body or {}, request.process)
        server.answered.set()
        return 200, stored.payload

    async def channel_message(self, request: Request, match: re.Match[str]) -> Answer:
        server = self.server
        if int(match.group(1)) not in server.channels:
            return UNKNOWN_CHANNEL
        stored = server.messages.get(int(match.group(2)))
        if (
            stored is None
            or stored.deleted is not None
            or stored.ephemeral
            or stored.channel.id != int(match.group(1))
        ):
            return UNKNOWN_MESSAGE
        return self._on_message(request, stored)

    async def channel(self, request: Request, match: re.Match[str]) -> Answer:
        channel = self.server.channels.get(int(match.group(1)))
        return (200, channel.payload()) if channel is not None else UNKNOWN_CHANNEL

    async def open_dm(self, request: Request, match: re.Match[str]) -> Answer:
        recipient = (request.body or {}).get("recipient_id")
        user = self.server.users.get(int(recipient or 0))
        if user is None:
            return error(404, 10013, "Unknown User")
        return 200, self.server.dm_of(user).payload()

    async def user(self, request: Request, match: re.Match[str]) -> Answer:
        user = self.server.users.get(int(match.group(1)))
        return (200, user.payload()) if user is not None else error(404, 10013, "Unknown User")


async def read_body(request: web.Request) -> tuple[Any, list[str]]:
    """The JSON a call sent (a multipart call's ``payload_json``), and its files' names."""
    if request.content_type.startswith("multipart/"):
        form = await request.post()
        files = [getattr(value, "filename", "") for key, value in form.items() if key.startswith("files[")]
        raw = form.get("payload_json")
        return (json.loads(raw) if isinstance(raw, str) else None), files
    text = await request.text()
    return (json.loads(text) if text else None), []
