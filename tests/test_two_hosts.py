"""``basra-telegram`` and ``basra-discord`` as two processes on one PostgreSQL database: the
real Telegram adapter (python-telegram-bot against the fake Bot API) and the real Discord bot
(discord.py against simcord), each on a host, a store and a table service of its own
(``tests/one_host.py``, ``apart``), sharing the pairing pool through the database.

A Telegram person who reads Arabic sends ``/play``, a Discord person who reads English uses
``/basra play``; a wave of one process pairs them, the other finds its person seated, and
each plays the match through the buttons in their own private chat or DM, told by their
own bot's process what the other did; each reads the result in their own language, and
nothing of one reaches the other.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable

import pytest

from bots.render import Action
from bots.service import Person, TableView, is_pool_chat
from storage.models import DEFAULT_RATING
from tests.one_host import (
    CONFIG,
    OneHost,
    Readable,
    actions,
    as_bot_work,
    click,
    custom_id,
    dm,
    dm_table,
    one_host,
    text_of,
    waiting_message,
)
from tests.storage.backends import postgres_schema  # noqa: F401  (a fixture)
from tests.test_one_host import (
    ARABIC,
    People,
    Scan,
    fast_settle,  # noqa: F401  (a fixture)
    meet,
    profile,
    telegram_waiting,
    verbs,
)

pytestmark = pytest.mark.usefixtures("fast_settle")

#: No heartbeat while the match is played: each process's pool chore runs when the test says
#: (``beat``). (simcord lets the bot's short sleeps pass in real time and moves its clock
#: with them, so heartbeats would come in the middle of plays, and two processes' database
#: writes waiting while simcord advances time do not settle.)
APART = dataclasses.replace(CONFIG, heartbeat_seconds=3600.0)


async def beat(both: OneHost) -> None:
    """Each process's pool chore, as its heartbeat runs it: a wave, then whom another
    process's wave seated."""
    for host in both.hosts:
        assert host.service is not None
        with as_bot_work(both.env):
            await host.service.pool_wave()
            await host.service.pool.follow_seated()
        await both.env.settle()
        await both.telegram.basra.idle()


async def soon(
    both: OneHost, condition: Callable[[], Awaitable[bool]], what: str, seconds: float = 10.0
) -> None:
    """Wait for what the other process hears through the database to show here."""
    for _ in range(int(seconds / 0.02)):
        await both.env.settle()
        await both.telegram.basra.idle()
        if await condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"not within {seconds} s: {what}")


class Match:
    """Badr (Telegram) and Maya (Discord) at their match, each told by their own process."""

    def __init__(self, people: People, table_id: str) -> None:
        self.people = people
        self.table_id = table_id
        self.scan = Scan(people, table_id)
        self.maya_hand: Readable | None = None
        self.plays = 0

    async def table(self) -> TableView:
        return await self.people.both.bot.service.table(self.table_id)

    async def play_to_end(self, limit: int = 200) -> TableView:
        people, both = self.people, self.people.both
        while (table := await self.table()).running:
            assert self.plays < limit, "the match does not end"
            assert table.to_move is not None
            if table.seats[table.to_move].player_id == people.badr_id:
                await soon(both, lambda t=table: self.badr_can_play(t), "Badr's hand at the new version")
                await both.on_telegram(lambda: both.telegram.play_any(people.badr))
            else:
                await self.maya_plays(table)
            self.plays += 1
            await self.scan.check()
        return table

    async def badr_can_play(self, table: TableView) -> bool:
        """Badr's hand, as his own process drew it, holds cards of the table's version."""
        hand = self.people.both.telegram.hand_message(self.people.badr)
        cards = [Action.decode(d) for d in hand.button_data() if d.startswith("b1|card|")]
        return bool(cards) and all(a.version == table.version for a in cards)

    async def maya_plays(self, table: TableView) -> None:
        both, maya = self.people.both, self.people.maya
        if self.maya_hand is None:
            opened = await click(maya, dm_table(maya), "hand")
            assert opened.ephemeral and opened.response is not None
            self.maya_hand = opened.response
        hand = self.maya_hand

        async def up_to_date() -> bool:
            cards = [a for a in actions(hand) if a.verb == "card"]
            return bool(cards) and all(a.version == table.version for a in cards)

        await soon(both, up_to_date, "Maya's hand kept up to date by her own process")
        card = next(a for a in actions(hand) if a.verb == "card")
        await both.on_discord(lambda: maya.user.click(hand, custom_id=card.encode()))
        await both.on_discord(lambda: maya.user.click(hand, custom_id=custom_id(hand, "play")))


