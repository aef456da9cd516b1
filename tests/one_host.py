"""Both bots of ``python -m bots`` in one test: the real Telegram adapter against the fake Bot
API (``tests.fakes``, ``tests.telegram.world``) and the real Discord bot against simcord
(``tests/discord_harness/NOTES.md``), on one ``Host(platforms=2)`` over one SQLite file,
so that one table service serves both, as in the process.

The clocks. simcord runs the Discord bot's work on its own clock: inside that work
``time.monotonic`` (so the loop's time, by which each bot paces its writes and each fake
server counts its flood windows) and ``discord.utils.utcnow`` read simcord's time; outside
it, the wall clock, elsewhere entirely (simcord's day is 1 January 2026). A pacer that
reads one clock here and the other there waits out windows the other clock opened. So:

* The service's clock (``SimcordClock``) is simcord's time, whoever reads it, and every
  timer the service sets (the heartbeat and its pool waves, turn clocks) fires as the
  Discord bot's work, whoever set it (the service is made by whichever adapter comes to
  ``Host.start`` last). Time moves as in the Discord tests: ``env.advance_time`` runs the
  heartbeat; no test calls ``service.pool_wave()`` itself.
* Every Telegram step runs as the Discord bot's work (``OneHost.on_telegram``), so that
  what it makes the Discord bot write (a DM's table, a hand) is paced on simcord's clock,
  as all the Discord bot's writes are, and simcord waits for it.
* Telegram's writes are paced on the wall clock, whoever queues them, even a wave or a
  Discord person's play (``paced_on_the_wall_clock``): the fake Bot API counts its flood
  windows on the clock of the task that calls it, as in the Telegram tests. (Paced on
  simcord's clock, they could not go during ``advance_time``: Telegram's pacer keeps
  writes apart with ``asyncio.wait_for``, a wait simcord does not take for rest, so a
  wave's second Telegram write held ``advance_time`` until it gave up.)

Apart (two hosts on PostgreSQL), each service listens to the database for what the
other did: ``tests.discord.listening`` keeps that out of the bot's work, and what it hears
in it.

simcord has no public way to count other work of the process as its bot's, or to leave it
out: ``as_bot_work`` and ``paced_on_the_wall_clock`` set the context variable by which it
tells (``Env._bot_scope``, ``_BOT_SCOPE``).
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import discord
import simcord
import simcord.http
from simcord._runtime import _BOT_SCOPE

from bots.discord import BasraBot, BotOptions
from bots.host import Host
from bots.outbound.dispatcher import Dispatcher, Write
from bots.render import Action
from bots.service import ServiceConfig
from core import Match, Rules
from tests.discord.discord_limits import RateLimits
from tests.discord.listening import heard_as_bot_work
from tests.fakes import FakeTelegram
from tests.telegram.world import World

T = TypeVar("T")

#: Seconds between heartbeats, so between waves: beyond simcord's settle timeout, so that
#: only ``advance_time`` runs one (as in the Discord pool tests).
WAVE = 10.0
#: No pause before computer moves; turn clocks long enough that moving time never times
#: anyone out; the pool pairs at every heartbeat; English unless a person says otherwise.
CONFIG = ServiceConfig(computer_delay=0, warning_seconds=0, heartbeat_seconds=WAVE, poll_seconds=3600,
                       turn_seconds=3600, pool_turn_seconds=3600, pool_wave_seconds=1.0, language="en")
#: Each platform's flood limits run this many times faster, on its fake server and in its
#: bot alike (as in that platform's own tests).
TELEGRAM_SPEEDUP = 60.0
DISCORD_SPEEDUP = 100.0


def one_round(players: int, rules: Rules) -> Match:
    """A match the first round ends (whoever leads then wins), dealt from a fixed seed."""
    return Match.new(players, dataclasses.replace(rules, target=1), seed=11, dealer=players - 1)


@contextmanager
def as_bot_work(env: simcord.Env) -> Iterator[None]:
    """What runs in here is the Discord bot's work, on simcord's clock."""
    with env._bot_scope():
        yield


def paced_on_the_wall_clock(dispatcher: Dispatcher) -> None:
    """Each chat's lane of ``dispatcher`` (and the bot's ``Gate``, which the lanes start)
    runs outside simcord's work, on the wall clock, whoever queues the write."""
    put = dispatcher.put

    def put_outside(write: Write) -> bool:
        context = contextvars.copy_context()
        context.run(_BOT_SCOPE.set, None)
        return context.run(put, write)

    dispatcher.put = put_outside  # type: ignore[method-assign]


