"""What the Discord tests share: the world (guild, channel, members), reading buttons,
driving a lobby and a match click by click, and the scan for hand cards in public."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import discord
import simcord
from discord_limits import RateLimits

from bots.discord import BasraBot
from bots.i18n import card_face
from bots.render import Action
from bots.service import TableView
from core import Match


@dataclass
class World:
    env: simcord.Env
    guild: simcord.GuildHandle
    channel: simcord.ChannelHandle
    alice: simcord.MemberActor
    bob: simcord.MemberActor
    carol: simcord.MemberActor
    dave: simcord.MemberActor
    limits: RateLimits

    @property
    def bot(self) -> BasraBot:
        bot = self.env.bot
        assert isinstance(bot, BasraBot)
        return bot

    @property
    def members(self) -> list[simcord.MemberActor]:
        return [self.alice, self.bob, self.carol, self.dave]

    def member(self, player_id: str | None) -> simcord.MemberActor:
        return next(m for m in self.members if f"dc:{m.id}" == player_id)


# -- reading messages ------------------------------------------------------------------

Readable = discord.Message | simcord.ResponseMessage


def as_message(message: Readable) -> discord.Message:
    return message.message if isinstance(message, simcord.ResponseMessage) else message


def buttons(message: Readable) -> list[discord.Button]:
    return [
        child
        for row in as_message(message).components
        if isinstance(row, discord.ActionRow)
        for child in row.children
        if isinstance(child, discord.Button)
    ]


def actions(message: Readable) -> list[Action]:
    """The renderer's actions behind the message's buttons."""
    return [
        Action.decode(b.custom_id) for b in buttons(message) if b.custom_id and b.custom_id.startswith("b1|")
    ]


def custom_id(message: Readable, verb: str, **fields: Any) -> str:
    """The one button doing ``verb`` (with these action fields)."""
    found = [
        a.encode()
        for a in actions(message)
        if a.verb == verb and all(getattr(a, k) == v for k, v in fields.items())
    ]
    assert len(found) == 1, f"{len(found)} {verb!r} buttons {fields} in {[a.verb for a in actions(message)]}"
    return found[0]


def text_of(message: Readable) -> str:
    """Everything a reader sees in a message: content, embeds, button labels."""
    return "\n".join([body_of(message), *(b.label or "" for b in buttons(message))])


def public(world: World) -> list[discord.Message]:
    return world.channel.history()


def table_message(world: World) -> discord.Message:
    """The newest public message with a "My hand" button on it (the table of this round)."""
    for message in reversed(public(world)):
        if any(a.verb == "hand" for a in actions(message)) and message.embeds:
            return message
    raise AssertionError("no table message")


def lobby_message(world: World) -> discord.Message:
    for message in reversed(public(world)):
        if any(a.verb == "join" for a in actions(message)):
            return message
    raise AssertionError("no lobby message")


# -- the truth, from the store -------------------------------------------------------


async def true_match(world: World, table_id: str) -> Match:
    """The match as its event log says (every hand included): the oracle of the tests."""
    assert world.bot.store is not None
    events = await world.bot.store.load_events(table_id)
    return Match.from_events([e.data for e in events])


async def current_table(world: World) -> TableView:
    view = await world.bot.service.open_table(f"dc:{world.channel.id}")
    assert isinstance(view, TableView), view
    return view


# -- privacy -------------------------------------------------------------------------

# A round result names the point cards as items of its breakdown ("2♣ 2", "10♦ 3").
BREAKDOWN_ITEM = re.compile("\u2066?(2♣|10♦)\u2069? \\d+")
# A table message names its round; a finished round's cards were all played in public.
ROUND_HEADER = re.compile(r"(?:Basra · round|باصرة · الجولة) (\d+)")


@dataclass
class PublicScan:
    """Every public message, each time it changes, checked against the hands held then."""

    world: World
    seen: dict[int, tuple[str, str]] = field(default_factory=dict)
    checked: int = 0

    async def check(self, table_id: str) -> None:
        held = await held_cards(self.world, table_id)
        labels_held = {card_face(c) for c in held}
        round_no = (await self.world.bot.service.table(table_id)).round_no
        for message in public(self.world):
            body = body_of(message)
            ids = " ".join(b.custom_id or "" for b in buttons(message))
            shown = (body, ids)
            before = self.seen.get(message.id)
            self.seen[message.id] = shown
            if before == shown:
                continue
            self.checked += 1
            header = ROUND_HEADER.search(body)
            finished_round = header is not None and int(header.group(1)) != round_no
            if (before is None or before[0] != body) and not finished_round:
                visible = BREAKDOWN_ITEM.sub("", body)
                leaked = sorted(label for label in labels_held if label in visible)
                assert not leaked, f"hand cards {leaked} in public message:\n{body}"
            assert not any(f"|{code}" in ids for code in held), f"a hand card in a public button: {ids}"


async def held_cards(world: World, table_id: str) -> set[str]:
    """Every card in a hand now (the people's through the service, computers' from the log)."""
    table = await world.bot.service.table(table_id)
    if not table.running:
        return set()
    if any(seat.is_computer for seat in table.seats):
        match = await true_match(world, table_id)
        return {c.code for seat in range(match.players) for c in match.hand(seat)}
    held: set[str] = set()
    for seat in table.seats:
        assert seat.player_id is not None
        held.update((await world.bot.service.hand(table_id, seat.player_id)).hand)
    return held


def body_of(message: Readable) -> str:
    """A message's text: content and embeds (not its buttons)."""
    msg = as_message(message)
    parts = [msg.content or ""]
    for embed in msg.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        parts += [f"{f.name} {f.value}" for f in embed.fields]
    return "\n".join(parts)


