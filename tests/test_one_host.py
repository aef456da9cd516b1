"""``python -m bots`` in one test: the real Telegram adapter (python-telegram-bot against the
fake Bot API) and the real Discord bot (discord.py against simcord) on one
``Host(platforms=2)`` over one SQLite file, so that one table service serves both
(``tests/one_host.py`` says which clock each part runs on, and why).

A Telegram person who reads Arabic sends ``/play`` in their private chat, a Discord person
who reads English uses ``/basra play``; the next wave pairs them, and each plays the match
through the buttons in their own private chat or DM, sees only the other's display name,
never the other's id or cards, and reads the result in their own language; the match is
rated in the store; both bots stop, and the host closes the store once.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import simcord

from bots.i18n import card_face
from bots.render import Action
from bots.service import Person, TableView, is_pool_chat
from bots.service.results import display_rating
from storage.models import DEFAULT_RATING, PlayerProfile
from tests.fakes import FakeMessage, FakeTelegram, FakeUser
from tests.one_host import (
    WAVE,
    OneHost,
    Readable,
    actions,
    body_of,
    buttons,
    click,
    custom_id,
    dm,
    dm_table,
    one_host,
    text_of,
    waiting_message,
)
from tests.telegram.world import labels_in

ARABIC = re.compile(r"[\u0600-\u06FF]")
LATIN = re.compile("[A-Za-z]")
#: A result's breakdown names the point cards with their points ("2♣ 2", "10♦ 3").
BREAKDOWN_ITEM = re.compile("\u2066?(2♣|10♦)\u2069? \\d+")
#: The rating a newcomer is shown.
FIRST_RATING = display_rating(DEFAULT_RATING)


@pytest.fixture
def fast_settle(monkeypatch: pytest.MonkeyPatch) -> None:
    """simcord polls for the bot's idleness every 2 ms instead of 50 (its NOTES.md)."""
    original = simcord.Env._settle_internal

    async def settle(self: simcord.Env, *, idle: float = 0.05, **kwargs: Any) -> None:
        await original(self, idle=min(idle, 0.002), **kwargs)

    monkeypatch.setattr(simcord.Env, "_settle_internal", settle)


@dataclass
class People:
    """Badr on Telegram, Maya on Discord: each one's id and handle are what the other must
    never see; their display names are what they may."""

    both: OneHost
    badr: FakeUser
    maya: simcord.MemberActor
    channel: simcord.ChannelHandle

    @property
    def badr_id(self) -> str:
        return f"tg:{self.badr.id}"

    @property
    def maya_id(self) -> str:
        return f"dc:{self.maya.id}"

    def telegram_chat(self) -> list[FakeMessage]:
        server = self.both.server
        return server.messages(server.private_chat(self.badr), bot_only=True)


def meet(both: OneHost) -> People:
    server: FakeTelegram = both.server
    badr = server.add_user("بدر", username="badr_hidden", language_code="ar", user_id=8_765_432)
    server.private_chat(badr)
    guild = both.env.create_guild("Cairo")
    channel = guild.create_text_channel("basra")
    maya = guild.add_member(both.env.create_user("maya_hidden", global_name="Maya"))
    return People(both, badr, maya, channel)


def telegram_waiting(people: People) -> FakeMessage:
    """Badr's newest waiting message (the one his search shows, edited as it goes)."""
    found = [m for m in people.telegram_chat() if any(v.text.startswith("أبحث لك") for v in m.versions)]
    assert found, "Badr has no waiting message"
    return found[-1]


