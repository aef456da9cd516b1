"""A Telegram world for the bot's end-to-end tests: the fake server, the real Application, the bot.

``World`` starts the real python-telegram-bot Application against the fake
Bot API with the adapter and a table service on a real SQLite file, and
offers the steps a test reads as sentences: a user sends a command, presses
a button, plays a card; where is a player's hand message; what did each
person ever see.
"""

from __future__ import annotations

import random
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from telegram import Update
from telegram.ext import Application

from bots.i18n import card_face
from bots.service import ManualClock, ServiceConfig, TableView
from bots.telegram.application import BasraTelegram
from tests.fakes import ApiCall, CallbackQueryRecord, FakeChat, FakeMessage, FakeTelegram, FakeUser

AnyApplication = Application[Any, Any, Any, Any, Any, Any]
CARD_LABEL = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9AJQK])[♣♦♥♠]")
QUIET = ServiceConfig(computer_delay=0.0, warning_seconds=0, heartbeat_seconds=3600.0, language="en")


class World:
    """One bot process (Application + adapter + service) over a fake Telegram and a database."""

    def __init__(self, server: FakeTelegram, database: Path, *, clock: ManualClock | None = None,
                 seed: int = 7, config: ServiceConfig = QUIET, metrics_port: int | None = None) -> None:
        self.server = server
        self.database = database
        self.clock = clock or ManualClock()
        self.app: AnyApplication = server.application_builder().build()
        server.attach(self.app.bot)
        self.basra = BasraTelegram(
            self.app,
            database=database,
            config=config,
            clock=self.clock,
            rng=random.Random(seed),
            # The bot plans within Telegram's limits on the fake's clock (sped up or not).
            speedup=server.speedup,
            # Health and metrics on loopback (0: a free port, ``basra.metrics_server.port``).
            metrics_port=metrics_port,
        )

    async def __aenter__(self) -> World:
        await self.app.initialize()
        await self.basra.start()
        await self.basra.idle()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.basra.stop()
        await self.app.shutdown()
        if exc == (None, None, None) and self.server.flood is not None:
            # The bot planned every write within Telegram's limits: none was refused.
            assert self.server.flood.refused == {}, f"429s from flood control: {self.server.flood.refused}"

    # -- steps -----------------------------------------------------------------------

    async def deliver(self, update: Update) -> list[ApiCall]:
        calls = await self.server.deliver(self.app, update)
        await self.basra.idle()
        return calls

    async def send(self, user: FakeUser, chat: FakeChat | None, text: str) -> Update:
        update = self.server.user_sends(user, chat, text)
        await self.deliver(update)
        return update

    async def press(self, user: FakeUser, message: FakeMessage, button: str) -> Update:
        update = self.server.user_presses(user, message, button)
        await self.deliver(update)
        return update

    # -- reading what players see -------------------------------------------------------

    def hand_message(self, user: FakeUser) -> FakeMessage:
        """The user's live hand message: the newest bot message in private with card buttons."""
        chat = self.server.private_chat(user)
        hands = [m for m in self.server.messages(chat, bot_only=True)
                 if any(d.startswith(("b1|card|", "b1|play|", "b1|back|")) for d in m.button_data())]
        assert hands, f"{user} has no hand message"
        return hands[-1]

    def latest_private(self, user: FakeUser) -> FakeMessage:
        """The newest bot message in the user's private chat (a hand, or the line it became)."""
        messages = self.server.messages(self.server.private_chat(user), bot_only=True)
        assert messages, f"{user} got nothing in private"
        return messages[-1]

    def hand_messages(self, user: FakeUser) -> list[FakeMessage]:
        chat = self.server.chats.get(user.id)
        if chat is None:
            return []
        return [m for m in self.server.messages(chat, bot_only=True)
                if any(d.startswith(("b1|card|", "b1|play|", "b1|back|")) for d in m.button_data())]

    def buttons(self, message: FakeMessage, verb: str) -> list[str]:
        return buttons_with(message, verb)

    async def forge(self, user: FakeUser, message: FakeMessage, data: str) -> Update:
        """A press carrying ``data`` that no button shows (an old keyboard, a doctored client)."""
        query_id = self.server.new_query_id()
        update = self.server._produce({"callback_query": {
            "id": query_id, "from": user.to_api(), "message": message.to_api(),
            "chat_instance": "1", "data": data}})
        self.server.callback_queries[query_id] = CallbackQueryRecord(
            query_id, user, message, data, update.update_id)
        await self.deliver(update)
        return update

    async def press_verb(self, user: FakeUser, message: FakeMessage, verb: str, index: int = 0) -> Update:
        """Press the ``index``-th button with ``verb`` as the message shows it now."""
        return await self.press(user, message, self.buttons(message, verb)[index])

    async def play_any(self, user: FakeUser) -> None:
        """Press the first card of the user's hand, then confirm: with Play when the preview is
        drawn in the hand, or with the same card again when the press's answer told it (a
        match played in a private chat)."""
        for _ in range(6):  # a preview lost to a flood error is pressed again, as a person would
            hand = self.hand_message(user)
            if self.buttons(hand, "play"):  # a preview is open: confirm it
                await self.press(user, hand, self.buttons(hand, "play")[0])
                return
            if self.buttons(hand, "card"):
                card = self.buttons(hand, "card")[0]
                pressed = await self.press(user, hand, card)
                if told_preview(self.server, pressed) and card in hand.button_data():
                    await self.press(user, hand, card)
                    return
            else:
                await self.press(user, hand, self.buttons(hand, "back")[0])
        raise AssertionError(f"{user} cannot get a preview to confirm")

    async def table(self, chat: FakeChat) -> TableView | None:
        current = await self.basra.service.open_table(f"tg:{chat.id}")
        return current if isinstance(current, TableView) else None

    async def finished(self, chat: FakeChat) -> TableView:
        """The chat's last match, once it is over."""
        assert await self.table(chat) is None, "the match is still running"
        table_id = self.last_table_id(chat)
        return await self.basra.service.table(table_id)

    def last_table_id(self, chat: FakeChat) -> str:
        for message in reversed(self.server.messages(chat, bot_only=True)):
            for version in reversed(message.versions):
                for row in version.buttons:
                    for button in row:
                        data = button.callback_data or ""
                        if data.startswith("b1|") and data.split("|")[2]:
                            return data.split("|")[2]
        raise AssertionError(f"no table buttons in {chat}")

    async def play_out(self, chat: FakeChat, users: dict[str, FakeUser], *, limit: int = 2000) -> int:
        """Play the chat's match to its end by pressing buttons; returns the number of plays."""
        plays = 0
        while (table := await self.table(chat)) is not None and table.running:
            assert table.to_move is not None
            mover = table.seats[table.to_move].player_id
            assert mover is not None, "a computer's turn was left waiting"
            await self.play_any(users[mover])
            plays += 1
            assert plays < limit, "the match does not end"
        return plays


