"""The pairing pool on Telegram, delivery's half: each person's waiting message, and the
matches the pool seats, which each person plays in their own private chat.

A search shows one waiting message in the searcher's private chat (``open_waiting``, from
``/play`` or a button): edited in place as the pool tells (``tell_pool``: how many look, the
computer offered, the opponent found) and as the person's own presses change it (stopped,
waiting on, the computer chosen). Its writes share one key, stamped so that a state read
earlier never overwrites a later one: a search that ended (stopped, found, the computer
chosen) stays ended whatever a wave read before. Its reference goes to the pool
(``TableService.pool_message``), so that a restarted bot edits the same message.

With the web table served, a search's message has a button that opens its start page
(``bots.web.start``), which follows the same search and opens the match once found.

A search for two against two says so, and offers to bring a partner (``Pairing``'s invite
link); once a friend came as partner, its message names them (``PoolTogether``, kept with
the message's reference), and once found, names the partner apart from the other team.
Rematch under a stranger 1-v-1's result opens a search for that one opponent, whose display
name its message shows instead of how many look (kept with the message's reference, so that
a restarted bot still names them).

A stranger match (``ids.is_pool_chat``) has no chat: its public notices come as
``ForSeat``, one per person, in that person's language. Hands go as in any match (the
cards at the start, a new hand message with each turn, which shows the floor and the last
play, with the canned reactions under its cards); the table itself is shown nowhere, so
nothing is drawn for it; a round's end (its last picture and its points) and the match's
result are posted in each person's private chat, the result with Rematch (a 1-v-1's), a
new search, Block and the reactions that suit a match's end under it. A reaction another
sent (``Reacted``) is one short line in the reader's chat: the sender's display name and
the words, nothing else of them. Nothing here reads a stranger match's chat id as a
Telegram chat.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from telegram import InlineKeyboardButton, WebAppInfo

from ..i18n import Translator, translator
from ..outbound import SKIPPED, Outcome
from ..render import Button, Rendered, render_notice, stacked
from ..render.pool import rematch_button, render_paired, render_waiting
from ..render.reactions import reaction_row, render_reacted
from ..render.searches import SearchNames, named
from ..service import (
    ClockWarning,
    ForSeat,
    HandUpdated,
    LobbyClosed,
    MatchEnded,
    Notice,
    Person,
    PoolLooking,
    PoolNotice,
    PoolOffer,
    PoolPaired,
    PoolTogether,
    PoolView,
    Reacted,
    RoundEnded,
    ServiceError,
    TableSetAside,
    TableUpdated,
    YourTurn,
    raw_id,
)
from .contents import ASIDE, FIRST, REPLY, chat_number, content_of, outcome_of
from .keyboards import keyboard
from .outbox import Content
from .outbox import Outcome as Sent_

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Coroutine, Hashable

    from ..outbound.refs import TableRefs
    from ..service import HandView, TableService
    from ..web import WebTable
    from .outbox import Outbox

log = logging.getLogger(__name__)
#: The reference of the result posted to one person of a stranger match (``END_KEY`` +
#: their id): posted once, whatever is delivered again after a restart.
END_KEY: Final = "pool end:"
#: What the pool keeps of a waiting message (``PoolView.message``): where it is (and whom it
#: names: ``searches``).
CHAT: Final = "chat"
MESSAGE: Final = "message"
#: The reactions under a stranger match's result: those that suit its end.
AT_THE_END: Final = ("good_game", "thanks")


def reaction_rows(table_id: str, t: Translator, keys: Sequence[str] | None = None
                  ) -> tuple[tuple[Button, ...], ...]:
    """The reactions (``keys`` of them, else all) as buttons two to a row: under a hand's
    cards, or a result's buttons, where four in one row would cut their words short."""
    row = [b for b in reaction_row(table_id, t) if keys is None or b.action.arg in keys]
    return tuple(tuple(row[i : i + 2]) for i in range(0, len(row), 2))


def render_stranger_result(notice: MatchEnded) -> Rendered:
    """A stranger match's result, for one person: Rematch on a row of its own (a 1-v-1's),
    then a new search and Block, then the reactions that suit a match's end."""
    t = translator(notice.lang)
    drawn = render_notice(notice)
    rematch = rematch_button(notice.result, t)
    rows = (((rematch,),) if rematch is not None else ()) + drawn.buttons
    if notice.result.reason != "expired":
        rows += reaction_rows(notice.table_id, t, AT_THE_END)
    return Rendered(drawn.text, rows, drawn.mention)


