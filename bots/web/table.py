"""The web table as the bots use it: one object to tee notices, serve pages and make links."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from storage import StorageError

from ..service import (
    Clock,
    HandView,
    Notice,
    Platform,
    PoolNotice,
    PoolPlatform,
    TableService,
    Undelivered,
    pairs_here,
)
from .auth import Gate, derived_secret
from .hub import WebHub
from .server import WebServer
from .start import PoolChat, StartPages, StartPeople

if TYPE_CHECKING:
    from ..settings import BasraSettings

log = logging.getLogger(__name__)


class TeedPlatform:
    """A chat platform whose notices the web pages hear too: the chat's first (its
    ``deliver`` only queues), then the pages are woken (which never waits)."""

    def __init__(self, inner: Platform, hub: WebHub) -> None:
        self.inner = inner
        self.hub = hub
        #: Made once the inner platform knows which bot it is (before the service).
        self.name = inner.name
        self.owner = inner.owner

    async def deliver(self, notices: Sequence[Notice]) -> None:
        try:
            await self.inner.deliver(notices)
        finally:
            self.hub.notify(notices)

    def undelivered(self) -> Collection[str] | None:
        """What the chat platform still has to send (the pages are told at once)."""
        return self.inner.undelivered() if isinstance(self.inner, Undelivered) else None


class TeedPoolPlatform(TeedPlatform):
    """A teed platform whose people may wait in the pairing pool: what the pool tells them
    goes to the chat platform first (their waiting messages), then wakes their start pages
    (``StartPages.told``, which never waits)."""

    def __init__(self, inner: PoolPlatform, hub: WebHub, starts: StartPages | None = None) -> None:
        super().__init__(inner, hub)
        self.pool = inner
        self.starts = starts

    @property
    def pairs(self) -> bool:
        """Whether this process pairs the chat platform's people (``pairs_here``)."""
        return pairs_here(self.pool)

    async def tell_pool(self, notices: Sequence[PoolNotice]) -> None:
        try:
            await self.pool.tell_pool(notices)
        finally:
            if self.starts is not None:
                self.starts.told(notices)


class WebTable:
    """``url`` is the public ``https`` address (``BASRA_WEB_URL``), ``port`` and ``host``
    where this process listens (``BASRA_WEB_PORT``, ``BASRA_WEB_HOST``)."""

    def __init__(self, url: str, *, secret: bytes, bot_token: str | None = None, port: int = 0,
                 host: str = "127.0.0.1", max_age: float = 600.0, language: str = "ar",
                 clock: Callable[[], float] = time.time) -> None:
        self.url = url.rstrip("/")
        self.gate = Gate(secret, bot_token=bot_token, max_age=max_age, clock=clock)
        self.hub = WebHub(clock)
        self.server = WebServer(self.gate, self.hub, host=host, port=port, language=language)
        self._listening: contextlib.AsyncExitStack | None = None

    @classmethod
    def from_settings(cls, settings: BasraSettings, bot_token: str, *, telegram: bool) -> WebTable | None:
        """The web table the settings ask for (both ``BASRA_WEB_URL`` and ``BASRA_WEB_PORT``),
        else None. ``telegram``: Mini App logins are checked with ``bot_token``."""
        if settings.web_url is None or settings.web_port is None:
            return None
        secret = (settings.web_secret.get_secret_value().encode() if settings.web_secret is not None
                  else derived_secret(bot_token))
        return cls(settings.web_url, secret=secret, bot_token=bot_token if telegram else None,
                   port=settings.web_port, host=settings.web_host, max_age=settings.web_login_seconds,
                   language=settings.language)

    def platform(self, inner: Platform) -> TeedPlatform:
        if isinstance(inner, PoolPlatform):
            return TeedPoolPlatform(inner, self.hub, self.server.starts)
        return TeedPlatform(inner, self.hub)

    def connect(self, service: TableService, clock: Clock | None = None) -> None:
        """Serve ``service``'s tables; ``clock`` is the service's, when it is not the system's
        (the page counts turn clocks down from its readings)."""
        self.hub.connect(service)
        if clock is not None:
            self.hub.now = clock.now

    async def start(self) -> None:
        await self.server.start()
        self.server.once = self.hub.service.once  # a login is good once in every process
        # What the bot's other processes commit (a shared database) wakes the pages too.
        listening = contextlib.AsyncExitStack()
        try:
            await listening.enter_async_context(self.hub.service.changes(self.hub.changed))
        except StorageError as error:
            log.warning("web pages will show only this process's changes at once: %s", error)
        self._listening = listening

    async def close(self) -> None:
        if self._listening is not None:
            await self._listening.aclose()
            self._listening = None
        await self.server.close()

    def pool_chat(self, platform: str, chat: PoolChat, people: StartPeople | None = None) -> None:
        """The chat side of ``platform``'s searches begun or changed on the start page: the
        waiting message in the person's chat follows them (``start.PoolChat``). ``people``:
        who a start link's person is, for a platform whose links name nobody else
        (``start.StartPeople``: Discord's)."""
        self.server.starts.chats[platform] = chat
        if people is not None:
            self.server.starts.people[platform] = people

    # -- links ----------------------------------------------------------------------------

    def mini_app_url(self, table_id: str) -> str:
        """The Telegram hand's Mini App address (``initData`` proves who opens it)."""
        return f"{self.url}/play?t={table_id}"

    def start_url(self) -> str:
        """The start page's Mini App address, for the bot's private-chat welcome (``initData``
        proves who opens it)."""
        return f"{self.url}/start"

    def hand_url(self, hand: HandView, lang: str) -> str:
        """A Discord hand's link: signed for this player and table, one use, expiring."""
        return f"{self.url}/play#d={self.gate.hand_link(hand.player_id, hand.table_id, lang)}"

    def discord_start_url(self, player_id: str, lang: str) -> str:
        """A Discord person's link to the start page: signed for them, one use, expiring, with
        nothing in it but what a hand's link holds (no table)."""
        return f"{self.url}/start#d={self.gate.start_link(player_id, lang)}"

    def watch_url(self, table_id: str) -> str:
        """The public table's live page, for anyone in the chat."""
        return f"{self.url}/watch#w={self.gate.watch_link(table_id)}"