@dataclass
class Scan:
    """Each message either person sees, each time it changes: never a card the other holds
    now, neither in its text nor behind a button, and never the other's id or handle."""

    people: People
    table_id: str
    seen_telegram: dict[int, int] = field(default_factory=dict)
    seen_discord: dict[int, tuple[str, str]] = field(default_factory=dict)
    checked: int = 0

    async def check(self) -> None:
        p = self.people
        service = p.both.bot.service
        table = await service.table(self.table_id)
        held = {pid: set((await service.hand(self.table_id, pid)).hand) if table.running else set()
                for pid in (p.badr_id, p.maya_id)}
        self._telegram(held[p.maya_id])
        self._discord(held[p.badr_id])

    def _telegram(self, maya_holds: set[str]) -> None:
        p = self.people
        labels = {card_face(c) for c in maya_holds}
        for message in p.telegram_chat():
            new = message.versions[self.seen_telegram.get(message.message_id, 0):]
            self.seen_telegram[message.message_id] = len(message.versions)
            for version in new:
                leaked = labels_in(version.text) & labels
                assert not leaked, f"Maya's cards {sorted(leaked)} shown to Badr: {version.text!r}"
                for data in (b.callback_data or "" for row in version.buttons for b in row):
                    assert not data.startswith("b1|") or Action.decode(data).card not in maya_holds, data
                self.checked += 1

    def _discord(self, badr_holds: set[str]) -> None:
        p = self.people
        labels = {card_face(c) for c in badr_holds}
        for message in dm(p.maya):
            body = body_of(message)
            ids = " ".join(b.custom_id or "" for b in buttons(message))
            if self.seen_discord.get(message.id) == (body, ids):
                continue
            self.seen_discord[message.id] = (body, ids)
            for secret in (str(p.badr.id), str(p.badr.username)):
                assert secret not in body and secret not in ids, (body, ids)
            leaked = sorted(label for label in labels if label in BREAKDOWN_ITEM.sub("", body))
            assert not leaked, f"Badr's cards {leaked} shown to Maya:\n{body}"
            assert not any(a.card in badr_holds for a in actions(message) if a.card), ids
            self.checked += 1


@dataclass
class Players:
    """Badr and Maya at their match, each playing in their own chat: Badr with his hand
    message's buttons, Maya with the hand she opened under the table in her DM."""

    people: People
    table_id: str
    scan: Scan
    maya_hand: Readable | None = None
    plays: int = 0

    async def play_turn(self, table: TableView) -> None:
        """Whoever is to move plays their first card and confirms it."""
        people, both = self.people, self.people.both
        assert table.to_move is not None
        mover = table.seats[table.to_move].player_id
        if mover == people.badr_id:
            await both.on_telegram(lambda: both.telegram.play_any(people.badr))
        else:
            assert mover == people.maya_id
            await self.maya_plays(table)
        self.plays += 1
        await self.scan.check()

    async def maya_plays(self, table: TableView) -> None:
        both, maya = self.people.both, self.people.maya
        if self.maya_hand is None:
            opened = await click(maya, dm_table(maya), "hand")
            assert opened.ephemeral and opened.response is not None
            self.maya_hand = opened.response
        hand = self.maya_hand
        cards = [a for a in actions(hand) if a.verb == "card"]
        assert cards and all(a.version == table.version for a in cards), "Maya's hand was not kept up to date"
        await both.on_discord(lambda: maya.user.click(hand, custom_id=cards[0].encode()))
        await both.on_discord(lambda: maya.user.click(hand, custom_id=custom_id(hand, "play")))

    async def play_to_end(self, limit: int = 200) -> TableView:
        service = self.people.both.bot.service
        while (table := await service.table(self.table_id)).running:
            assert self.plays < limit, "the match does not end"
            await self.play_turn(table)
        return table


def verbs(message: FakeMessage) -> list[str]:
    return [data.split("|")[1] for data in message.button_data()]


def telegram_calls_to(people: People) -> Iterator[tuple[str, str]]:
    """Every Bot API call made to Badr (a message, an edit, a press's answer), as sent."""
    server = people.both.server
    for call in server.calls():
        to = call.params.get("chat_id")
        if "callback_query_id" in call.params:
            record = server.callback_queries.get(str(call.params["callback_query_id"]))
            to = record.user.id if record is not None else None
        if to == people.badr.id:
            yield call.method, json.dumps(call.params, ensure_ascii=False, default=str)


async def profile(people: People, player_id: str) -> PlayerProfile:
    store = people.both.host.store
    assert store is not None
    found = await store.get_player(player_id)
    assert found is not None, player_id
    return found


