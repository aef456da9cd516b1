"""The outbound half of the adapter: the service's notices become writes, planned within
Telegram's limits (``bots.outbound``, ``limits``).

Which message shows what:

- the lobby: one message in the chat, edited in place; when the match starts
  it becomes the first round's table (one write, not two);
- the table: one message per round, edited in place. A new round's message
  opens with the last round's result, so a round change costs one write; the
  old round's message gets its closing picture right after. In a private chat
  (practice) the round's message shows no floor and is not edited while the round
  is played: the hand below shows the floor (``hands``), and a chat there takes
  about one write a second;
- the match's end: the last table, the round's result and the match result in
  one edit;
- each person's hand (``hands``): a new message when their turn comes, which
  notifies; once played it becomes a short line, so no old hand keeps buttons;
- a match the pairing pool seated has no chat (``strangers``): each person plays it in
  their private chat, where its round ends and result are posted; the pool's waiting
  messages are edited there too (``tell_pool``).

``deliver`` only queues (the table's lock is held): each message has at most
one write pending, the newest, and the dispatcher sends it when the chat's
budget allows. What a write sends is decided when it runs, from the message
references as they are then. References are kept in delivery's own rows of the store
(``bots.outbound.refs``), so a restarted bot edits the same messages.

A basic group that becomes a supergroup gets a new id (``moves``): group
messages go under the new id, and one refused with it is sent there at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Hashable, Sequence
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from ..i18n import translator
from ..outbound import SENT, SKIPPED, Dispatcher, Outcome, Write
from ..outbound.refs import MessageRefs, TableRefs
from ..render import Rendered, render_notice, render_round_start, stacked
from ..render.pool import with_seek
from ..service import (
    ClockWarning,
    Connected,
    HandUpdated,
    LobbyClosed,
    LobbyUpdated,
    MatchEnded,
    Notice,
    RoundEnded,
    TableSetAside,
    TableUpdated,
    TableView,
    YourTurn,
    is_pool_chat,
)
from ..service.records import RecordFile
from .contents import (
    ASIDE,
    FIRST,
    REPLY,
    TABLE,
    TIDY,
    chat_number,
    content_of,
    in_group,
    is_private,
    outcome_of,
)
from .hands import HandMessages
from .keyboards import keyboard
from .moves import ChatMoves
from .outbox import Content, Outbox, Sent
from .outbox import Outcome as Sent_
from .strangers import StrangerMessages

log = logging.getLogger(__name__)
#: How long a practice match's lobby waits before it is sent: the match starts at once, and
#: its first round's message is sent in its place.
PRACTICE_LOBBY_HOLD = 1.0
#: The mark a practice round's message reference carries: it shows no floor.
FLOORLESS = 1


def _floorless(ref: Any) -> bool:
    """Whether a round's message reference (``[chat, message, round, …]``) is of a message
    that shows no floor (a practice round's)."""
    return len(ref) > 3 and ref[3] == FLOORLESS


class Delivery(HandMessages, StrangerMessages, Connected):
    """``Platform`` (and ``PoolPlatform``) for the table service: ``deliver`` puts notices
    on Telegram, ``tell_pool`` edits waiting messages."""

    name = "tg"

    def __init__(self, outbox: Outbox, dispatcher: Dispatcher) -> None:
        #: ``"tg:<bot id>"`` once the bot knows who it is (``BasraTelegram.start``).
        self.owner = self.name
        self.outbox = outbox
        self.dispatcher = dispatcher
        self.bot_username = ""
        #: Where each table's messages are: delivery's own rows of the store (``attach``ed at start).
        self.messages = MessageRefs()
        self._writes: set[asyncio.Task[None]] = set()
        self.moves = ChatMoves(lambda: self.service, self._background)
        outbox.on_moved = self.moves.refused
        HandMessages.__init__(self)
        StrangerMessages.__init__(self)

    # -- wiring ------------------------------------------------------------------------

    async def flush(self) -> None:
        """Wait until every message reference is stored and every chat moved (before closing
        the service)."""
        while self._writes:
            await asyncio.gather(*list(self._writes), return_exceptions=True)
        await self.messages.flush()

    def _background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    # -- message references ------------------------------------------------------------

    async def refs(self, table_id: str) -> TableRefs:
        return await self.messages.of(table_id)

    def keep(self, table_id: str, key: str, value: Any) -> None:
        """Note a reference now, and store it in the background (``bots.outbound.refs``)."""
        self.messages.keep(table_id, key, value)

    # -- Platform ----------------------------------------------------------------------

    async def deliver(self, notices: Sequence[Notice]) -> None:
        """Queue one action's notices (called under the table's lock: nothing here waits
        for Telegram)."""
        if not notices:
            return
        if is_pool_chat(notices[0].chat_id):
            await self.deliver_strangers(notices)
            return
        table_id = notices[0].table_id
        refs = await self.refs(table_id)
        round_result = next((n for n in notices if isinstance(n, RoundEnded)), None)
        match_result = next((n for n in notices if isinstance(n, MatchEnded)), None)
        if round_result is not None and match_result is None:
            # Shown above the next round's table: kept with the table, so a restart keeps it.
            html = content_of(render_notice(round_result)).html
            closing = next((n for n in notices if isinstance(n, TableUpdated)
                            and n.table.round_close is not None
                            and n.table.round_no == round_result.result.round_no), None)
            if closing is not None and is_private(closing.table.chat_id):
                # In a private chat (practice) the hands flow below the round's first message,
                # out of sight: the new round's message carries the closing picture too (the
                # last plays, who took the leftovers), then the points.
                html = content_of(stacked(render_notice(closing), render_notice(round_result))).html
            self.keep(table_id, "round_result", {"round": round_result.result.round_no, "html": html})
        has_table = any(isinstance(n, TableUpdated) for n in notices)
        starting = any(isinstance(n, LobbyClosed) and n.reason == "started" for n in notices)
        turns = {n.player_id for n in notices if isinstance(n, YourTurn)}
        if round_result is not None or match_result is not None:
            self.end_folds(table_id, refs, match_over=match_result is not None)
        for notice in notices:
            try:
                await self._queue(notice, refs, round_result, match_result, has_table, turns, starting)
            except Exception:
                log.exception("could not queue a %s notice of table %s", notice.kind, table_id)
        if match_result is not None and refs.values.get("round_result") is not None:
            self.keep(table_id, "round_result", None)

    async def _queue(self, notice: Notice, refs: TableRefs, round_result: RoundEnded | None,
               match_result: MatchEnded | None, has_table: bool, turns: set[str],
               starting: bool) -> None:
        if isinstance(notice, LobbyUpdated):
            self.show_lobby(notice.table_id, notice.chat_id, refs, content_of(render_notice(notice)),
                            notice.lobby.revision)
        elif isinstance(notice, LobbyClosed):
            if notice.reason == "started" and has_table:
                # The lobby message becomes the first round's table: one write, not two.
                self.dispatcher.cancel(self._group(notice.chat_id), ("lobby", notice.table_id))
            else:
                self.show_lobby(notice.table_id, notice.chat_id, refs, content_of(render_notice(notice)),
                                notice.lobby.revision, edit_only=True)
        elif isinstance(notice, TableUpdated):
            self._table(notice, refs, round_result, match_result)
        elif isinstance(notice, MatchEnded) and not has_table:
            self.post(notice.chat_id, content_of(render_notice(notice)), key=(notice.table_id, "match"),
                      table_id=notice.table_id)
        elif isinstance(notice, HandUpdated):
            if notice.player_id not in turns:
                await self.hand_changed(refs, notice.hand, notice.lang, starting=starting,
                                        round_over=round_result is not None)
        elif isinstance(notice, YourTurn):
            await self.turn(refs, notice)
        elif isinstance(notice, ClockWarning):
            self.warn(notice)
        elif isinstance(notice, TableSetAside):
            self.post(notice.chat_id, content_of(render_notice(notice)), key=(notice.table_id, "set aside"),
                      table_id=notice.table_id)

    def _table(self, notice: TableUpdated, refs: TableRefs, round_result: RoundEnded | None,
               match_result: MatchEnded | None) -> None:
        table = notice.table
        drawn = render_notice(notice)
        result = round_result if round_result is not None and \
            round_result.result.round_no == table.round_no else None
        practice = is_private(table.chat_id)
        if table.running and table.round_close is not None:
            if practice:
                # The round's message shows no floor, so nothing on it went stale: the next
                # round's message opens with this closing picture and the points.
                return
            # The closing picture of a round the match goes on after, with its result.
            parts = [drawn, *([render_notice(result)] if result else [])]
            self._closing(table.table_id, table.chat_id, refs, table.round_no,
                          content_of(stacked(*parts)), table.version)
            return
        if table.running and practice:
            self._practice_round(notice, refs)
            return
        if table.running:
            content = self._with_last_round(self._table_content(drawn, table, notice.lang), table, refs)
        else:
            ends = [render_notice(n) for n in (result, match_result) if n is not None]
            content = content_of(stacked(drawn, *ends))
            if is_private(table.chat_id) and ends:
                # Practice: the hands flow below the round's message, out of sight. It keeps
                # its last picture; the end (the points, the result, Rematch and Record, and
                # a search for someone online) comes as a message of its own below the last
                # hand, where the player looks.
                self.show_table(table.table_id, table.chat_id, refs, content_of(drawn), table.round_no,
                                table.version)
                end = stacked(drawn, *ends)
                if match_result is not None and match_result.result.reason != "expired":
                    end = with_seek(end, translator(match_result.lang))
                self.post(table.chat_id, content_of(end), key=(table.table_id, "match end"),
                          table_id=table.table_id)
                return
        self.show_table(table.table_id, table.chat_id, refs, content, table.round_no, table.version)

    def _practice_round(self, notice: TableUpdated, refs: TableRefs) -> None:
        """A running practice round in a private chat: its message says which round it is,
        the score and who plays, without the floor, which the hand below shows (``hands``). It
        is written when the round starts (the first round's takes the lobby's place; a later
        one opens with the last round's end, which the player reads first) and not again
        while the round is played, so a play costs the chat no write for it. It goes before
        the hand the same play brings, at the pace of the match's other writes there."""
        table = notice.table
        shown = refs.values.get("table")
        if shown and shown[2] == table.round_no and _floorless(shown):
            return  # this round's message is out already: it says nothing the plays change
        # (A round's message that shows a floor, drawn before practice rounds' messages had
        # none, is drawn again once without it.)
        content = content_of(render_round_start(table, translator(notice.lang)))
        self.show_table(table.table_id, table.chat_id, refs, self._with_last_round(content, table, refs),
                        table.round_no, table.version, order=FIRST, floorless=True)

    @staticmethod
    def _with_last_round(content: Content, table: TableView, refs: TableRefs) -> Content:
        """A round's first message opens with how the last round ended, when it is kept."""
        last = refs.values.get("round_result")
        if isinstance(last, dict) and last.get("round") == table.round_no - 1:
            return Content(f"{last['html']}\n\n{content.html}", content.markup)
        return content

    def _table_content(self, drawn: Rendered, table: TableView, lang: str) -> Content:
        """A running round's table, with a link to watch it live (``bots.web``) in a group."""
        if self.web is None or is_private(table.chat_id) or table.round_close is not None:
            return content_of(drawn)
        # TRANSLATORS: link under the group's table: the table as a live web page, read only.
        watch = InlineKeyboardButton(translator(lang).gettext("👀 Watch live"),
                                     url=self.web.watch_url(table.table_id))
        return Content(drawn.text.html(), keyboard(drawn.buttons, [[watch]]))

    # -- public messages ---------------------------------------------------------------

    def _group(self, chat_id: str) -> int:
        return self.moves.where(chat_number(chat_id))

    async def send(self, chat: int, content: Content, *, silent: bool = False,
                   reply_to: int | None = None) -> tuple[int, Sent]:
        """Send to a chat where it is now, following a group to its supergroup if Telegram
        says it moved; returns the chat it went to."""
        chat = self.moves.where(chat)
        sent = await self.outbox.send(chat, content, silent=silent, reply_to=reply_to)
        if sent.outcome is Sent_.MOVED and sent.moved_to is not None:
            chat = sent.moved_to
            sent = await self.outbox.send(chat, content, silent=silent)
        return chat, sent

    def undelivered(self) -> set[str]:
        """The tables with a write still to go (``Platform.undelivered``)."""
        return self.dispatcher.pending_scopes()

    def put(self, key: Hashable, chat: int, run: Callable[[], Awaitable[Outcome]], *,
            stamp: tuple[int, ...] = (), urgent: bool = False, order: int = TABLE,
            label: str = "message", scope: str | None = None, lock: Hashable | None = None,
            after: float = 0.0) -> bool:
        return self.dispatcher.put(Write(key, chat, run, stamp, urgent, order, label, scope, lock, after))

    def show_lobby(self, table_id: str, chat_id: str, refs: TableRefs, content: Content, revision: int,
                   *, edit_only: bool = False) -> None:
        """Edit the lobby message, or post it."""

        async def run() -> Outcome:
            chat = self._group(chat_id)
            ref = refs.values.get("lobby")
            if ref is not None and ref[0] == chat:
                sent = await self.outbox.edit(chat, ref[1], content)
                if sent.outcome not in (Sent_.GONE, Sent_.MOVED):
                    return outcome_of(sent)
            if edit_only:
                return SKIPPED
            chat, sent = await self.send(chat, content)
            if sent.message_id is not None:
                self.keep(table_id, "lobby", [chat, sent.message_id])
            return outcome_of(sent)

        # A lobby in a private chat is a practice match's, which starts at once: its first round's
        # message takes its place before it goes, if it comes within the hold (one write, not two).
        hold = PRACTICE_LOBBY_HOLD if is_private(chat_id) and not edit_only else 0.0
        self.put(("lobby", table_id), self._group(chat_id), run, stamp=(revision,), label="lobby",
                 scope=table_id, after=hold)

    def show_table(self, table_id: str, chat_id: str, refs: TableRefs, content: Content, round_no: int,
                   version: int, *, urgent: bool = False, order: int | None = None,
                   floorless: bool = False) -> None:
        """Edit the round's table message, or post it (the first round's takes over the lobby
        message). In a group that became a supergroup it is posted afresh: old messages are
        not editable there. ``floorless``: a practice round's message (``_practice_round``),
        which its reference says once it shows it."""
        marks = [FLOORLESS] if floorless else []

        async def run() -> Outcome:
            chat = self._group(chat_id)
            ref = refs.values.get("table")
            if ref is not None and ref[0] == chat and ref[2] == round_no:
                if marks and _floorless(ref):
                    return SKIPPED  # the round's message went out meanwhile: nothing new to say
                sent = await self.outbox.edit(chat, ref[1], content)
                if sent.outcome.ok and marks:
                    self.keep(table_id, "table", [*ref[:3], *marks])
                if sent.outcome not in (Sent_.GONE, Sent_.MOVED):
                    return outcome_of(sent)
                ref = None
            lobby = refs.values.get("lobby")
            if ref is None and lobby and lobby[0] == chat:
                sent = await self.outbox.edit(chat, lobby[1], content)
                if sent.outcome.ok:
                    self.keep(table_id, "lobby", None)
                    self.keep(table_id, "table", [chat, lobby[1], round_no, *marks])
                    return outcome_of(sent)
            chat, sent = await self.send(chat, content, silent=True)
            if sent.message_id is not None:
                if ref is not None and ref[2] != round_no:
                    self.keep(table_id, "closing", ref)
                self.keep(table_id, "table", [chat, sent.message_id, round_no, *marks])
            return outcome_of(sent)

        if order is None:
            order = FIRST if urgent else TABLE
        self.put(("table", table_id), self._group(chat_id), run, stamp=(version,), label="table",
                 scope=table_id, urgent=urgent, order=order)

    def _closing(self, table_id: str, chat_id: str, refs: TableRefs, round_no: int, content: Content,
                 version: int) -> None:
        """The finished round's message gets its last picture (urgent: it goes right after
        the new round's message, from the group's reserve, not a paced turn of its own)."""

        async def run() -> Outcome:
            chat = self._group(chat_id)
            for name in ("table", "closing"):
                ref = refs.values.get(name)
                if ref is not None and ref[0] == chat and ref[2] == round_no:
                    return outcome_of(await self.outbox.edit(chat, ref[1], content))
            return SKIPPED

        self.put(("closing", table_id, round_no), self._group(chat_id), run, stamp=(version,),
                 urgent=True, order=TIDY, label="closed round")

    def redraw(self, table_id: str, chat_id: str, message_id: int, content: Content, *,
               lobby: bool, version: int) -> None:
        """A refused press's fresh public view, drawn on the pressed message if that message is
        still the table's lobby or current table (never on anything else)."""
        refs = self.messages.known(table_id)
        if refs is None:
            return
        ref = refs.values.get("lobby" if lobby else "table")
        if not ref or ref[1] != message_id or (not lobby and not in_group(chat_id)):
            return  # (a practice round's message shows no floor: a table is never drawn there)
        if lobby:
            self.show_lobby(table_id, chat_id, refs, content, version, edit_only=True)
        else:
            self.show_table(table_id, chat_id, refs, content, ref[2], version)

    def post(self, chat_id: str | int, content: Content, *, key: tuple[Any, ...],
             urgent: bool = True, reply_to: int | None = None, aside: bool = False,
             table_id: str | None = None) -> None:
        """A message of its own (a reply, a result), under ``reply_to`` when given; retried
        until Telegram takes it. ``aside``: it only informs, so a table write ready at the same
        moment goes first; it takes a slot the table's paced refreshes leave (the chat's
        reserve), so that it is not put off for as long as a match keeps the group busy.
        ``table_id``: the table it tells of, if any (``undelivered``)."""
        chat = chat_number(chat_id) if isinstance(chat_id, str) else chat_id

        async def run() -> Outcome:
            return outcome_of((await self.send(chat, content, reply_to=reply_to))[1])

        self.put(("post", *key), self.moves.where(chat), run, urgent=urgent,
                 order=ASIDE if aside else REPLY, label="reply", scope=table_id)

    def post_record(self, chat: int, record: RecordFile, caption_html: str, *, reply_to: int | None = None,
                    unbutton: int | None = None, keep: InlineKeyboardMarkup | None = None) -> None:
        """A finished match's record file, under ``reply_to``. Once it is sent, the message
        ``unbutton`` (the result whose Record button asked for it) loses that button (``keep``
        is what stays, the Rematch button): the chat gets the file once, under its result."""

        async def run() -> Outcome:
            where = self.moves.where(chat)
            sent = await self.outbox.send_document(where, record.name, record.data, caption_html,
                                                   reply_to=reply_to)
            if sent.outcome is Sent_.MOVED and sent.moved_to is not None:
                where = sent.moved_to
                sent = await self.outbox.send_document(where, record.name, record.data, caption_html)
            elif sent.outcome.ok and unbutton is not None:
                async def tidy() -> Outcome:
                    return outcome_of(await self.outbox.drop_keyboard(where, unbutton, keep=keep))

                self.put(("unbutton", where, unbutton), where, tidy, order=TIDY, label="record button")
            return outcome_of(sent)

        self.put(("record", record.table_id, chat), self.moves.where(chat), run, urgent=True, order=REPLY,
                 label="record")

    def drop_buttons(self, chat: int, message_id: int, *, keep: InlineKeyboardMarkup | None = None) -> None:
        """A message of its own loses the buttons that did their work (``keep`` is what stays)."""

        async def run() -> Outcome:
            return outcome_of(await self.outbox.drop_keyboard(chat, message_id, keep=keep))

        self.put(("unbutton", chat, message_id), chat, run, urgent=True, order=TIDY, label="buttons")

    def edit(self, chat: int, message_id: int, content: Content) -> None:
        """Edit a message of its own (a settings panel); in a group that became a supergroup,
        send it there instead."""

        async def run() -> Outcome:
            sent = await self.outbox.edit(chat, message_id, content)
            if sent.outcome is Sent_.MOVED:
                _, sent = await self.send(chat, content)
            return outcome_of(sent)

        self.put(("edit", chat, message_id), self.moves.where(chat), run, urgent=True, order=REPLY,
                 label="panel")

    async def call(self, chat: int, work: Callable[[], Awaitable[Sent]], *, timeout: float = 10.0) -> Sent:
        """Run one write as soon as the chat's budget allows and wait for its result (a probe
        whose answer decides what to say next)."""
        done: asyncio.Future[Sent] = asyncio.get_running_loop().create_future()

        async def run() -> Outcome:
            sent = await work()
            if not done.done():
                done.set_result(sent)
            return SENT if sent.outcome is not Sent_.UNCHANGED else SKIPPED

        self.put(("call", chat, id(done)), chat, run, urgent=True, order=FIRST, label="probe")
        try:
            return await asyncio.wait_for(done, timeout)
        except TimeoutError:
            return Sent(Sent_.FAILED)