def told_preview(server: FakeTelegram, pressed: Update) -> bool:
    """Whether a card's press was answered with its preview (a toast that says a second press
    plays it), the hand left as it was."""
    answer = server.callback_answer(pressed)
    return answer is not None and not answer.show_alert and bool(answer.text) and (
        "again to play it" in (answer.text or "") or "مرة أخرى لتلعبها" in (answer.text or ""))


def buttons_with(message: FakeMessage, verb: str) -> list[str]:
    """callback_data of the message's buttons with ``verb``."""
    return [d for d in message.button_data() if d.split("|")[1:2] == [verb]]


POINT_ITEMS = re.compile("\u2066?(?:2♣|10♦)\u2069? \\d+(?![♣♦♥♠\\d])")


def labels_in(text: str) -> set[str]:
    """Card labels in a text, leaving out the score items named after a card ("2♣ 2", "10♦ 3")."""
    return set(CARD_LABEL.findall(POINT_ITEMS.sub("", text)))


@asynccontextmanager
async def running(server: FakeTelegram, database: Path, **kwargs: Any) -> AsyncIterator[World]:
    async with World(server, database, **kwargs) as world:
        yield world


def ids(*users: FakeUser) -> dict[str, FakeUser]:
    return {f"tg:{u.id}": u for u in users}


class HandLedger:
    """Every human hand the service handed out, with when: to prove no card leaked.

    A card label shown in a group, or in a private chat other than its
    holder's, while that card was in a person's hand is a leak, unless the
    same action made it public (the closing picture of a round names its last
    play and the leftovers on its floor, whose cards may already be dealt
    again for the next round).
    """

    def __init__(self) -> None:
        self.snapshots: list[tuple[float, dict[str, frozenset[str]], frozenset[str]]] = []
        self._hands: dict[str, frozenset[str]] = {}

    @classmethod
    def watch(cls, world: World) -> HandLedger:
        ledger = cls()
        delivery = world.basra.delivery
        original = delivery.deliver

        async def deliver(notices: Any) -> None:
            public: set[str] = set()
            for notice in notices:
                hand = getattr(notice, "hand", None)
                if hand is not None:
                    ledger._hands[hand.player_id] = frozenset(card_face(c) for c in hand.hand)
                table = getattr(notice, "table", None)
                if table is not None and table.last_play is not None:
                    play = table.last_play
                    public.update(card_face(c) for c in (play.card, *play.taken))
                if table is not None and table.round_close is not None:
                    public.update(card_face(c) for c in table.round_close.leftovers)
            ledger.snapshots.append((time.perf_counter(), dict(ledger._hands), frozenset(public)))
            await original(notices)

        delivery.deliver = deliver  # type: ignore[method-assign]
        return ledger

    def at(self, when: float) -> tuple[dict[str, frozenset[str]], frozenset[str]]:
        current: tuple[dict[str, frozenset[str]], frozenset[str]] = ({}, frozenset())
        for at, hands, public in self.snapshots:
            if at > when:
                break
            current = (hands, public)
        return current

    def assert_no_leak(self, server: FakeTelegram, group: FakeChat | None, users: list[FakeUser]) -> None:
        checked = 0
        chats: list[tuple[FakeChat, str | None]] = []
        if group is not None:
            chats.append((group, None))
        chats += [(server.private_chat(u), f"tg:{u.id}") for u in users if u.id in server.chats]
        for chat, owner in chats:
            for message in chat.messages.values():
                if not message.from_bot:
                    continue
                for version in message.versions:
                    hands, public = self.at(version.at)
                    others = set().union(*(h for p, h in hands.items() if p != owner)) if hands else set()
                    leaked = (labels_in(version.text) & others) - public
                    assert not leaked, f"{sorted(leaked)} in another's hand shown in {chat}: {version.text!r}"
                    checked += 1
        assert checked and self.snapshots, "nothing was checked"


async def start_match(world: World, group: FakeChat, alice: FakeUser, badr: FakeUser) -> TableView:
    """Alice opens a 1-v-1 lobby in the group, Badr joins, Alice starts: the table."""
    await world.send(alice, group, "/newgame")
    lobby = world.server.last_message(group)
    await world.press_verb(badr, lobby, "join")
    await world.press_verb(alice, lobby, "start")
    table = await world.table(group)
    assert table is not None
    return table


def to_move(table: TableView, alice: FakeUser, badr: FakeUser) -> FakeUser:
    """Which of the two players is to move."""
    assert table.to_move is not None
    return alice if table.seats[table.to_move].player_id == f"tg:{alice.id}" else badr
