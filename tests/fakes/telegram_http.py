"""The fake Bot API over real HTTP: the bot's own process (``python -m bots.telegram`` with
``TELEGRAM_API_BASE_URL``) runs against ``FakeTelegram`` as it would against Telegram.

``HttpFront(server)`` listens on 127.0.0.1 (a free port unless given) and
answers ``/bot<token>/<method>`` from the same handlers the in-process
``FakeRequest`` uses, status codes, flood limits and all. People act through
the server object as in any test; their updates wait for the bot's
``getUpdates`` (``send``, ``press``)::

    front = HttpFront(server)
    url = await front.start()
    # TELEGRAM_API_BASE_URL=url python -m bots.telegram
    front.send(alice, group, "/newgame")
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from telegram import Bot
from telegram.error import NetworkError

from .telegram_api import FakeTelegram
from .telegram_models import FakeChat, FakeMessage, FakeUser

#: Form fields python-telegram-bot sends as plain strings (every other value is JSON).
TEXT_FIELDS = frozenset(
    {"text", "caption", "parse_mode", "callback_query_id", "url", "secret_token", "inline_message_id",
     "description", "short_description", "name", "title", "language_code", "emoji"}
)


@dataclass
class _Params:
    """What ``FakeTelegram.handle`` reads of a request: its decoded parameters and its
    uploaded files (as python-telegram-bot's ``RequestData`` gives them)."""

    parameters: dict[str, Any]
    multipart_data: dict[str, tuple[str, bytes, str | None]] = field(default_factory=dict)

    @property
    def contains_files(self) -> bool:
        return bool(self.multipart_data)


def _decoded(key: str, value: str) -> Any:
    if key in TEXT_FIELDS:
        return value
    try:
        return json.loads(value)
    except ValueError:
        return value


class HttpFront:
    def __init__(self, server: FakeTelegram, *, port: int = 0) -> None:
        self.server = server
        self.port = port
        self._runner: web.AppRunner | None = None
        # Updates are built with a bot object (as the library's own de_json wants).
        server.attach(Bot(server.token))

    async def start(self) -> str:
        """Listen; returns the base URL to give the bot (``TELEGRAM_API_BASE_URL``)."""
        app = web.Application()
        app.router.add_route("*", "/{prefix}/{method}", self._call)
        # A bot's long poll still open at the end is not waited for (it would hold ``stop`` 10 s).
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.5)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]  # the port the system gave, when asked for 0
        return f"http://127.0.0.1:{self.port}"

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _call(self, request: web.Request) -> web.Response:
        files: dict[str, tuple[str, bytes, str | None]] = {}
        if request.content_type == "application/json":
            params = await request.json() if request.can_read_body else {}
        else:
            form = await request.post()
            params = {key: _decoded(key, str(value)) for key, value in form.items()
                      if not isinstance(value, web.FileField)}
            files = {key: (value.filename, value.file.read(), value.content_type)
                     for key, value in form.items() if isinstance(value, web.FileField)}
        try:
            status, body = await self.server.handle(request.path, _Params(params, files))  # type: ignore[arg-type]
        except NetworkError:
            raise web.HTTPBadGateway() from None
        return web.Response(status=status, body=body, content_type="application/json")

    # -- people ----------------------------------------------------------------------

    def send(self, user: FakeUser, chat: FakeChat | None, text: str) -> None:
        self.server.queue_update(self.server.user_sends(user, chat, text))

    def press(self, user: FakeUser, message: FakeMessage, button: str) -> None:
        self.server.queue_update(self.server.user_presses(user, message, button))
