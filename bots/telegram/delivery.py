"""The outbound half of the adapter: the service's notices become Telegram messages.

Which message shows what:

- the lobby: one message in the chat, edited in place until it closes;
- the table: one message per round in the chat, edited in place;
- round and match results: their own messages;
- each person's hand: one live message per match in their private chat. When
  their turn comes a new hand message is sent (an edit does not notify on
  Telegram) and the old one deleted, so there is always exactly one.

Hand messages go only to the private chat of the seat's own player: that is
checked here, on every send and edit, whatever the caller asked.

A basic group that becomes a supergroup gets a new id (``moves``): group
messages go under the new id, and one refused with it is sent there at once.

References to these messages are kept with the table (``service.remember``),
so a restarted bot edits the same messages. They are written in the
background: ``deliver`` runs while the service holds the table's delivery
lock, and must not wait on anything that waits for that table.
"""

from __future__ import annotations

import asyncio
import html
import logging
from collections.abc import Coroutine, Sequence
from dataclasses import dataclass, field
from typing import Any

from telegram import InlineKeyboardButton

from ..i18n import Translator, translator, user_text
from ..render import Rendered, render_hand, render_hint, render_notice, render_turn_notice
from ..service import (
    ClockWarning,
    HandUpdated,
    HandView,
    HintView,
    LobbyClosed,
    LobbyUpdated,
    MatchEnded,
    Notice,
    RoundEnded,
    TableService,
    TableUpdated,
    YourTurn,
    raw_id,
)
from .keyboards import StartPayload, deep_link, keyboard
from .moves import ChatMoves
from .outbox import Content, Outbox, Outcome, Retrier, Sent

log = logging.getLogger(__name__)

HAND_KEY = "hand:"
NOTE_KEY = "note:"


def chat_number(namespaced: str) -> int:
    """The Telegram chat (or user) id inside a service id: ``"tg:-100123"`` → -100123."""
    return int(raw_id(namespaced))


def is_private(chat_id: str) -> bool:
    return chat_number(chat_id) > 0


@dataclass
class TableRefs:
    """The messages of one table, as far as this process knows them."""

    values: dict[str, Any] = field(default_factory=dict)
    loaded: bool = False
    locks: dict[str, asyncio.Lock] = field(default_factory=dict)

    def lock(self, key: str) -> asyncio.Lock:
        """One lock per message kind (the lobby, the table, each hand): they change independently."""
        found = self.locks.get(key)
        if found is None:
            found = self.locks[key] = asyncio.Lock()
        return found


def hand_content(hand: HandView, t: Translator, *, header: Rendered | None = None,
                 hint: HintView | None = None) -> Content:
    """A hand message: the hand (or the hint above it), with the turn notice on top when given."""
    rendered = render_hint(hint, t) if hint is not None else render_hand(hand, t)
    text = rendered.text if header is None else header.text + rendered.text
    return Content(text.html(), keyboard(rendered.buttons))


def content_of(rendered: Rendered) -> Content:
    return Content(rendered.text.html(), keyboard(rendered.buttons))