# -- playing -----------------------------------------------------------------------


async def open_lobby(
    world: World, creator: simcord.MemberActor, mode: str, **options: Any
) -> simcord.ResponseMessage:
    """The lobby, as the answer to ``/basra new`` (a live handle: it reads its edits)."""
    result = await creator.slash(world.channel, "basra new", mode=mode, **options)
    assert result.acknowledged and result.response is not None and not result.response.ephemeral
    return result.response


async def press(
    member: simcord.MemberActor, message: Readable, verb: str, **fields: Any
) -> simcord.InteractionResult:
    result = await member.click(message, custom_id=custom_id(message, verb, **fields))
    assert result.acknowledged, f"{verb} press by {member.name} was not answered"
    return result


@dataclass
class Players:
    """The people at a match, each with the hand message they last saw."""

    world: World
    table_id: str
    scan: PublicScan | None = None
    hands: dict[int, simcord.ResponseMessage] = field(default_factory=dict)
    plays: int = 0

    async def hand_of(self, member: simcord.MemberActor) -> simcord.ResponseMessage:
        """The member's hand message, opened with "My hand" when they have none yet."""
        if member.id not in self.hands:
            result = await press(member, table_message(self.world), "hand")
            assert result.ephemeral and result.response is not None
            self.hands[member.id] = result.response
        return self.hands[member.id]

    async def play_turn(self) -> TableView:
        """Whoever is to move picks their first card, looks at the preview, confirms."""
        world = self.world
        table = await current_table(world)
        assert table.to_move is not None
        member = world.member(table.seats[table.to_move].player_id)
        hand = await self.hand_of(member)
        # Other players' moves refreshed this hand in place: its buttons are current.
        cards = [a for a in actions(hand) if a.verb == "card"]
        assert cards and all(a.version == table.version for a in cards), "the hand was not kept up to date"
        preview = await member.click(hand, custom_id=cards[0].encode())
        assert preview.response is not None and preview.response.id == hand.id
        confirm = custom_id(hand, "play")
        await member.click(hand, custom_id=confirm)
        self.plays += 1
        if self.scan is not None:
            await self.scan.check(self.table_id)
        return await world.bot.service.table(self.table_id)

    async def play_to_end(self, limit: int = 2000) -> TableView:
        for _ in range(limit):
            table = await self.world.bot.service.table(self.table_id)
            if not table.running:
                return table
            await self.play_turn()
        raise AssertionError("the match did not end")


def mentioned(message: discord.Message) -> list[int]:
    return list(message.raw_mentions)


def labels(cards: Iterable[str]) -> list[str]:
    return [card_face(c) for c in cards]


def pinged(world: World, message: discord.Message) -> list[int]:
    """Users the message actually notified (simcord keeps it on its stored message)."""
    return list(world.env.backend.get_message(message.channel.id, message.id).ping_user_ids)


async def open_hand(world: World, member: simcord.MemberActor) -> simcord.ResponseMessage:
    """Press "My hand" on the table message: the member's new ephemeral hand."""
    result = await press(member, table_message(world), "hand")
    assert result.ephemeral and result.response is not None
    return result.response


async def play_first_card(member: simcord.MemberActor, hand: simcord.ResponseMessage) -> None:
    """Select the first card of the hand, then confirm it."""
    first = next(a for a in actions(hand) if a.verb == "card")
    await member.click(hand, custom_id=first.encode())
    await member.click(hand, custom_id=custom_id(hand, "play"))
