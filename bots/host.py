"""What every bot process runs, started and stopped once: the store, the table service, the
web table and the health and metrics server. An adapter supplies its platform (what
delivers notices to its chats) and its outbound writes; the host does the rest, in the
same order for Telegram and Discord.

Starting: the metrics are served first (health says "not running", or "standby" while
the process waits to lead its bot), then the store opens, the adapter's message
references are kept in it, the process takes the lead of its bot if it must
(``Store.leadership``), the service is made, the web table connected and served, and
the service started (clocks re-armed, tables drawn again after a stop that did not
deliver everything).

Stopping, the other way round: the web table stops, the service's clocks stop (nothing
more is committed, nor delivered), the adapter sends what is left within a grace, the
service notes whether everything went (``TableService.close(delivered=...)``), the lead
is let go, the store closes, and the metrics last.

One host may serve several platforms (``Host(platforms=2)``: Telegram and Discord in one
process, ``python -m bots``), so that one service pairs their people in one pool and a
match between a Telegram person and a Discord person is one table. Each adapter starts
and stops as it would alone: the metrics are served and the store opened by the first,
the service is made once every adapter has come to ``start`` (each waits for it), and
everything closes once the last has sent what it had left.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import KW_ONLY, dataclass, field
from pathlib import Path

from core import Match, Rules
from storage import Lead, Store, open_store

from .metrics import Metrics, MetricsServer
from .outbound.refs import MessageRefs
from .service import Clock, Platform, ServiceConfig, TableService
from .web import WebTable

log = logging.getLogger(__name__)


class Hosted:
    """A bot that runs in a ``Host`` (``host``, set when it starts): its service and store."""

    host: Host | None

    @property
    def service(self) -> TableService:
        if self.host is None or self.host.service is None:
            raise RuntimeError(f"{type(self).__name__} has not started")
        return self.host.service

    @property
    def store(self) -> Store | None:
        return self.host.store if self.host is not None else None


@dataclass(eq=False)
class Host:
    """The store, the service, the web table and the metrics of one bot process."""

    database: str | Path
    _: KW_ONLY
    config: ServiceConfig
    metrics: Metrics
    metrics_server: MetricsServer | None = None
    clock: Clock | None = None
    rng: random.Random | None = None
    web: WebTable | None = None
    match_factory: Callable[[int, Rules], Match] | None = None
    #: How many adapters share this host; the service is made when all have come.
    platforms: int = 1
    store: Store | None = field(default=None, init=False)
    service: TableService | None = field(default=None, init=False)
    #: This process's lead of its bot, when it leads (``start(lead=...)``).
    lead: Lead | None = field(default=None, init=False)
    _leading: contextlib.AsyncExitStack = field(default_factory=contextlib.AsyncExitStack, init=False)
    #: The adapters come to ``start`` so far: each one's platform, alone, and connect.
    _come: list[tuple[Platform, bool, Callable[[TableService], None]]] = field(
        default_factory=list, init=False
    )
    _made: asyncio.Event = field(default_factory=asyncio.Event, init=False)
    #: Held while the store opens: adapters start side by side, and the second to come waits
    #: for the first's store (a second store on the file would be refused its lock).
    _opening: asyncio.Lock = field(default_factory=asyncio.Lock, init=False)
    _serving: bool = field(default=False, init=False)
    #: Whether each adapter that stopped sent everything it had.
    _sent: list[bool] = field(default_factory=list, init=False)
    _closed: bool = field(default=False, init=False)

    async def serve_metrics(self) -> None:
        """Health and metrics first: they answer while the rest starts (once per host)."""
        if self.metrics_server is not None and not self._serving:
            self._serving = True
            await self.metrics_server.start()

    async def open_store(self, refs: MessageRefs) -> Store:
        """The database, opened (and migrated), with the adapter's message references kept
        in it. With web pages, the other processes' pages must hear of this one's plays.
        The adapters of one host share the store the first opened."""
        async with self._opening:
            if self.store is None:
                store = open_store(self.database, exclusive=True, announce=self.web is not None)
                await store.open()
                self.store = store
        refs.attach(self.store)
        return self.store

    async def take_lead(self, owner: str) -> Lead:
        """Wait until this process leads the bot ``owner`` among every process on the
        database (``standby`` meanwhile), and hold it until ``stop``."""
        assert self.store is not None
        self.metrics.standby = True
        try:
            self.lead = await self._leading.enter_async_context(self.store.leadership(owner))
        finally:
            self.metrics.standby = False
        if self.lead.waited:
            log.info("this process now leads the bot %s", owner)
        return self.lead

    async def start(
        self, platform: Platform, *, alone: bool, connect: Callable[[TableService], None]
    ) -> TableService:
        """Make the service for ``platform`` (teed to the web table's pages when served),
        hand it to the adapter (``connect``, before anything is delivered), serve the web
        table and start the service. ``alone``: no other process acts on the platform's
        tables (this one leads its bot). On a host of several platforms, the service is made
        for all of them once the last adapter comes, and each waits for it here."""
        assert self.store is not None
        self._come.append((platform, alone, connect))
        if len(self._come) < self.platforms:
            await self._made.wait()
            assert self.service is not None
            return self.service
        delivered_to = [self.web.platform(p) if self.web is not None else p for p, _, _ in self._come]
        self.service = TableService(
            self.store, delivered_to, clock=self.clock, config=self.config, rng=self.rng,
            match_factory=self.match_factory, alone=all(a for _, a, _ in self._come),
        )
        for _, _, connected in self._come:
            connected(self.service)
        if self.web is not None:
            self.web.connect(self.service, self.clock)
            await self.web.start()
        self.metrics.service = self.service
        await self.service.start()
        self._made.set()
        return self.service

    async def stop(self, send_what_is_left: Callable[[], Awaitable[bool]]) -> None:
        """Stop everything, the other way round; ``send_what_is_left`` sends the adapter's
        waiting writes within its grace and says whether every one went. On a host of
        several platforms the first adapter to stop stops the clocks of all, and the last
        closes the rest."""
        if self._closed:
            await send_what_is_left()
            return
        if not self._sent:
            if self.web is not None:
                await self.web.close()
            if self.service is not None:
                await self.service.stop_clocks()  # nothing more is committed, nor delivered
        self._sent.append(await send_what_is_left())
        if len(self._sent) < max(1, len(self._come)) and len(self._sent) < self.platforms:
            return
        self._closed = True
        if self.service is not None:
            # Everything sent: the next start has nothing to draw again.
            await self.service.close(delivered=all(self._sent) and not self.lost_lead)
        await self._leading.aclose()
        if self.store is not None:
            await self.store.close()
        await self.stop_metrics()

    @property
    def lost_lead(self) -> bool:
        """The lead was lost while held: another process may lead the bot now."""
        return self.lead is not None and self.lead.lost.is_set()

    async def stop_metrics(self) -> None:
        if self.metrics_server is not None:
            await self.metrics_server.close()