class SimcordClock:
    """The service's clock: simcord's time, whoever reads it, and timers that fire as the
    bot's work on simcord's clock (``env.advance_time`` runs them), whoever sets them."""

    #: simcord's world, once made (it is made around the bot, which is made with this clock).
    env: simcord.Env | None = None

    def now(self) -> float:
        assert self.env is not None
        return self.env.now().timestamp()

    def call_at(self, when: float, action: Callable[[], Awaitable[None]]) -> asyncio.TimerHandle:
        assert self.env is not None
        loop = asyncio.get_running_loop()
        with as_bot_work(self.env):
            return loop.call_later(max(0.0, when - self.now()), lambda: asyncio.ensure_future(action()))


@dataclass
class OneHost:
    """The two bots on one host: Telegram's world and fake server, Discord's bot and simcord.
    Apart (``one_host(apart=True)``), each bot has a host of its own, as two processes on one
    PostgreSQL database: ``host`` is the Discord bot's, ``hosts`` both (Telegram's first)."""

    host: Host
    telegram: World
    server: FakeTelegram
    env: simcord.Env
    bot: BasraBot
    #: Discord's rate limits on simcord (``tests/discord/discord_limits.py``).
    limits: RateLimits
    #: What happened as the process stopped, in order: each bot stopped, the store closed.
    stopping: list[str] = field(default_factory=list)
    hosts: list[Host] = field(default_factory=list)

    async def on_telegram(self, step: Callable[[], Awaitable[T]]) -> T:
        """A Telegram step (``World.send``, ``World.press``…: the update handled, and the
        Telegram writes it queued sent) as the Discord bot's work, then what it made the
        Discord bot do."""
        with as_bot_work(self.env):
            result = await step()
        await self.env.settle()
        return result

    async def on_discord(self, step: Callable[[], Awaitable[T]]) -> T:
        """A Discord step (a simcord action: it returns once the Discord bot is done), then
        the Telegram writes it queued."""
        result = await step()
        await self.telegram.basra.idle()
        return result

    async def advance(self, seconds: float) -> None:
        """Let simcord's clock run (the heartbeat runs the pool's waves), then every write go."""
        await self.env.advance_time(seconds)
        await self.telegram.basra.idle()
        await self.env.settle()


@asynccontextmanager
async def one_host(database: Path | str, *, config: ServiceConfig = CONFIG,
                   match_factory: Callable[[int, Rules], Match] | None = one_round,
                   apart: bool = False) -> AsyncIterator[OneHost]:
    """Both bots on one ``Host(platforms=2)``, started side by side as ``python -m bots``
    starts them (each waits in ``Host.start`` for the other, and the last makes the
    service), and stopped as it stops them: Telegram first, then the Discord bot, the last,
    which closes the host. ``apart``: each bot on a host of its own over ``database`` (a
    PostgreSQL one), as ``basra-telegram`` and ``basra-discord`` run side by side, each with
    its store and service, on simcord's clock both."""
    server = FakeTelegram(speedup=TELEGRAM_SPEEDUP)
    world = World(server, database, config=config)  # type: ignore[arg-type]  # the host's clock serves
    paced_on_the_wall_clock(world.basra.dispatcher)
    clock = SimcordClock()
    bot = BasraBot(BotOptions(database=database, config=config, speedup=DISCORD_SPEEDUP), clock=clock)
    env = clock.env = simcord.Env(bot)
    if apart:
        hosts = [Host(database, config=config, metrics=m, clock=clock, match_factory=match_factory)
                 for m in (world.basra.metrics, bot.metrics)]
        world.basra.shared_host, bot.shared_host = hosts
        host = hosts[1]
    else:
        host = Host(database, config=config, metrics=world.basra.metrics, clock=clock,
                    match_factory=match_factory, platforms=2)
        world.basra.shared_host = bot.shared_host = host
        hosts = [host]
    limits = RateLimits(speedup=DISCORD_SPEEDUP)
    both = OneHost(host, world, server, env, bot, limits, hosts=hosts)
    dispatch = simcord.http.router.dispatch
    simcord.http.router.dispatch = limits.wrap(dispatch)
    crossing = heard_as_bot_work()
    crossing.__enter__()
    try:
        await world.app.initialize()
        loop = asyncio.get_running_loop()
        # The Discord bot's setup_hook (in simcord's start) comes to the host beside Telegram.
        starts = (loop.create_task(world.basra.start()), loop.create_task(env.start()))
        try:
            # Each waits in Host.start for the other: one that fails would leave the other
            # waiting for ever, so it is stopped, and the failure raised.
            await asyncio.wait(starts, return_when=asyncio.FIRST_EXCEPTION)
            for start in starts:
                start.cancel()
            await asyncio.gather(*starts, return_exceptions=True)
            for start in starts:
                if not start.cancelled() and (error := start.exception()) is not None:
                    raise error
            assert host.store is not None
            close = host.store.close

            async def closing() -> None:
                both.stopping.append("store closed")
                await close()

            host.store.close = closing  # type: ignore[method-assign]
            with env.time_context():
                await both.on_telegram(world.basra.idle)
                yield both
        finally:
            await world.basra.stop()
            both.stopping.append("telegram stopped")
            await world.app.shutdown()
            await bot.close()
            both.stopping.append("discord stopped")
            if succeeded(starts[1]):
                await env.shutdown()
    finally:
        simcord.http.router.dispatch = dispatch
        crossing.__exit__(None, None, None)
    env.raise_errors()


