"""The web table's HTTP side (aiohttp, inside the bot's own process).

- ``GET /play``: the seat's page. Telegram opens it as a Mini App
  (``/play?t=<table>``, ``initData`` from ``telegram-web-app.js``); a Discord
  hand links to ``/play#d=<token>`` (a fragment: it never reaches a server log
  or a ``Referer``).
- ``GET /watch#w=<token>``: the public table, read only.
- ``GET /start``: the start page, a Mini App without a table (``start``): the
  person's name and rating, and playing someone online. A Discord person's link to it is
  ``/start#d=<token>`` (``auth.Gate.start_link``), a fragment as a hand's.
- ``GET /static/...``: the pages' scripts, style and nothing else; all of it
  from this package.
- ``POST /api/login``: ``{"telegram": initData, "table": id}``,
  ``{"discord": token}`` or ``{"watch": token}`` → ``{"session", "table"}``;
  ``{"telegram": initData, "start": true}`` or ``{"discord": token, "start": true}`` →
  ``{"session", "start": true}``, a start page's session; 401 for what is not genuine or
  too old, 403 for a replay or someone else's seat (``auth``). Each refusal is logged with
  its reason, never with what was sent.
- ``GET /ws``: the live page. Its first message is ``{"session": token}``;
  then the server sends frames (``frames``) and the page sends
  ``{"op": "play", "card", "plan", "version"}``, which goes through
  ``TableService.play`` exactly as a button press does (seat, turn, version).
  A start page's first message is ``{"start": token}`` instead; it is sent start
  frames and sends ``{"op": "join", "mode"}``, ``{"op": "cancel"}``, ``{"op": "wait"}``,
  ``{"op": "computer"}`` or ``{"op": "open", "table"}`` (``StartPages.act``).
  A refused session closes the socket with code 4401 or 4403; a frame that is too big,
  binary, not JSON or nested too deep closes it too, with one line in the log (``inbound``).
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from importlib.resources import files
from typing import Any, Final

from aiohttp import web

from ..i18n import SUPPORTED, translator
from ..listening import serve
from ..service import Person, ServiceError, TableService, chat_id, platform_of, raw_id
from ..service.errors import MatchOver
from .auth import Gate, Login, Refused, StartSession
from .frames import error_frame, page_texts
from .hub import Page, WebHub
from .inbound import MAX_MESSAGE, Unreadable, parse_body, read
from .start import StartPages

log = logging.getLogger(__name__)

STATIC: Final = {"table.js": "text/javascript", "table.css": "text/css", "cards.js": "text/javascript",
                 "page.js": "text/javascript", "start.js": "text/javascript", "start.css": "text/css"}
#: How long a new socket may take to say which session it is.
HELLO_SECONDS: Final = 10.0


class WebUnavailable(Exception):
    """The web table's port cannot be listened on."""


def _asset(name: str) -> str:
    return files(__package__).joinpath("static", name).read_text(encoding="utf-8")