def private_chat(view: PoolView) -> int:
    """The searcher's own private chat: on Telegram it has their user id. Nothing of a
    search is written anywhere else."""
    if raw_id(view.chat_id) != raw_id(view.player_id):
        raise ValueError("a waiting message outside its searcher's private chat")
    return chat_number(view.chat_id)


class StrangerMessages:
    """The pool's half of ``Delivery``."""

    if TYPE_CHECKING:  # what ``Delivery`` provides
        outbox: Outbox
        web: WebTable | None

        @property
        def service(self) -> TableService: ...
        async def refs(self, table_id: str) -> TableRefs: ...
        def keep(self, table_id: str, key: str, value: Any) -> None: ...
        def put(self, key: Hashable, chat: int, run: Callable[[], Awaitable[Outcome]], *,
                stamp: tuple[int, ...] = (), urgent: bool = False, order: int = ...,
                label: str = "message", scope: str | None = None, lock: Hashable | None = None) -> bool: ...
        def _background(self, work: Coroutine[Any, Any, None]) -> None: ...
        async def turn(self, refs: TableRefs, notice: YourTurn) -> None: ...
        async def hand_changed(self, refs: TableRefs, hand: HandView, lang: str, *,
                               starting: bool = False) -> None: ...
        def warn(self, notice: ClockWarning) -> None: ...

    def __init__(self) -> None:
        #: Each searcher's waiting message as this process sent it (user → message id), while
        #: their search lasts: the reference before the pool has it, and after.
        self._waiting: dict[int, int] = {}
        #: Whom each search under way waits for or came with, by user.
        self._names: SearchNames[int] = SearchNames()
        #: Reactions delivered so far: each is a message of its own (its write's key).
        self._reactions = 0

    # -- waiting messages -------------------------------------------------------------------

    def open_waiting(self, view: PoolView, person: Person, *, rematch: str | None = None) -> None:
        """Post the waiting message of a search just begun; its reference goes to the pool.
        ``rematch``: the display name of the one opponent the search waits for (Rematch under
        a stranger match's result). A search begun with an invitation names its partner
        (``view.partners``)."""
        user = private_chat(view)
        self._waiting.pop(user, None)  # a search of its own: a message of its own
        self._names.opened(user, rematch)
        self.show_waiting(view, self.render_waiting(view), person=person)

    def rematch_of(self, view: PoolView) -> str | None:
        """Whom ``view``'s search waits for, when it is a rematch (a display name)."""
        return self._names.rematch_of(private_chat(view), _noted(view))

    def partner_of(self, view: PoolView) -> str | None:
        """Whom ``view``'s 2-v-2 search came with (a display name), when it is known."""
        return self._names.partner_of(private_chat(view), view, _noted(view))

    def render_waiting(self, view: PoolView, *, resumed: bool = False, parted: bool = False) -> Rendered:
        """The waiting message of ``view``'s search, in its reader's language: how it goes,
        whom it came with, or whom a rematch waits for."""
        return render_waiting(view, translator(view.lang), resumed=resumed, waiting_for=self.rematch_of(view),
                              partner=self.partner_of(view), parted=parted)

    def waiting_message(self, view: PoolView) -> int | None:
        """The message that shows ``view``'s search, when known."""
        user = private_chat(view)
        noted = view.message or {}
        stored = noted.get(MESSAGE) if noted.get(CHAT) == user else None
        return self._waiting.get(user) or (stored if isinstance(stored, int) else None)

    async def tell_pool(self, notices: Sequence[PoolNotice]) -> None:
        """``PoolPlatform``: each person's waiting message says what the pool tells them, in
        their language (queued only; never raises)."""
        for notice in notices:
            try:
                view = notice.view
                t = translator(view.lang)
                if isinstance(notice, PoolPaired):
                    self.show_waiting(view, render_paired(view, t), final=True, news=True)
                elif isinstance(notice, PoolOffer):
                    self.show_waiting(view, self.render_waiting(view), news=True)
                elif isinstance(notice, PoolLooking):
                    drawn = self.render_waiting(view, resumed=notice.resumed, parted=notice.parted)
                    self.show_waiting(view, drawn, news=notice.resumed or notice.parted)
                elif isinstance(notice, PoolTogether):
                    self._together(view)
            except Exception:
                log.exception("could not queue a %s notice", notice.kind)

    def show_waiting(self, view: PoolView, rendered: Rendered, *, final: bool = False, news: bool = False,
                     message_id: int | None = None, person: Person | None = None) -> None:
        """Edit the search's waiting message (``message_id``, else the one known), or post it
        when none is known yet. ``final``: the search is over (stopped, found, the computer
        chosen), and no state read before may overwrite this one. ``news``: if the message is
        gone, a new one says it (an offer, an opponent found)."""
        user = private_chat(view)
        content = content_of(rendered) if final else self._waiting_content(rendered, view.lang)
        known = message_id or self.waiting_message(view)
        if final:
            self._waiting.pop(user, None)
            self._names.forget(user)
        if known is None:
            self._post_waiting(view, content, final=final, person=person)
            return

        async def run() -> Outcome:
            sent = await self.outbox.edit(user, known, content)
            if sent.outcome is Sent_.GONE and news:
                return await self._send_waiting(view, content, final=final, person=person)
            return outcome_of(sent)

        # Ended searches go after any state of the same search, later states after earlier.
        stamp = (1 if final else 0, int(view.waited * 1000))
        self.put(("pool", user, known), user, run, stamp=stamp, urgent=True, order=REPLY, label="waiting")

    def _waiting_content(self, rendered: Rendered, lang: str) -> Content:
        """A search under way, with the button that opens the web table's start page when served."""
        if self.web is None:
            return content_of(rendered)
        label = translator(lang).gettext("🃏 Play on the web table")
        opens = [InlineKeyboardButton(label, web_app=WebAppInfo(self.web.start_url()))]
        return Content(rendered.text.html(), keyboard(rendered.buttons, [opens]))

    def _post_waiting(self, view: PoolView, content: Content, *, final: bool, person: Person | None) -> None:
        """A waiting message whose message is not known yet: posted once, the latest state of
        the search (one write per person, which a newer state replaces while it waits)."""
        user = private_chat(view)

        async def run() -> Outcome:
            known = self._waiting.get(user)
            if known is not None:  # the search's first message went out meanwhile
                if final:
                    self._waiting.pop(user, None)
                return outcome_of(await self.outbox.edit(user, known, content))
            return await self._send_waiting(view, content, final=final, person=person)

        # A search that ended ("your match begins below") goes before the match's first
        # messages, which the same wave queued.
        self.put(("pool", user), user, run, urgent=True, order=FIRST if final else REPLY, label="waiting")

    async def _send_waiting(self, view: PoolView, content: Content, *, final: bool,
                            person: Person | None) -> Outcome:
        user = private_chat(view)
        sent = await self.outbox.send(user, content)
        if sent.message_id is not None and not final:
            self._waiting[user] = sent.message_id
            searcher = person or Person(view.player_id, "")
            self._background(self._note_waiting(searcher, user, sent.message_id, *self._names.known(user)))
        return outcome_of(sent)

    def _together(self, view: PoolView) -> None:
        """A friend used the searcher's invitation: the waiting message names them (posted
        anew if it is gone, or if there was none), and its reference keeps their name."""
        user = private_chat(view)
        self.show_waiting(view, self.render_waiting(view), news=True)
        known = self.waiting_message(view)
        if known is not None:
            self._background(self._note_waiting(Person(view.player_id, ""), user, known,
                                                *self._names.known(user)))

    async def _note_waiting(self, person: Person, user: int, message_id: int, rematch: str | None,
                            partner: str | None = None) -> None:
        reference = named({CHAT: user, MESSAGE: message_id}, rematch, partner)
        try:
            await self.service.pool_message(person, reference)
        except ServiceError as error:
            log.warning("a waiting message's reference was not kept: %s", type(error).__name__)

    # -- stranger matches -------------------------------------------------------------------

    async def deliver_strangers(self, notices: Sequence[Notice]) -> None:
        """One action's notices of a stranger match: each person's hands as in any match, and
        their share of the public notices in their own private chat."""
        table_id = notices[0].table_id
        refs = await self.refs(table_id)
        turns = {n.player_id for n in notices if isinstance(n, YourTurn)}
        starting = any(isinstance(n, ForSeat) and isinstance(n.notice, LobbyClosed)
                       and n.notice.reason == "started" for n in notices)
        shares: dict[str, list[ForSeat]] = {}
        for notice in notices:
            if isinstance(notice, ForSeat):
                shares.setdefault(notice.player_id, []).append(notice)
        # A round's end goes before the hand the same play brings (the next round's first
        # turn): the player reads how the round ended, then plays on.
        for player_id, share in shares.items():
            try:
                self._tell_seat(table_id, refs, player_id, share)
            except Exception:
                log.exception("could not queue the public notices of table %s for a player", table_id)
        for notice in notices:
            try:
                if isinstance(notice, HandUpdated):
                    if notice.player_id not in turns:
                        await self.hand_changed(refs, notice.hand, notice.lang, starting=starting)
                elif isinstance(notice, YourTurn):
                    await self.turn(refs, notice)
                elif isinstance(notice, ClockWarning):
                    self.warn(notice)
                elif isinstance(notice, Reacted):
                    self.reacted(notice)
            except Exception:
                log.exception("could not queue a %s notice of table %s", notice.kind, table_id)

    def _tell_seat(self, table_id: str, refs: TableRefs, player_id: str, share: list[ForSeat]) -> None:
        """A person's share of the public notices: the lobby and the running table show
        nowhere (their hands show the floor); a round's end and the match's result are posted
        in their private chat, as one message when one play ends both."""
        user = chat_number(player_id)  # a person's private chat has their user id
        inner = [s.notice for s in share]
        if any(isinstance(n, TableSetAside) for n in inner):
            aside = next(n for n in inner if isinstance(n, TableSetAside))
            self._post_once(table_id, refs, player_id, user, content_of(render_notice(aside)))
            return
        parts: list[Rendered] = []
        rounds = [n for n in inner if isinstance(n, RoundEnded)]
        for ended in rounds:
            closing = next((n for n in inner if isinstance(n, TableUpdated)
                            and n.table.round_close is not None
                            and n.table.round_no == ended.result.round_no), None)
            if closing is not None:
                parts.append(render_notice(closing))
            parts.append(render_notice(ended))
        result = next((n for n in inner if isinstance(n, MatchEnded)), None)
        if result is not None:
            parts.append(render_stranger_result(result))
            self._post_once(table_id, refs, player_id, user, content_of(stacked(*parts)))
        elif parts:
            round_no = rounds[-1].result.round_no
            self._post(user, content_of(stacked(*parts)), key=("pool round", table_id, player_id, round_no),
                       label="round end")

    def _post_once(self, table_id: str, refs: TableRefs, player_id: str, user: int, content: Content) -> None:
        """The end of a person's stranger match, posted once to them (a redraw after a restart
        does not post it again)."""
        key = END_KEY + player_id
        if refs.values.get(key):
            return

        async def run() -> Outcome:
            if refs.values.get(key):
                return SKIPPED
            sent = await self.outbox.send(user, content)
            if sent.message_id is not None:
                self.keep(table_id, key, [user, sent.message_id])
            return outcome_of(sent)

        self.put(("pool end", table_id, player_id), user, run, urgent=True, order=FIRST, label="match end")

    def _post(self, user: int, content: Content, *, key: tuple[Any, ...], label: str, order: int = FIRST,
              urgent: bool = True) -> None:
        async def run() -> Outcome:
            return outcome_of(await self.outbox.send(user, content))

        self.put(key, user, run, urgent=urgent, order=order, label=label)

    def reacted(self, notice: Reacted) -> None:
        """A reaction another person at the match sent: one short message in the reader's
        private chat (their display name and the words), paced like the chat's other writes,
        behind the hands."""
        user = chat_number(notice.player_id)  # the reader's private chat has their user id
        content = content_of(render_reacted(notice))
        self._reactions += 1
        self._post(user, content, key=("reacted", notice.table_id, notice.player_id, self._reactions),
                   label="reaction", order=ASIDE, urgent=False)


def _noted(view: PoolView) -> Mapping[str, Any]:
    """The waiting message's reference the pool keeps, when it is this person's chat's."""
    noted = view.message or {}
    return noted if noted.get(CHAT) == private_chat(view) else {}