def succeeded(task: asyncio.Task[None]) -> bool:
    return task.done() and not task.cancelled() and task.exception() is None


# -- reading a Discord DM (as ``tests/discord/dc_world.py`` reads a channel) -----------------

Readable = discord.Message | simcord.ResponseMessage


def as_message(message: Readable) -> discord.Message:
    return message.message if isinstance(message, simcord.ResponseMessage) else message


def buttons(message: Readable) -> list[discord.Button]:
    return [child for row in as_message(message).components if isinstance(row, discord.ActionRow)
            for child in row.children if isinstance(child, discord.Button)]


def actions(message: Readable) -> list[Action]:
    """The renderer's actions behind the message's buttons."""
    return [Action.decode(b.custom_id) for b in buttons(message)
            if b.custom_id and b.custom_id.startswith("b1|")]


def custom_id(message: Readable, verb: str) -> str:
    """The one button doing ``verb``."""
    found = [a.encode() for a in actions(message) if a.verb == verb]
    assert len(found) == 1, f"{len(found)} {verb!r} buttons in {[a.verb for a in actions(message)]}"
    return found[0]


def body_of(message: Readable) -> str:
    """A message's text: content and embeds (not its buttons)."""
    msg = as_message(message)
    parts = [msg.content or ""]
    for embed in msg.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


def text_of(message: Readable) -> str:
    """Everything a reader sees in a message: its text and its buttons' labels."""
    return "\n".join([body_of(message), *(b.label or "" for b in buttons(message))])


def dm(member: simcord.MemberActor) -> list[discord.Message]:
    """Everything the member sees in their DM with the bot, oldest first (ephemeral hands too)."""
    return member.user.dm_channel.history(viewer=member.user)


def dm_table(member: simcord.MemberActor) -> Readable:
    """The newest table message in the member's DM (it has "My hand" and an embed: a turn
    ping has the button alone)."""
    for message in reversed(dm(member)):
        if any(a.verb == "hand" for a in actions(message)) and message.embeds and not message.flags.ephemeral:
            return message
    raise AssertionError(f"no table in {member.name}'s DM")


def waiting_message(member: simcord.MemberActor) -> Readable:
    """The member's newest waiting message (the one that says how the search goes)."""
    for message in reversed(dm(member)):
        text = body_of(message)
        if not message.flags.ephemeral and ("opponent" in text or "Opponent" in text):
            return message
    raise AssertionError(f"no waiting message in {member.name}'s DM")


async def click(member: simcord.MemberActor, message: Readable, verb: str) -> simcord.InteractionResult:
    """A press in the member's DM."""
    result: simcord.InteractionResult = await member.user.click(message, custom_id=custom_id(message, verb))
    assert result.acknowledged, f"{verb} press by {member.name} was not answered"
    return result