async def test_a_telegram_person_and_a_discord_person_play_one_rated_match_on_one_host(
    tmp_path: Path, fast_settle: None, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bots")
    async with one_host(tmp_path / "basra.sqlite3") as both:
        people = meet(both)
        badr, maya = people.badr, people.maya
        service = both.bot.service
        assert both.telegram.basra.service is service  # one service for both bots

        await both.on_telegram(lambda: both.telegram.send(badr, None, "/play"))
        looking = telegram_waiting(people)
        assert f"تصنيفك: {FIRST_RATING} (مؤقت)" in looking.text and verbs(looking) == ["unseek"]
        asked = await maya.slash(people.channel, "basra play")
        assert asked.acknowledged and asked.ephemeral
        assert "Looking for an opponent" in text_of(waiting_message(maya))

        await both.advance(WAVE)  # the next heartbeat, and the wave it runs

        status = await service.pool_status(Person(people.maya_id, "Maya"))
        assert status is not None and status.state == "seated" and status.table_id is not None
        table = await service.table(status.table_id)
        assert table.running and table.rated and not table.practice and is_pool_chat(table.chat_id)
        assert {s.player_id for s in table.seats} == {people.badr_id, people.maya_id}
        # Each is told of the other by display name only, in their own language, on the
        # message their search showed.
        found = telegram_waiting(people)
        assert found.message_id == looking.message_id
        assert found.text.startswith("وجدت لك منافسًا: \u2068Maya\u2069"), found.text
        assert f"Opponent found: \u2068{badr.first_name}\u2069" in text_of(waiting_message(maya))
        assert "My hand" in text_of(dm_table(maya))

        scan = Scan(people, table.table_id)
        await scan.check()
        players = Players(people, table.table_id, scan)
        table = await players.play_to_end()
        assert players.plays == 48  # one round: 2 × 24 cards
        assert table.status == "finished" and table.winner is not None and scan.checked > players.plays

        # Each reads the result in their own language: Badr in Arabic in his private chat,
        # Maya in English in her DM; under it, a new search and Block, never a lobby's rematch.
        telegram_result = people.telegram_chat()[-1]
        assert "انتهت المباراة" in telegram_result.text
        assert ARABIC.search(telegram_result.text.replace(badr.first_name, ""))
        assert "\u2068Maya\u2069" in telegram_result.text
        assert not LATIN.search(telegram_result.text.replace("Maya", "")), telegram_result.text
        discord_results = [m for m in dm(maya) if "The match is over" in text_of(m) and not m.flags.ephemeral]
        assert discord_results, "no result in Maya's DM"
        discord_result = text_of(discord_results[-1])
        assert f"\u2068{badr.first_name}\u2069" in discord_result
        assert not ARABIC.search(discord_result.replace(badr.first_name, "")), discord_result
        for under in (verbs(telegram_result), [a.verb for a in actions(discord_results[-1])]):
            assert {"seek", "block"} <= set(under) and "rematch" not in under, under
        assert people.channel.history() == []  # nothing of the match in the server's channel

        # The match is rated: each profile counts it, and each rating moved from a newcomer's,
        # the winner's up and the loser's down, as both results say in their own words.
        assert table.winner is not None
        winner_id = table.seats[table.winner].player_id
        loser_id = people.maya_id if winner_id == people.badr_id else people.badr_id
        winner, loser = await profile(people, winner_id or ""), await profile(people, loser_id)
        assert (winner.wins, winner.losses, loser.wins, loser.losses) == (1, 0, 0, 1)
        assert winner.rated_matches == loser.rated_matches == 1
        assert loser.rating < DEFAULT_RATING < winner.rating
        for moved in (winner, loser):
            shown = display_rating(moved.rating)
            assert f"التصنيف {FIRST_RATING} ← {shown}" in telegram_result.text
            assert f"rating {FIRST_RATING} → {shown}" in discord_result

        # Nothing of one reached the other: not in a message, an answer or a button's payload.
        checked = 0
        for method, sent in telegram_calls_to(people):
            assert str(maya.id) not in sent and "maya_hidden" not in sent, (method, sent)
            for data in re.findall(r'"callback_data": "([^"]*)"', sent):
                assert str(maya.id) not in data and str(badr.id) not in data, data
            checked += 1
        assert checked > 48
        for message in dm(maya):
            seen = text_of(message) + " ".join(b.custom_id or "" for b in buttons(message))
            assert str(badr.id) not in seen and "badr_hidden" not in seen, seen
        # Neither platform's limits were ever met.
        assert both.server.flood is not None and both.server.flood.refused == {}
        assert both.limits.log and both.limits.refused == []

    # Telegram stopped first and left the store open; the Discord bot, the last, closed it once.
    assert both.stopping == ["telegram stopped", "store closed", "discord stopped"]
    assert both.bot.is_closed() and not both.telegram.app.running
    # Nothing went wrong enough to warn about, and the bots' logs name neither person.
    for record in caplog.records:
        assert record.levelno < logging.WARNING, record.getMessage()
        if record.name.startswith("bots"):
            assert str(badr.id) not in record.getMessage() and str(maya.id) not in record.getMessage()
    assert any(r.name.startswith("bots") for r in caplog.records)
