"""The Discord client: the table service underneath, slash commands and buttons on top.

``setup_hook`` (after login, before the gateway) opens the database, starts
the service (which restores every lobby and match and re-arms their clocks),
registers the persistent buttons and syncs the slash commands. ``close``
stops the service's clocks and closes the database. With ``metrics_port`` the
bot serves ``/healthz`` and ``/metrics`` (``bots.metrics``) from before the
service starts until after it stops.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from ..host import Host, Hosted
from ..metrics import Metrics, MetricsServer
from ..outbound import share
from ..service import Clock, ServiceConfig, SystemClock, TableService
from ..web import WebTable
from . import limits
from .buttons import ActionButton
from .commands import BasraGroup, Commands
from .delivery import DiscordPlatform
from .hands import OpenHands
from .pairing import Pairing
from .presses import Presses
from .webstart import WebStart

log = logging.getLogger(__name__)

#: On closing, how long the last writes may take to go out (the state is stored either way).
STOP_GRACE = 5.0
#: Tries at the gateway before the bot gives up, when it has never been reached.
GATEWAY_ATTEMPTS = 6


class GatewayUnreachable(Exception):
    """The gateway was never reached in ``GATEWAY_ATTEMPTS`` tries."""


@dataclass(frozen=True)
class BotOptions:
    """What the bot needs besides its token (see ``settings.DiscordSettings``).

    ``guild_id``: sync the commands to that server only (they show at once);
    otherwise globally. ``speedup``: Discord's rate limits as the bot plans its
    writes, that many times faster (tests whose fake server is sped up alike).
    ``metrics_port``: serve ``/healthz`` and ``/metrics`` there, on ``metrics_host``.
    """

    database: Path | str = Path("basra.sqlite3")
    config: ServiceConfig = field(default_factory=ServiceConfig)
    guild_id: int | None = None
    speedup: float = 1.0
    metrics_port: int | None = None
    metrics_host: str = "127.0.0.1"
    #: With ``shard_count``, this process holds the shards ``shard_ids`` (all if None) of
    #: that many: several processes on one PostgreSQL database share one bot.
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None


class BasraBot(Hosted, discord.Client):
    def __init__(self, options: BotOptions, *, clock: Clock | None = None, **client: Any) -> None:
        super().__init__(
            intents=discord.Intents.none() | discord.Intents(guilds=True),
            allowed_mentions=discord.AllowedMentions.none(),
            **client,
        )
        self.options = options
        self.clock: Clock = clock or SystemClock()
        # simcord and discord.py's conventions both look for the tree here.
        self.tree = app_commands.CommandTree(self)
        self.hands = OpenHands()
        self.platform = DiscordPlatform(
            self, self.hands, now=self.clock.now, dispatcher=limits.dispatcher(speedup=options.speedup)
        )
        # Discord brings every interaction in a DM (the pool's waiting messages, the
        # stranger matches) to shard 0: its process pairs; the others only put people in.
        self.platform.pairs = options.shard_ids is None or 0 in options.shard_ids
        #: Errors by kind and press answer times; the rest is read from the service.
        self.metrics = Metrics(self.platform.dispatcher)
        self.metrics_server = (
            MetricsServer(self.metrics, options.metrics_host, options.metrics_port)
            if options.metrics_port is not None
            else None
        )
        #: The table as a web page (``bots.web``), when served: hands link to it.
        self.web: WebTable | None = None
        self.presses = Presses(self)
        self.commands_impl = Commands(self)
        self.pairing = Pairing(self)
        self.tree.add_command(BasraGroup(self.commands_impl))
        #: The store, the service, the web table and the metrics, once set up (``bots.host``).
        self.host = None
        #: A host this bot shares with the process's other adapters (``python -m bots``: one
        #: service, so one pool for Telegram and Discord people), set before it starts;
        #: without it, the bot makes a host of its own.
        self.shared_host: Host | None = None
        self._closing = False

    async def setup_hook(self) -> None:
        self.host = self.shared_host or Host(
            self.options.database, config=self.options.config, metrics=self.metrics,
            metrics_server=self.metrics_server, clock=self.clock, web=self.web,
        )
        await self.host.serve_metrics()  # health says "not running" until the service runs
        self.add_dynamic_items(ActionButton)
        store = await self.host.open_store(self.platform.messages)
        # The tables this bot opens are its own: a bot with another token leaves them alone.
        me = self.application_id if self.application_id is not None else getattr(self.user, "id", None)
        if me is None:
            raise RuntimeError("the bot started without knowing its application id")
        self.platform.owner = f"{self.platform.name}:{me}"
        if store.shared:  # other processes (shards) of this bot edit the same messages
            share(self.platform.dispatcher, self.platform.messages, store, self.platform.owner)
        self.platform.web = self.web
        if self.web is not None:  # the start page's people and presses show in their DMs too
            start = WebStart(self, self.platform)
            self.web.pool_chat(self.platform.name, start, start)

        def connect(service: TableService) -> None:
            self.platform.service = service

        # Shard processes each act on their own guilds' tables, ordered across processes.
        await self.host.start(self.platform, alone=False, connect=connect)
        if self.options.guild_id is not None:
            guild = discord.Object(self.options.guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
        else:
            await self.tree.sync()
        log.info("ready: %d commands synced", len(self.tree.get_commands()))

    async def connect(self, *, reconnect: bool = True) -> None:
        """discord.py (2.7.1) tries a first gateway connection that failed again as the
        resumption of a session it never had, and fails on that session (``self.ws`` is
        None) after its first pause: so each such try starts over, the pause and its
        log line discord.py's own, until ``GATEWAY_ATTEMPTS`` tries have failed."""
        for _ in range(GATEWAY_ATTEMPTS):
            try:
                await super().connect(reconnect=reconnect)
                return
            except AttributeError:
                if self.ws is not None:
                    raise
                if self.is_closed():
                    return
        raise GatewayUnreachable(
            f"cannot reach Discord's gateway; giving up after {GATEWAY_ATTEMPTS} attempts"
        )

    async def close(self) -> None:
        if self._closing:
            return
        self._closing = True
        if self.host is not None:
            await self.host.stop(lambda: self.platform.close(grace=STOP_GRACE / self.options.speedup))
        elif self.metrics_server is not None:
            await self.metrics_server.close()
        await super().close()

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None:
        """The one error handler (discord.py logs the traceback): counted as unhandled."""
        self.metrics.error("unhandled")
        await super().on_error(event_method, *args, **kwargs)


class ShardedBasraBot(BasraBot, discord.AutoShardedClient):
    """The same bot on some of its gateway shards (``BotOptions.shard_count``, ``shard_ids``):
    a guild's interactions reach the process holding its shard; any process may send to
    any channel, and every table is served from the shared database."""

    # Shards are launched and retried by discord.py's own sharded client, which has no
    # such fault: BasraBot.connect's starting over is not for them.
    connect = discord.AutoShardedClient.connect


def make_bot(options: BotOptions, *, clock: Clock | None = None) -> BasraBot:
    """The bot for these options: sharded when a shard count is set."""
    if options.shard_count is None:
        return BasraBot(options, clock=clock)
    ids = list(options.shard_ids) if options.shard_ids is not None else None
    return ShardedBasraBot(options, clock=clock, shard_count=options.shard_count, shard_ids=ids)
