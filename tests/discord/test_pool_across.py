"""A Discord person and a Telegram person in one service (``python -m bots``): the pool pairs
them, and each plays the match in their own private chat, on their own platform, in their
own language; the Discord bot is handed, and shows, only its own person's share. A Telegram
person's invitation brings a Discord friend as their partner (the code is the same
everywhere).

The Telegram side here is a stand-in platform on the same host (``bots.host``): it keeps
what it is told and plays its person's first card whenever it is their turn.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

import pytest
from dc_config import BotFactory
from dc_pool import CONFIG, DirectPlayers, DirectScan, dm, one_round, pid, play, waiting_message, wave
from dc_world import World, actions, text_of

from bots.discord import BasraBot
from bots.host import Host
from bots.outbound.refs import MessageRefs
from bots.service import (
    ForSeat,
    HandView,
    Notice,
    Person,
    PoolNotice,
    PoolPaired,
    PoolTogether,
    TableService,
    YourTurn,
    is_pool_chat,
)

pytestmark = pytest.mark.usefixtures("fast_settle")

TARIQ = Person("tg:777000123", "Tariq", "ar")


class TelegramSide:
    """The platform "tg" of one person, Tariq, on the Discord bot's host."""

    name = "tg"
    owner = "tg"

    def __init__(self) -> None:
        self.service: TableService | None = None
        self.notices: list[Notice] = []
        self.told: list[PoolNotice] = []
        self._moves: set[asyncio.Task[None]] = set()

    def connect(self, service: TableService) -> None:
        self.service = service

    async def deliver(self, notices: Sequence[Notice]) -> None:
        self.notices.extend(notices)
        for notice in notices:
            if isinstance(notice, YourTurn) and notice.player_id == TARIQ.player_id:
                move = asyncio.get_running_loop().create_task(self._move(notice.hand))
                self._moves.add(move)
                move.add_done_callback(self._moves.discard)

    async def tell_pool(self, notices: Sequence[PoolNotice]) -> None:
        self.told.extend(notices)

    async def _move(self, hand: HandView) -> None:
        assert self.service is not None
        await self.service.play(hand.table_id, TARIQ.player_id, hand.version, hand.hand[0])


@pytest.fixture
async def telegram(make_bot: BotFactory) -> AsyncIterator[tuple[BasraBot, TelegramSide]]:
    """The Discord bot on a host it shares with Tariq's platform: one service for both."""
    bot = make_bot(config=CONFIG)
    host = Host(bot.options.database, config=CONFIG, metrics=bot.metrics, clock=bot.clock,
                match_factory=one_round, platforms=2)
    bot.shared_host = host
    side = TelegramSide()
    await host.open_store(MessageRefs())
    # The service is made once the bot comes too (its setup, when simcord starts it).
    joining = asyncio.create_task(host.start(side, alone=False, connect=side.connect))
    yield bot, side
    await joining

    async def nothing_left() -> bool:
        return True

    await host.stop(nothing_left)  # the bot stopped first: this one closes the host


@pytest.fixture
def simcord_bot(telegram: tuple[BasraBot, TelegramSide]) -> BasraBot:
    return telegram[0]


async def test_a_discord_person_plays_a_telegram_person_each_in_their_own_chat(
    world: World, telegram: tuple[BasraBot, TelegramSide]
) -> None:
    _, side = telegram
    alice = world.alice
    service = world.bot.service
    handed: list[Notice] = []
    deliver = world.bot.platform.deliver

    async def spied(notices: Sequence[Notice]) -> None:
        handed.extend(notices)
        await deliver(notices)

    world.bot.platform.deliver = spied  # type: ignore[method-assign]
    await service.pool_join(TARIQ, TARIQ.player_id)
    await play(world, alice)

    await wave(world)

    status = await service.pool_status(Person(pid(alice), alice.name))
    assert status is not None and status.state == "seated" and status.table_id is not None
    table = await service.table(status.table_id)
    assert table.running and is_pool_chat(table.chat_id)
    assert {s.player_id for s in table.seats} == {pid(alice), TARIQ.player_id}
    found = text_of(waiting_message(alice))
    assert "Opponent found: \u2068Tariq\u2069" in found and "777000123" not in found
    paired = [n for n in side.told if isinstance(n, PoolPaired)]
    assert [n.view.opponents for n in paired] == [("alice",)]

    scan = DirectScan(world, [(alice, TARIQ.player_id)])
    await scan.check(table.table_id)
    final = await DirectPlayers(world, table.table_id, scan).play_to_end()

    assert final.status == "finished" and final.winner is not None
    # Each platform was handed its own person's share only, in their language.
    assert side.notices and all(n.player_id == TARIQ.player_id for n in side.notices)
    assert handed and all(n.player_id == pid(alice) for n in handed)
    assert {n.lang for n in handed if isinstance(n, ForSeat)} == {"en"}
    assert {n.lang for n in side.notices if isinstance(n, ForSeat)} == {"ar"}
    assert any(isinstance(n, ForSeat) and n.notice.kind == "match_ended" for n in side.notices)
    # alice read the whole match, and its result, in her DM, in English.
    results = [m for m in dm(alice) if "The match is over" in text_of(m) and not m.flags.ephemeral]
    assert results and [a.verb for a in actions(results[-1])] == ["again", "seek", "block", *["react"] * 4]
    assert "\u2068Tariq\u2069" in text_of(results[-1])
    assert world.channel.history() == []


async def test_a_telegram_person_s_invitation_brings_a_discord_friend_as_partner(
    world: World, telegram: tuple[BasraBot, TelegramSide]
) -> None:
    _, side = telegram
    alice, bob, carol = world.alice, world.bob, world.carol
    service = world.bot.service
    await service.pool_join(TARIQ, TARIQ.player_id, "2v2")
    made = await service.pool_invite(TARIQ, TARIQ.player_id)

    joined = await alice.user.slash("basra play", mode="2v2", invite=made.token)

    tariq = "\u2068Tariq\u2069"
    assert joined.ephemeral and f"You joined {tariq}" in text_of(joined.response or joined.followups[-1])
    assert f"Looking for two opponents for you and your partner {tariq}" in text_of(waiting_message(alice))
    together = [n for n in side.told if isinstance(n, PoolTogether)]
    assert [(n.view.player_id, n.view.partners) for n in together] == [(TARIQ.player_id, ("alice",))]

    for member in (bob, carol):
        await member.user.slash("basra play", mode="2v2")
    await wave(world)

    status = await service.pool_status(TARIQ)
    assert status is not None and status.state == "seated" and status.table_id is not None
    table = await service.table(status.table_id)
    team = {s.player_id: s.team for s in table.seats}
    assert team[TARIQ.player_id] == team[pid(alice)] != team[pid(bob)] == team[pid(carol)]
    assert [n.view.partners for n in side.told if isinstance(n, PoolPaired)] == [("alice",)]
    assert f"Your partner: {tariq}" in text_of(waiting_message(alice))