class Delivery:
    """``Platform`` for the table service: ``deliver`` puts notices on Telegram."""

    name = "tg"

    def __init__(self, outbox: Outbox, retrier: Retrier) -> None:
        self.outbox = outbox
        self.retrier = retrier
        self._service: TableService | None = None
        self.bot_username = ""
        self._refs: dict[str, TableRefs] = {}
        self._writes: set[asyncio.Task[None]] = set()
        self._writers: dict[str, asyncio.Task[None]] = {}
        self._pending: dict[str, dict[str, Any]] = {}
        #: Telegram user ids the bot could not write to (never started, blocked).
        self.unreachable: set[int] = set()
        #: Users the bot has written to in private, so it need not check again.
        self.reachable: set[int] = set()
        self._warnings: dict[tuple[str, str], int] = {}
        self.moves = ChatMoves(lambda: self.service, self._background)
        outbox.on_moved = self.moves.refused

    # -- wiring ------------------------------------------------------------------------

    @property
    def service(self) -> TableService:
        if self._service is None:
            raise RuntimeError("the Telegram adapter is not connected to a table service yet")
        return self._service

    def connect(self, service: TableService) -> None:
        self._service = service

    async def flush(self) -> None:
        """Wait until every message reference is stored and every chat moved (before closing
        the service)."""
        while self._writes:
            await asyncio.gather(*list(self._writes), return_exceptions=True)

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    # -- message references ------------------------------------------------------------

    async def refs(self, table_id: str) -> TableRefs:
        refs = self._refs.get(table_id)
        if refs is None:
            refs = self._refs[table_id] = TableRefs()
        if not refs.loaded:
            try:
                stored = await self.service.recall(table_id)
            except Exception:
                log.exception("could not read the message references of table %s", table_id)
                stored = {}
            for key, value in stored.items():
                refs.values.setdefault(key, value)
            refs.loaded = True
        return refs

    def keep(self, table_id: str, refs: TableRefs, key: str, value: Any) -> None:
        """Note a reference now, and store it in the background.

        One writer per table stores the newest value of each key; values that
        were replaced before their turn to be written are never written.
        """
        refs.values[key] = value
        pending = self._pending.setdefault(table_id, {})
        pending[key] = value
        if table_id in self._writers:
            return

        async def write() -> None:
            try:
                while queued := self._pending.get(table_id):
                    name, latest = next(iter(queued.items()))
                    del queued[name]
                    try:
                        await self.service.remember(table_id, name, latest)
                    except Exception:
                        log.exception("could not store a message reference of table %s", table_id)
            finally:
                self._pending.pop(table_id, None)
                self._writers.pop(table_id, None)

        task = asyncio.get_running_loop().create_task(write())
        self._writers[table_id] = task
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    # -- Platform ----------------------------------------------------------------------

    async def deliver(self, notices: Sequence[Notice]) -> None:
        """Show one action's notices. The chat's messages keep their order, and so do each
        player's; the chat and the players' private chats are served side by side."""
        turns = {n.player_id for n in notices if isinstance(n, YourTurn)}
        lanes: dict[str | None, list[Notice]] = {}
        for notice in notices:
            lanes.setdefault(None if notice.public else notice.player_id, []).append(notice)
        if len(lanes) == 1:
            await self._lane(notices, turns)
        else:
            await asyncio.gather(*(self._lane(lane, turns) for lane in lanes.values()))

    async def _lane(self, notices: Sequence[Notice], turns: set[str]) -> None:
        for notice in notices:
            try:
                await self._one(notice, turns)
            except Exception:
                log.exception("could not show a %s notice of table %s", notice.kind, notice.table_id)

    async def _one(self, notice: Notice, turns: set[str]) -> None:
        if isinstance(notice, LobbyUpdated | LobbyClosed):
            content = content_of(render_notice(notice))
            await self.show_public(notice.table_id, notice.chat_id, "lobby", content)
        elif isinstance(notice, TableUpdated):
            await self.show_table(notice)
        elif isinstance(notice, RoundEnded | MatchEnded):
            await self.post(notice.chat_id, content_of(render_notice(notice)),
                            key=(notice.table_id, notice.kind, _result_key(notice)))
        elif isinstance(notice, HandUpdated):
            if notice.player_id not in turns:
                await self.show_hand(notice.hand, notice.lang)
        elif isinstance(notice, YourTurn):
            header = render_turn_notice(notice, translator(notice.lang))
            await self.show_hand(notice.hand, notice.lang, fresh=True, header=header)
        elif isinstance(notice, ClockWarning):
            await self.warn(notice)

    # -- public messages ---------------------------------------------------------------

    async def send(self, chat: int, content: Content, *, silent: bool = False) -> tuple[int, Sent]:
        """Send to a chat where it is now, following a group to its supergroup if Telegram
        says it moved; returns the chat it went to."""
        chat = self.moves.where(chat)
        sent = await self.outbox.send(chat, content, silent=silent)
        if sent.outcome is Outcome.MOVED and sent.moved_to is not None:
            chat = sent.moved_to
            sent = await self.outbox.send(chat, content, silent=silent)
        return chat, sent

    async def show_public(self, table_id: str, chat_id: str, key: str, content: Content,
                          *, round_no: int | None = None) -> None:
        """Edit the table's ``key`` message (lobby, table of this round), or post it. In a
        group that became a supergroup it is posted afresh: old messages are not editable there."""
        refs = await self.refs(table_id)
        async with refs.lock(key):
            chat = self.moves.where(chat_number(chat_id))
            ref = refs.values.get(key)
            if ref is not None and ref[0] == chat and (round_no is None or ref[2] == round_no):
                sent = await self.outbox.edit(chat, ref[1], content)
                if sent.outcome not in (Outcome.GONE, Outcome.MOVED):
                    self._after(sent, ("public", table_id, key), lambda: self._repair_public(table_id, key))
                    return
            chat, sent = await self.send(chat, content, silent=key == "table")
            if sent.message_id is not None:
                self.keep(table_id, refs, key, [chat, sent.message_id, round_no])
            self._after(sent, ("public", table_id, key), lambda: self._repair_public(table_id, key))

    async def show_table(self, notice: TableUpdated) -> None:
        table = notice.table
        await self.show_public(table.table_id, table.chat_id, "table", content_of(render_notice(notice)),
                               round_no=table.round_no)

    async def post(self, chat_id: str, content: Content, *, key: tuple[Any, ...]) -> None:
        """A message of its own (a result); if Telegram refuses for now, it is sent later."""
        chat = chat_number(chat_id)
        _, sent = await self.send(chat, content)

        async def again() -> bool:
            return (await self.send(chat, content))[1].outcome.ok

        self._after(sent, ("post", *key), again)

    async def _repair_public(self, table_id: str, key: str) -> bool:
        """Redraw a lobby or table message from a fresh view."""
        if key == "lobby":
            lobby = await self.service.lobby(table_id)
            lang = await self.service.language(lobby.chat_id)
            notice: Notice = LobbyUpdated(lobby, lang)
            content = content_of(render_notice(notice))
            await self.show_public(table_id, lobby.chat_id, "lobby", content)
        else:
            table = await self.service.table(table_id)
            lang = await self.service.language(table.chat_id)
            await self.show_table(TableUpdated(table, lang))
        return True

    def _after(self, sent: Sent, key: tuple[Any, ...], repair: Any) -> None:
        """Hand a failed call to the retrier (a blocked chat is not retried)."""
        if sent.outcome is Outcome.FAILED:
            log.warning("Telegram refused %s for now; retrying later", key[0])
            self.retrier.schedule(key, repair, delay=sent.retry_after or None)

    # -- private messages --------------------------------------------------------------

    async def show_hand(self, hand: HandView, lang: str, *, fresh: bool = False,
                        header: Rendered | None = None, from_message: int | None = None,
                        hint: HintView | None = None) -> Outcome:
        """Edit the player's hand message, or (``fresh``) send a new one and delete the old.

        ``from_message`` is a hand message the player just pressed: it becomes
        the live one if it was not already.
        """
        user = chat_number(hand.player_id)
        key = HAND_KEY + hand.player_id
        t = translator(lang)
        content = hand_content(hand, t, header=header, hint=hint)
        refs = await self.refs(hand.table_id)
        async with refs.lock(key):
            ref = refs.values.get(key)
            if ref is not None and ref[2] > hand.version:
                return Outcome.UNCHANGED  # a newer hand is already shown
            if fresh and header is not None and ref is not None and ref[2] == hand.version:
                fresh = False  # this turn was announced already (a restart redraws it in place)
            target = from_message if from_message is not None else (ref[1] if ref else None)
            if target is not None and not fresh:
                sent = await self.outbox.edit(user, target, content)
                if sent.outcome.ok:
                    if ref is None or ref[1] != target:
                        self.keep(hand.table_id, refs, key, [user, target, hand.version])
                    else:
                        ref[2] = hand.version  # the shown version need not be stored
                    self.reachable.add(user)
                    return sent.outcome
                if sent.outcome is not Outcome.GONE:
                    return self._hand_failed(sent, hand, lang)
            sent = await self.outbox.send(user, content)
            if sent.message_id is None:
                return self._hand_failed(sent, hand, lang)
            self.reachable.add(user)
            self.unreachable.discard(user)
            self.keep(hand.table_id, refs, key, [user, sent.message_id, hand.version])
            old = [m for m in (target, ref[1] if ref else None) if m is not None and m != sent.message_id]
            warning = self._warnings.pop((hand.table_id, hand.player_id), None)
            for message_id in {*old, *([warning] if warning else [])}:
                await self.outbox.delete(user, message_id)
            return Outcome.DONE

    def _hand_failed(self, sent: Sent, hand: HandView, lang: str) -> Outcome:
        if sent.outcome is Outcome.BLOCKED:
            user = chat_number(hand.player_id)
            self.unreachable.add(user)
            self.reachable.discard(user)
            if not is_private(hand.table.chat_id):
                self._background(self.note_unreachable(hand))
        elif sent.outcome is Outcome.FAILED:
            self.retrier.schedule(("hand", hand.table_id, hand.player_id),
                                  lambda: self._repair_hand(hand.table_id, hand.player_id),
                                  delay=sent.retry_after or None)
        return sent.outcome

    async def _repair_hand(self, table_id: str, player_id: str) -> bool:
        hand = await self.service.hand(table_id, player_id)
        lang = await self.service.language(hand.table.chat_id)
        outcome = await self.show_hand(hand, lang, fresh=hand.your_turn)
        return outcome is not Outcome.FAILED

    async def note_unreachable(self, hand: HandView) -> None:
        seat = hand.table.seat_of(hand.player_id)
        name = seat.name if seat is not None and seat.name else "?"
        await self.note(hand.table_id, hand.table.chat_id, hand.player_id, name)

    async def note(self, table_id: str, chat_id: str, player_id: str, name: str) -> None:
        """Tell the group, once per table, that this player must open the bot to get their cards."""
        refs = await self.refs(table_id)
        key = NOTE_KEY + player_id
        if refs.values.get(key):
            return
        refs.values[key] = [0, 0]
        t = translator(await self.service.language(chat_id))
        text = t.gettext(
            "{name}, I cannot send you your cards yet. Press “Open my hand” and then Start: "
            "your hand arrives at once.", name=user_text(name))
        button = InlineKeyboardButton(t.gettext("🂠 Open my hand"),
                                      url=deep_link(self.bot_username, StartPayload("hand", table_id)))
        content = Content(_escape(text), keyboard((), [[button]]))
        chat, sent = await self.send(chat_number(chat_id), content)
        if sent.message_id is not None:
            self.keep(table_id, refs, key, [chat, sent.message_id])
        else:
            del refs.values[key]

    async def clear_note(self, table_id: str, player_id: str) -> None:
        refs = await self.refs(table_id)
        ref = refs.values.get(NOTE_KEY + player_id)
        if ref and ref[1]:
            await self.outbox.delete(ref[0], ref[1])
            self.keep(table_id, refs, NOTE_KEY + player_id, None)

    async def warn(self, notice: ClockWarning) -> None:
        user = chat_number(notice.player_id)
        sent = await self.outbox.send(user, content_of(render_notice(notice)))
        if sent.message_id is not None:
            old = self._warnings.pop((notice.table_id, notice.player_id), None)
            if old is not None:
                await self.outbox.delete(user, old)
            self._warnings[(notice.table_id, notice.player_id)] = sent.message_id


def _result_key(notice: RoundEnded | MatchEnded) -> int:
    return notice.result.round_no if isinstance(notice, RoundEnded) else 0


def _escape(text: str) -> str:
    return html.escape(text, quote=False)