class WebServer:
    """The page, its login and its socket on ``host:port`` (0: any free port, see ``port``)."""

    def __init__(self, gate: Gate, hub: WebHub, *, host: str = "127.0.0.1", port: int = 0,
                 language: str = "ar") -> None:
        self.gate = gate
        self.hub = hub
        self.host = host
        self.port = port
        self.language = language
        self._runner: web.AppRunner | None = None
        self._static = {name: _asset(name).encode() for name in STATIC}
        self._page = _asset("table.html")
        self._start_page = _asset("start.html")
        #: The start pages connected now (``start``).
        self.starts = StartPages(gate, hub)
        self._sockets: set[web.WebSocketResponse] = set()
        #: True the first time any process of the bot is shown a login's ``once`` key, before
        #: or after a restart (``TableService.once``); None: this process's memory alone (``Gate``).
        self.once: Callable[[str, float], Awaitable[bool]] | None = None

    @property
    def service(self) -> TableService:
        return self.hub.service

    def app(self) -> web.Application:
        app = web.Application(client_max_size=16 * 1024)
        app.router.add_get("/play", self._play)
        app.router.add_get("/watch", self._watch)
        app.router.add_get("/start", self._start)
        app.router.add_get("/static/{name}", self._asset)
        app.router.add_post("/api/login", self._login)
        app.router.add_get("/ws", self._socket)
        return app

    async def start(self) -> None:
        # No access log: the page's addresses name tables, and nobody needs each request logged.
        runner = await serve(self.app(), self.host, self.port, WebUnavailable, "the web table")
        self._runner = runner
        self.port = int(runner.addresses[0][1])
        log.info("web table on http://%s:%d/play", self.host, self.port)

    async def close(self) -> None:
        for socket in list(self._sockets):
            await socket.close()
        await self.starts.stop()
        await self.hub.stop()
        if self._runner is not None:
            runner, self._runner = self._runner, None
            await runner.cleanup()

    # -- the page -------------------------------------------------------------------------

    def _html(self, mode: str, page: str | None = None) -> web.Response:
        t = translator(self.language)
        texts = page_texts(t)
        body = ((page or self._page).replace("{{lang}}", t.lang).replace("{{dir}}", "rtl" if t.rtl else "ltr")
                .replace("{{mode}}", mode).replace("{{title}}", texts["title"]))
        return web.Response(text=body, content_type="text/html", headers={
            "Cache-Control": "no-store",
            "Referrer-Policy": "no-referrer",
            "X-Content-Type-Options": "nosniff",
            "Content-Security-Policy": "default-src 'self'; script-src 'self' https://telegram.org; "
                                       "img-src 'self' data:; style-src 'self'; connect-src 'self'",
        })

    async def _play(self, request: web.Request) -> web.Response:
        return self._html("play")

    async def _watch(self, request: web.Request) -> web.Response:
        return self._html("watch")

    async def _start(self, request: web.Request) -> web.Response:
        return self._html("start", self._start_page)

    async def _asset(self, request: web.Request) -> web.Response:
        name = request.match_info["name"]
        if name not in self._static:
            raise web.HTTPNotFound()
        return web.Response(body=self._static[name], content_type=STATIC[name],
                            headers={"Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"})

    # -- logging in ------------------------------------------------------------------------

    async def _login(self, request: web.Request) -> web.Response:
        try:
            body = parse_body(await request.text())
        except UnicodeDecodeError:
            body = None
        if not isinstance(body, dict):
            return self._refused(request, Refused(401, "not a login"), None)
        lang = None
        start = body.get("start") is True
        try:
            if start and ("telegram" in body or "discord" in body):
                login = (self.gate.telegram(body.get("telegram")) if "telegram" in body
                         else self.gate.discord_start(body.get("discord")))
                lang = login.language
                return web.json_response({"session": await self._begin(login), "start": True})
            if "telegram" in body:
                login = self.gate.telegram(body.get("telegram"))
                lang = login.language
                table_id = body.get("table")
                if not isinstance(table_id, str) or not table_id or len(table_id) > 40:
                    raise Refused(403, "no table named")
                session = await self._seat(login, table_id)
            elif "discord" in body:
                login = self.gate.discord(body.get("discord"))
                lang = login.language
                table_id = login.table_id or ""
                session = await self._seat(login, table_id)
            elif "watch" in body:
                table_id = self.gate.watch(body.get("watch"))
                table = await self.service.table(table_id)
                lang = await self.service.language(table.chat_id)
                session = self.gate.session(None, table_id, lang)
            else:
                raise Refused(401, "not a login")
        except Refused as refused:
            return self._refused(request, refused, lang or refused.lang, start=start)
        except ServiceError as error:
            return self._refused(request, Refused(403, type(error).__name__), lang, error, start=start)
        return web.json_response({"session": session, "table": table_id})

    async def _begin(self, login: Login) -> str:
        """A start page's session: the Telegram person, their name, their private chat with
        the bot (whose id is theirs), in the language they chose or their app reports; or the
        Discord person a start link names, their display name and DM as the Discord side
        tells them (``StartPeople``; their language is the one they chose, or the default,
        as for ``/basra play``: Discord reports none)."""
        if self.once is not None and login.once[0] and not await self.once(*login.once):
            raise Refused(403, "this login was used already")  # by another process
        user = raw_id(login.player_id)
        platform = platform_of(login.player_id)
        if platform == "tg":
            person = Person(login.player_id, (login.name or user)[:64], login.language)
            chat = chat_id("tg", user)
        else:
            people = self.starts.people.get(platform)
            found = await people.start_person(login.player_id) if people is not None else None
            if found is None:
                raise Refused(401, "the person or their private chat not found")
            person, chat = Person(login.player_id, (found[0] or user)[:64]), found[1]
        await self.service.language(None, person)  # their app's language, noted as the chat notes it
        return self.gate.start_session(person.player_id, person.name, chat, person.language)

    async def _seat(self, login: Login, table_id: str) -> str:
        """A session for the login's own seat at the table (NotSeated: not theirs)."""
        if self.once is not None and login.once[0] and not await self.once(*login.once):
            raise Refused(403, "this login was used already")  # by another process
        try:
            hand = await self.service.hand(table_id, login.player_id)
        except MatchOver as over:
            if over.fresh is None:
                raise
            hand = over.fresh  # type: ignore[assignment]
        person = Person(login.player_id, login.name or self._seat_name(hand, login.player_id), login.language)
        lang = await self.service.language(hand.table.chat_id, person) if login.language else None
        return self.gate.session(login.player_id, table_id, lang or login.language)

    @staticmethod
    def _seat_name(hand: Any, player_id: str) -> str:
        seat = hand.table.seat_of(player_id)
        return str(seat.name) if seat is not None and seat.name else "?"

    def _refused(self, request: web.Request, refused: Refused, lang: str | None,
                 error: ServiceError | None = None, *, start: bool = False) -> web.Response:
        log.warning("web login refused (%d: %s) from %s", refused.status, refused.reason, request.remote)
        t = translator(lang if lang in SUPPORTED else self.language)
        if error is not None:
            text = error.message(t)
        elif start and refused.status == 403:
            # TRANSLATORS: the start page's login was refused: it was used already.
            text = t.gettext("This page was opened already. Open it again from the bot's chat.")
        elif start:
            text = t.gettext("This page is not valid any more. Open it again from the bot's chat.")
        elif refused.status == 403:
            # TRANSLATORS: the web page's login was refused: its link or login was used already.
            text = t.gettext("This link was used already. Open the table again from your hand.")
        else:
            # TRANSLATORS: the web page's login was refused: not genuine, or too old.
            text = t.gettext("This link is not valid any more. Open the table again from your hand.")
        return web.json_response({"error": text}, status=refused.status)

    # -- the live page -----------------------------------------------------------------------

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        socket = web.WebSocketResponse(heartbeat=25.0, max_msg_size=MAX_MESSAGE)
        await socket.prepare(request)
        self._sockets.add(socket)
        page: Page | None = None
        try:
            try:
                hello = read(await socket.receive(timeout=HELLO_SECONDS), socket.close_code)
                if hello is None:
                    return socket  # closed before it said anything
                start = self.gate.check_start(hello.get("start")) if "start" in hello else None
                session = self.gate.check_session(hello.get("session")) if start is None else None
            except Unreadable as unreadable:
                await self._unreadable(request, socket, unreadable)
                return socket
            except (TimeoutError, Refused) as why:
                refused = why if isinstance(why, Refused) else Refused(401, "no session")
                log.warning("web socket refused (%d: %s) from %s", refused.status, refused.reason,
                            request.remote)
                await socket.close(code=4000 + refused.status)
                return socket
            if start is not None:
                await self._start_socket(request, socket, start)
                return socket
            assert session is not None

            async def send(text: str) -> None:
                await socket.send_str(text)

            page = Page(session.table_id, session.player_id, send, session.lang or self.language)
            self.hub.open(page)
            while True:
                try:
                    message = read(await socket.receive(), socket.close_code)
                except Unreadable as unreadable:
                    await self._unreadable(request, socket, unreadable)
                    break
                if message is None:
                    break
                await self._act(page, message)
        finally:
            if page is not None:
                await self.hub.close(page)
            self._sockets.discard(socket)
        return socket

    async def _start_socket(self, request: web.Request, socket: web.WebSocketResponse,
                            session: StartSession) -> None:
        """A start page's socket: its frames, and the presses it sends (``StartPages``)."""

        async def send(text: str) -> None:
            await socket.send_str(text)

        page = self.starts.open(session, send)
        try:
            while True:
                try:
                    message = read(await socket.receive(), socket.close_code)
                except Unreadable as unreadable:
                    await self._unreadable(request, socket, unreadable)
                    return
                if message is None:
                    return
                await self.starts.act(page, message)
        finally:
            await self.starts.close(page)

    @staticmethod
    async def _unreadable(request: web.Request, socket: web.WebSocketResponse,
                          unreadable: Unreadable) -> None:
        """One line for a frame refused (never the frame), and the socket closed."""
        log.warning("web socket closed (%d): %s from %s", unreadable.code, unreadable.reason, request.remote)
        if not socket.closed:
            await socket.close(code=unreadable.code)

    async def _act(self, page: Page, message: dict[str, Any]) -> None:
        """A page's play: the same call, and the same checks, as a button press."""
        if message.get("op") != "play" or page.player_id is None:
            return
        card, plan, version = message.get("card"), message.get("plan"), message.get("version")
        t = translator(self.hub.language(page.player_id, page.table_id, page.lang))
        if not isinstance(card, str) or len(card) > 3 or not isinstance(version, int) or \
                not (plan is None or (isinstance(plan, int) and not isinstance(plan, bool))):
            return
        try:
            await self.service.play(page.table_id, page.player_id, version, card, plan)
        except ServiceError as error:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await page.send(json.dumps(error_frame(error.message(t)), ensure_ascii=False))
            page.shown = ""
            page.woken.set()