async def test_a_telegram_process_and_a_discord_process_pair_their_people_and_each_tells_its_own(
    postgres_schema: str, caplog: pytest.LogCaptureFixture  # noqa: F811 (the fixture)
) -> None:
    caplog.set_level(logging.INFO, logger="bots")
    async with one_host(postgres_schema, apart=True, config=APART) as both:
        people = meet(both)
        badr, maya = people.badr, people.maya
        telegram, discord = both.telegram.basra.service, both.bot.service
        assert telegram is not discord and telegram.tables.owners.keys() == {"tg"}
        assert discord.tables.owners.keys() == {"dc"}

        await both.on_telegram(lambda: both.telegram.send(badr, None, "/play"))
        asked = await maya.slash(people.channel, "basra play")
        assert asked.acknowledged and asked.ephemeral
        waiting = await discord.pool_status(Person(people.maya_id, "Maya"))
        assert waiting is not None and waiting.looking == 2  # one pool: each counts the other

        await beat(both)

        async def both_told() -> bool:
            found = telegram_waiting(people)
            maya_told = "Opponent found" in text_of(waiting_message(maya))
            return found.text.startswith("وجدت لك منافسًا") and maya_told

        await soon(both, both_told, "each told of the other by their own bot")
        status = await discord.pool_status(Person(people.maya_id, "Maya"))
        assert status is not None and status.table_id is not None
        table = await discord.table(status.table_id)
        assert table.running and table.rated and is_pool_chat(table.chat_id)
        assert "\u2068Maya\u2069" in telegram_waiting(people).text
        assert f"\u2068{badr.first_name}\u2069" in text_of(waiting_message(maya))
        await soon(both, lambda: _has_table(people), "Maya's table in her DM")

        match = Match(people, table.table_id)
        await match.scan.check()
        table = await match.play_to_end()
        assert match.plays == 48 and table.status == "finished" and table.winner is not None

        async def both_read_it() -> bool:
            in_dm = any("The match is over" in text_of(m) for m in dm(maya) if not m.flags.ephemeral)
            return in_dm and "انتهت المباراة" in people.telegram_chat()[-1].text

        await soon(both, both_read_it, "the result read in both chats")
        telegram_result = people.telegram_chat()[-1]
        assert ARABIC.search(telegram_result.text) and "\u2068Maya\u2069" in telegram_result.text
        assert {"seek", "block"} <= set(verbs(telegram_result))
        discord_result = text_of([m for m in dm(maya) if "The match is over" in text_of(m)][-1])
        assert f"\u2068{badr.first_name}\u2069" in discord_result
        assert not ARABIC.search(discord_result.replace(badr.first_name, ""))
        assert people.channel.history() == []

        winner_id = table.seats[table.winner].player_id or ""
        loser_id = people.maya_id if winner_id == people.badr_id else people.badr_id
        winner, loser = await profile(people, winner_id), await profile(people, loser_id)
        assert winner.rated_matches == loser.rated_matches == 1
        assert loser.rating < DEFAULT_RATING < winner.rating
        assert both.server.flood is not None and both.server.flood.refused == {}
        assert both.limits.refused == []

    for record in caplog.records:
        assert record.levelno < logging.WARNING, record.getMessage()
        if record.name.startswith("bots"):
            assert str(badr.id) not in record.getMessage() and str(maya.id) not in record.getMessage()


async def _has_table(people: People) -> bool:
    try:
        dm_table(people.maya)
    except AssertionError:
        return False
    return True
