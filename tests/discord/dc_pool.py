"""What the pool's Discord tests share: waves run by the bot's own heartbeat, reading a
person's DM with the bot (their waiting message, their table), pressing there, and the
scan that no DM shows the other person's cards or id.

Waves run as the bot runs them, with its heartbeat, here every ``WAVE`` seconds of
simcord's clock (``advance_time``): the service is never called from a test itself for
anything that writes to Discord, since simcord times the bot's own work only (a write
queued from the test would be timed by the wall clock, and never settle).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import discord
import simcord
from dc_config import TEST_CONFIG
from dc_world import (
    BREAKDOWN_ITEM,
    ROUND_HEADER,
    Readable,
    World,
    actions,
    body_of,
    buttons,
    custom_id,
    text_of,
)

from bots.i18n import card_face
from bots.service import TableView, raw_id
from core import Match, Rules

#: Seconds between heartbeats, so between waves: beyond simcord's settle timeout, so that
#: only ``advance_time`` runs one.
WAVE = 10.0
CONFIG = dataclasses.replace(TEST_CONFIG, heartbeat_seconds=WAVE, pool_wave_seconds=1.0,
                             pool_turn_seconds=3600)


async def wave(world: World) -> None:
    """The next heartbeat, and the wave it runs."""
    await world.env.advance_time(WAVE)


def one_round(players: int, rules: Rules) -> Match:
    """A match the first round ends (whoever leads then wins), dealt from a fixed seed."""
    return Match.new(players, dataclasses.replace(rules, target=1), seed=11, dealer=players - 1)


def pid(member: simcord.MemberActor) -> str:
    return f"dc:{member.id}"


def dm(member: simcord.MemberActor) -> list[discord.Message]:
    """Everything the member sees in their DM with the bot, oldest first (their ephemeral
    hands included)."""
    return member.user.dm_channel.history(viewer=member.user)


#: What only a waiting message says: an opponent looked for or found, a search for two
#: against two, a rematch waited for.
WAITING_WORDS = ("opponent", "Opponent", "two against two", "Rematch with")


def waiting_message(member: simcord.MemberActor) -> Readable:
    """The member's newest waiting message (the one that says how the search goes)."""
    for message in reversed(dm(member)):
        text = body_of(message)
        if not message.flags.ephemeral and any(word in text for word in WAITING_WORDS):
            return message
    raise AssertionError(f"no waiting message in {member.name}'s DM")


def dm_table(member: simcord.MemberActor) -> Readable:
    """The newest table message in the member's DM (it has "My hand" and an embed: a turn
    ping has the button alone)."""
    for message in reversed(dm(member)):
        if any(a.verb == "hand" for a in actions(message)) and message.embeds and not message.flags.ephemeral:
            return message
    raise AssertionError(f"no table in {member.name}'s DM")


async def click(member: simcord.MemberActor, message: Readable, verb: str, **fields: object
                ) -> simcord.InteractionResult:
    """A press in the member's DM."""
    result = await member.user.click(message, custom_id=custom_id(message, verb, **fields))
    assert result.acknowledged, f"{verb} press by {member.name} was not answered"
    return result


def answer_text(result: simcord.InteractionResult) -> str:
    """What the one who acted was told (the answer, or its followups)."""
    shown = [result.response] if result.response is not None else []
    return "\n".join(text_of(m) for m in [*shown, *result.followups])


async def play(world: World, member: simcord.MemberActor) -> simcord.InteractionResult:
    result = await member.slash(world.channel, "basra play")
    assert result.acknowledged
    return result


@dataclass
class DirectScan:
    """What each person sees in their DM, each time it changes: never a card the other
    holds, never the other's id, neither in a text nor in a button's custom_id. ``people``:
    who looks, and at whom they play."""

    world: World
    people: list[tuple[simcord.MemberActor, str]]
    seen: dict[int, tuple[str, str]] = field(default_factory=dict)
    checked: int = 0

    async def check(self, table_id: str) -> None:
        service = self.world.bot.service
        table = await service.table(table_id)
        for viewer, other in self.people:
            held = set((await service.hand(table_id, other)).hand) if table.running else set()
            labels = {card_face(c) for c in held}
            number = raw_id(other)
            for message in dm(viewer):
                body = body_of(message)
                ids = " ".join(b.custom_id or "" for b in buttons(message))
                assert number not in body and number not in ids, (viewer.name, body, ids)
                if self.seen.get(message.id) == (body, ids):
                    continue
                before = self.seen.get(message.id)
                self.seen[message.id] = (body, ids)
                self.checked += 1
                header = ROUND_HEADER.search(body)
                finished_round = header is not None and int(header.group(1)) != table.round_no
                if (before is None or before[0] != body) and not finished_round:
                    leaked = sorted(label for label in labels if label in BREAKDOWN_ITEM.sub("", body))
                    assert not leaked, f"the other's cards {leaked} shown to {viewer.name}:\n{body}"
                assert not any(f"|{code}" in ids for code in held), f"the other's card in a button: {ids}"


@dataclass
class DirectPlayers:
    """The two people of a stranger match, each with the hand they last opened in their DM."""

    world: World
    table_id: str
    scan: DirectScan
    hands: dict[int, simcord.ResponseMessage] = field(default_factory=dict)
    plays: int = 0

    async def play_turn(self) -> TableView:
        """Whoever is to move opens their hand under the table in their DM, picks their
        first card, confirms."""
        table = await self.world.bot.service.table(self.table_id)
        assert table.to_move is not None
        mover = table.seats[table.to_move].player_id
        member = next((m for m in self.world.members if pid(m) == mover), None)
        assert member is not None, "a person of another platform did not move"
        if member.id not in self.hands:
            opened = await click(member, dm_table(member), "hand")
            assert opened.ephemeral and opened.response is not None
            self.hands[member.id] = opened.response
        hand = self.hands[member.id]
        cards = [a for a in actions(hand) if a.verb == "card"]
        assert cards and all(a.version == table.version for a in cards), "the hand was not kept up to date"
        await member.user.click(hand, custom_id=cards[0].encode())
        await member.user.click(hand, custom_id=custom_id(hand, "play"))
        self.plays += 1
        await self.scan.check(self.table_id)
        return await self.world.bot.service.table(self.table_id)

    async def play_to_end(self, limit: int = 400) -> TableView:
        for _ in range(limit):
            table = await self.world.bot.service.table(self.table_id)
            if not table.running:
                return table
            await self.play_turn()
        raise AssertionError("the match did not end")
