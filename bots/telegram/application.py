"""Putting the bot together: the python-telegram-bot Application, the store, the service.

``build_application(settings)`` gives the production Application (API
server, handlers; no rate limiter: the adapter's dispatcher plans every write
within Telegram's limits, see ``limits``). ``BasraTelegram`` wires handlers onto any
Application (tests build theirs against a fake server) and owns the life of
the store and the table service: ``start`` after ``Application.initialize``,
``stop`` before ``Application.shutdown``. In production ``post_init`` and
``post_stop`` do that (``post_shutdown`` too, for an application that never ran):
``post_shutdown`` comes after the bot's HTTP client is closed, when the writes
still waiting could only fail until their grace ran out. With ``metrics_port`` it serves ``/healthz`` and
``/metrics`` (``bots.metrics``) from before the service starts until after it
stops. With ``web`` (``bots.web``) it serves the table as a Mini App while the
service runs, and each hand message gets a button that opens it.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from telegram.ext import (
    Application,
    ApplicationBuilder,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    filters,
)
from telegram.request import HTTPXRequest

from core import Match, Rules
from storage import Lead

from ..host import Host, Hosted
from ..metrics import Metrics, MetricsServer
from ..service import Clock, ServiceConfig
from ..web import WebTable
from .commands import register_commands
from .delivery import Delivery
from .folds import FOLD_PERSON
from .handlers import Handlers
from .limits import dispatcher
from .logs import on_error
from .outbox import Outbox
from .settings import TelegramSettings
from .updates import UpdateReadingBot

log = logging.getLogger(__name__)

AnyApplication = Application[Any, Any, Any, Any, Any, Any]

#: Seconds a stopping bot gives its pending writes.
STOP_GRACE = 5.0

#: Young-generation threshold: every update allocates thousands of short-lived objects
#: (python-telegram-bot's), and the default 700 runs a collection several times per update.
GC_YOUNG_THRESHOLD = 20_000


def tune_gc() -> None:
    """Garbage collection for a long-running bot, once started.

    Freezing what start-up allocated (modules, catalogs, the loaded tables)
    keeps the rare full collections from walking it again and again: those
    walks were the longest pauses every update queued behind. Fewer, larger
    young collections do the rest. Process-wide, so only the process owner
    (``__main__``, the benchmark) calls it.
    """
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG_THRESHOLD, middle, max(old, 100))


class BasraTelegram(Hosted):
    """The Telegram adapter on one Application: handlers in, notices out."""

    def __init__(
        self,
        application: AnyApplication,
        *,
        database: str | Path,
        config: ServiceConfig | None = None,
        clock: Clock | None = None,
        speedup: float = 1.0,
        rng: random.Random | None = None,
        commands: bool = True,
        metrics_port: int | None = None,
        metrics_host: str = "127.0.0.1",
        web: WebTable | None = None,
        match_factory: Callable[[int, Rules], Match] | None = None,
    ) -> None:
        self.application = application
        self.database = database
        self.config = config or ServiceConfig()
        self.clock = clock
        self.rng = rng
        self.commands = commands
        self.speedup = speedup
        self.outbox = Outbox(application.bot)
        #: Every write to Telegram, planned within its flood limits (``speedup``: tests whose
        #: fake server runs the same limits on a faster clock).
        self.dispatcher = dispatcher(speedup=speedup)
        self.delivery = Delivery(self.outbox, self.dispatcher)
        self.metrics = Metrics(self.dispatcher)
        self.handlers = Handlers(self.delivery, self.metrics)
        #: ``/healthz`` and ``/metrics``, when asked for (``port`` is the one it listens on).
        self.metrics_server = (
            MetricsServer(self.metrics, metrics_host, metrics_port) if metrics_port is not None else None
        )
        #: The store, the service, the web table and the metrics, once started (``start``).
        self.host = None
        #: A host this adapter shares with the process's other adapters (``python -m bots``:
        #: one service, so one pool for Telegram and Discord people), set before ``start``;
        #: without it, the adapter makes a host of its own.
        self.shared_host: Host | None = None
        self._watch: asyncio.Task[None] | None = None
        self._starting: asyncio.Task[Any] | None = None
        self._stopped = False
        #: The table as a web page, when served; ``match_factory`` deals given decks (tests).
        self.web = web
        self.delivery.web = web
        self.match_factory = match_factory
        self._add_handlers()

    @property
    def lost_lead(self) -> bool:
        """The lead of the bot was lost while serving: the process stopped for another."""
        return self.host is not None and self.host.lost_lead

    def _add_handlers(self) -> None:
        h = self.handlers
        app = self.application
        commands = {
            "start": h.start,
            "help": h.help,
            "rules": h.rules,
            "newgame": h.newgame,
            "practice": h.practice,
            "play": h.play,
            "hand": h.hand,
            "resign": h.resign,
            "score": h.score,
            "top": h.top,
            "record": h.record,
            "settings": h.settings,
            "privacy": h.privacy,
            "forget": h.forget,
        }
        for name, work in commands.items():
            app.add_handler(CommandHandler(name, h.command(work), filters=~filters.UpdateType.EDITED))
        # Any other command: one line pointing to /help, when it is addressed to this bot.
        unknown = h.command(h.unknown_command)

        async def unknown_command(update: Any, context: Any) -> None:
            message = update.effective_message
            if message is not None and h.addressed(message):
                await unknown(update, context)

        app.add_handler(MessageHandler(filters.COMMAND & ~filters.UpdateType.EDITED, unknown_command))
        app.add_handler(CallbackQueryHandler(h.press))
        app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, h.migrated))
        app.add_error_handler(self._on_error)

    async def _on_error(self, update: object, context: Any) -> None:
        await on_error(update, context, self.metrics)

    async def start(self) -> None:
        """Serve the metrics (health says "not running" until the service runs), open the
        database, wait to lead the bot (``standby`` meanwhile), start the service (it
        redraws the tables whose last messages may not have gone out), register commands
        (``bots.host``). A ``stop`` meanwhile ends the wait."""
        self._starting = asyncio.current_task()
        self.host = self.shared_host or Host(
            self.database, config=self.config, metrics=self.metrics, metrics_server=self.metrics_server,
            clock=self.clock, rng=self.rng, web=self.web, match_factory=self.match_factory,
        )
        await self.host.serve_metrics()
        try:
            await self._start(self.host)
        except BaseException:
            await self.host.stop_metrics()
            raise
        finally:
            self._starting = None

    async def _start(self, host: Host) -> None:
        await host.open_store(self.delivery.messages)
        # The tables this bot opens are its own: a bot with another token leaves them alone.
        self.delivery.owner = f"{self.delivery.name}:{self.application.bot.id}"
        # One process of all those on the database speaks for the token, since Telegram
        # counts its limits per token: the others wait here to take over.
        lead = await host.take_lead(self.delivery.owner)
        self._watch = asyncio.get_running_loop().create_task(self._step_down_if_lost(lead))
        self.delivery.bot_username = self.application.bot.username
        # A practice play's line waits for the computers' answer as long as they pause (``hands``).
        self.delivery.computer_delay = host.config.computer_delay
        # A group 1-v-1 play's line waits that long for the opponent's answer, on the clock of
        # the limits (tests may run them faster).
        self.delivery.fold_person = FOLD_PERSON / self.speedup
        if self.commands:
            await register_commands(self.application.bot)
        if self.web is not None:  # a search begun on the start page shows in the chat too
            self.web.pool_chat(self.delivery.name, self.handlers)
        await host.start(self.delivery, alone=True, connect=self.delivery.connect)

    async def _step_down_if_lost(self, lead: Lead) -> None:
        """Another process may lead the bot once the lead is lost: this one stops at once
        (``lost_lead``; a service manager starts it again, to wait for its turn)."""
        await lead.lost.wait()
        log.error("this process no longer leads the bot: it stops, and another takes over")
        self.application.stop_running()

    async def stop(self) -> None:
        """What can still go out within ``STOP_GRACE`` seconds does, and this returns as soon as
        it has; the rest is drawn afresh at the next start. Once: a second call does nothing."""
        if self._stopped:
            return
        self._stopped = True
        starting = self._starting
        if starting is not None and starting is not asyncio.current_task() and not starting.done():
            starting.cancel()  # stopped while waiting to lead, or starting
            await asyncio.gather(starting, return_exceptions=True)
        if self._watch is not None:
            self._watch.cancel()
        if self.host is not None:
            await self.host.stop(self._send_what_is_left)

    async def _send_what_is_left(self) -> bool:
        sent = await self.dispatcher.close(grace=0.0 if self.lost_lead else STOP_GRACE / self.speedup)
        await self.delivery.flush()
        return sent

    async def idle(self) -> None:
        """Wait for work in flight: computer turns, repairs, stored references (tests, benchmarks).
        A repair (a chat moved to its supergroup) may queue writes of its own: they go too."""
        if self.host is not None and self.host.service is not None:
            await self.host.service.drain()
        await self.dispatcher.idle()
        await self.delivery.flush()
        await self.dispatcher.idle()


def build_application(settings: TelegramSettings) -> tuple[AnyApplication, BasraTelegram]:
    """The production Application from settings, with the adapter on it."""
    bot = UpdateReadingBot(
        settings.bot_token.get_secret_value(),
        base_url=settings.bot_url_base(),
        base_file_url=settings.file_url_base(),
        # As ApplicationBuilder makes them: many writes at once, one long poll.
        request=HTTPXRequest(connection_pool_size=256),
        get_updates_request=HTTPXRequest(connection_pool_size=1),
    )
    builder = ApplicationBuilder().bot(bot).concurrent_updates(True)
    basra: BasraTelegram | None = None

    async def post_init(app: AnyApplication) -> None:
        assert basra is not None
        await basra.start()
        tune_gc()
        log.info("Basra bot @%s is up", app.bot.username)

    async def post_stop(app: AnyApplication) -> None:
        # Updates have stopped; the bot's HTTP client is still open, so what waits can go.
        assert basra is not None
        await basra.stop()

    async def post_shutdown(app: AnyApplication) -> None:
        # The application never ran (its start failed): post_stop was not called.
        assert basra is not None
        await basra.stop()

    application = builder.post_init(post_init).post_stop(post_stop).post_shutdown(post_shutdown).build()
    web = WebTable.from_settings(settings, settings.bot_token.get_secret_value(), telegram=True)
    basra = BasraTelegram(application, database=settings.database, config=settings.service_config(),
                          metrics_port=settings.metrics_port, metrics_host=settings.metrics_host, web=web)
    return application, basra
