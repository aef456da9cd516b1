"""Each player's hand message in their private chat: live while it matters, a short line after.

A player has at most one live hand message per match: the one with card
buttons, kept up to date. When their turn comes a new one is sent, since an
edit does not notify on Telegram; the one before, if it still had buttons,
becomes a short line. Once they have played, their hand message becomes a
short line too (what they played, what they hold): nothing is edited in
their chat while the others play, and the next hand arrives with their
turn. A hand they ask for off turn ("My hand") stays live and follows the
game. No hand message is ever deleted, so none disappears under a finger,
and no old hand is ever sent again.

At a stranger match the live hand also carries the canned reactions under its cards
(``strangers``), which go with its buttons when it becomes a short line.

At a practice match in a private chat, where the computers answer within their pause and a
chat takes about one write a second, a play and the computers' answer show in one edit of
the hand (``folds.Fold``) when they come close together: the play's short line is held back for
as long as the computers take, and their answer, which brings the player's next turn, is
drawn on the same message instead, with the plays made since above it. A play whose answer
comes later becomes its short line, with the turn as a new message: at once when the
computers' pauses add up to more than ``FOLD_MOST``, or once the hold runs out when they are
slow; so does a play that ends the round. The round's message above the hands shows no
floor (``delivery``): the hand is where the floor is.

A group's 1-v-1 folds the same way (``folds.folds``): the player has just played and looks at
their hand, so their short line waits ``FOLD_PERSON`` seconds for the opponent's answer,
and when it comes within that the turn it brings is drawn on the same hand, the two plays
above it; a group's computer opponent is waited for as in practice. A quick pair's
exchange is then one write in each private chat instead of two. The edit does not notify,
which the player who played a moment ago does not need; a slower answer brings the turn
as a new message, which does.

The live message's reference is ``hand:<player>`` = ``[user, message, version,
turn]`` (``turn``: it was sent for their turn), kept with the table.

Hand messages go only to the private chat of the seat's own player: that is
checked here, on every send and edit, whatever the caller asked.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Final

from telegram import InlineKeyboardButton, WebAppInfo

from .. import memory
from ..i18n import translator
from ..outbound import FAILED, SKIPPED, Outcome
from ..render import (
    Line,
    Rendered,
    Text,
    render_hand,
    render_hint,
    render_moved,
    render_notice,
    render_played,
)
from ..render import render_turn_notice as turn_header
from ..render.texts import describe_play
from ..service import ClockWarning, HandView, HintView, YourTurn, is_pool_chat
from .contents import FIRST, REPLY, TABLE, chat_number, content_of, in_group, outcome_of
from .folds import FOLD_MARGIN, FOLD_MOST, FOLD_PERSON, Fold, folds, in_practice
from .keyboards import keyboard
from .notes import PlayerNotes
from .outbox import Content
from .outbox import Outcome as Sent_
from .strangers import reaction_rows

if TYPE_CHECKING:
    from collections.abc import Coroutine

    from ..outbound import Dispatcher
    from ..outbound.refs import MessageRefs, TableRefs
    from ..web import WebTable

log = logging.getLogger(__name__)
# Hand messages are remembered as lines, the latest ``memory.CAPS.retired_hands``; lines
# carry no buttons, so only a forged or long-stale press could name an older one.
HAND_KEY: Final = "hand:"


def hand_content(hand: HandView, lang: str, *, header: Rendered | None = None,
                 hint: HintView | None = None, web_app: str | None = None) -> Content:
    """A hand message: the hand (or the hint above it), with the turn notice on top when given,
    and a button that opens the table as a Mini App at ``web_app`` (``bots.web``) when given.
    At a running stranger match, the canned reactions under the cards: the hand is written
    anyway, so they cost no write of their own."""
    t = translator(lang)
    # A notice on top ("Your turn · 0:45 left", the clock's warning) says whose turn it is:
    # the hand does not say it again below.
    rendered = render_hint(hint, t) if hint is not None else render_hand(hand, t, turn=header is None)
    if is_pool_chat(hand.table.chat_id) and hand.table.running:
        reactions = reaction_rows(hand.table_id, t)
        rendered = Rendered(rendered.text, rendered.buttons + reactions, rendered.mention)
    extra = []
    if web_app is not None and hand.table.running:
        # TRANSLATORS: button under a private hand: opens the table as a page inside Telegram.
        extra.append([InlineKeyboardButton(t.gettext("🃏 Open the table"), web_app=WebAppInfo(web_app))])
    if header is None:
        return Content(rendered.text.html(), keyboard(rendered.buttons, extra))
    # The notice is the first line, which is what the notification shows.
    return Content(f"{header.text.html()}\n{rendered.text.html()}", keyboard(rendered.buttons, extra))


class HandMessages(PlayerNotes):
    """The hand half of ``Delivery``."""

    #: The table as a web page (``bots.web``), when the bot serves one.
    web: WebTable | None = None
    #: The pause a computer seat makes before it plays (``ServiceConfig.computer_delay``).
    computer_delay: float = 0.8
    #: How long a group 1-v-1 play's short line waits for the opponent's answer
    #: (``FOLD_PERSON``; shorter for tests whose limits' clocks run faster).
    fold_person: float = FOLD_PERSON

    if TYPE_CHECKING:  # what ``Delivery`` provides besides what ``PlayerNotes`` names
        dispatcher: Dispatcher
        messages: MessageRefs

        def _background(self, work: Coroutine[Any, Any, None]) -> None: ...

    def __init__(self) -> None:
        PlayerNotes.__init__(self)
        #: Hand messages that are (or are about to become) short lines: ``(user, message)``.
        self._retired: OrderedDict[tuple[int, int], None] = OrderedDict()
        self._warnings: dict[tuple[str, str], int] = {}
        #: Practice plays whose short lines are held back (``Fold``), by (table, player).
        self._folds: dict[tuple[str, str], Fold] = {}

    # -- what the notices ask for -----------------------------------------------------------

    async def turn(self, refs: TableRefs, notice: YourTurn) -> None:
        """Their turn: a new hand message that notifies, unless this very turn is shown already
        (a restarted bot redraws it in place). At a practice match, the computers' answer to
        a play whose short line is still held back is drawn on that hand instead (``Fold``):
        one edit for both."""
        hand = notice.hand
        ref = refs.values.get(_key(hand))
        announced = ref is not None and ref[2] == hand.version and _was_turn(ref)
        t = translator(notice.lang)
        header = turn_header(notice, t)
        if not folds(hand):
            await self.show_hand(hand, notice.lang, fresh=not announced, header=header)
            return
        # The writes that carry a practice match keep about a second apart (``limits``), and so
        # does a group's turn drawn on the hand just played: its player plays fast. A group's
        # turn as a new message goes at once.
        paced = in_practice(hand)
        user = chat_number(hand.player_id)
        # Cards shown before the computers' first play, held back as well: the turn shows them.
        self.dispatcher.cancel(user, ("first look", hand.table_id, hand.player_id))
        fold = self._folds.pop((hand.table_id, hand.player_id), None)
        if fold is not None:
            folded = (fold.held and ref is not None and ref[1] == fold.message_id
                      and self.dispatcher.withdraw(user, ("line", user, fold.message_id)))
            if folded:  # what was played since, in order, then the turn
                said = Text.of(*(Line.of(words) for words in fold.said))
                await self.show_hand(hand, notice.lang, header=Rendered(said + header.text), urgent=False,
                                     order=FIRST)
                return
            if fold.said[1:]:  # (the play itself is on its line above) the turn first: it notifies
                header = Rendered(header.text + Text.of(*(Line.of(words) for words in fold.said[1:])))
        await self.show_hand(hand, notice.lang, fresh=not announced, header=header, urgent=not paced,
                             order=FIRST)

    def fold_hold(self, hand: HandView) -> float | None:
        """How long ``hand``'s player's next turn may be waited for (``folds``): the
        computers' pauses, and ``FOLD_MARGIN``, when every seat to play before it is a
        computer's and their pauses add up to ``FOLD_MOST`` at most; ``fold_person`` when it is
        a group's 1-v-1 opponent; else None."""
        table = hand.table
        if not table.running or table.to_move is None or not folds(hand):
            return None
        seat, pauses = table.to_move, 0
        while seat != hand.seat:
            if table.seats[seat].computer is None:
                return None if in_practice(hand) else self.fold_person
            pauses += 1
            seat = (seat + 1) % table.players
        paused = pauses * self.computer_delay
        return paused + FOLD_MARGIN if pauses and paused <= FOLD_MOST else None

    def end_folds(self, table_id: str, refs: TableRefs, *, match_over: bool) -> None:
        """A round or the match ended: no turn comes in place of the plays' short lines held
        back at this table. At a round's end each goes now (the next round's messages come
        below it); at the match's end the hand's last line says so instead (``close_hand``)."""
        for key in [k for k in self._folds if k[0] == table_id]:
            fold = self._folds.pop(key)
            user = chat_number(fold.hand.player_id)
            if not fold.held or not self.dispatcher.withdraw(user, ("line", user, fold.message_id)):
                continue  # (sent, or under way: it dropped the hand's reference)
            if match_over:
                continue
            ref = refs.values.get(_key(fold.hand))
            if ref is not None and ref[1] == fold.message_id:
                self.keep(table_id, _key(fold.hand), None)
            self.line(user, fold.message_id, fold.line, stamp=(fold.hand.version,), urgent=True,
                      hand=fold.hand)

    async def hand_changed(self, refs: TableRefs, hand: HandView, lang: str, *,
                           starting: bool = False, round_over: bool = False) -> None:
        """Someone played: a live hand follows, a played one becomes its short line. At the
        start, a player who is not first to move gets their cards as a short line. At a
        practice match, a play's short line is held back while the computers answer, unless
        the play ended the round (``round_over``), and what they play meanwhile is noted for
        the turn it brings (``Fold``)."""
        if not hand.table.running:
            self.close_hand(hand, lang)
            return
        ref = refs.values.get(_key(hand))
        fold = self._folds.get((hand.table_id, hand.player_id))
        if fold is not None:
            play = hand.table.last_play
            if play is not None:  # a computer played, another is to play before the turn
                fold.said.append(describe_play(translator(lang), hand.table, play, hand.seat))
            if fold.held and ref is not None and ref[1] == fold.message_id:
                return
        if ref is None:
            if starting:
                self.first_look(hand, lang)
            return  # no live hand: the player sees the game in the group until their turn
        if _was_turn(ref) and not hand.your_turn:
            line = content_of(render_played(hand, translator(lang)))
            hold = None if round_over else self.fold_hold(hand)
            if folds(hand) and not round_over:
                fold = self._fold(hand, lang, ref, line, held=hold is not None)
                if hold is not None:
                    self.line(ref[0], ref[1], line, stamp=(hand.version,), hand=hand, after=hold, fold=fold)
                    return
            self.keep(hand.table_id, _key(hand), None)
            self.line(ref[0], ref[1], line, stamp=(hand.version,), urgent=True, hand=hand)
            return
        await self.show_hand(hand, lang, urgent=False)

    def _fold(self, hand: HandView, lang: str, ref: Any, line: Content, *, held: bool) -> Fold:
        """A practice play, noted until the turn it brings: its short line ``held`` back for
        the computers' answer to take its place (``turn``), the hand live meanwhile as it was;
        else sent at once, the plays made until the turn told with it."""
        play = hand.table.last_play
        said = [describe_play(translator(lang), hand.table, play, hand.seat)] if play is not None else []
        fold = Fold(ref[1], hand, line, held, said)
        self._folds[(hand.table_id, hand.player_id)] = fold
        return fold

    def close_hand(self, hand: HandView, lang: str) -> None:
        """The match is over: the player's live hand message, whichever it is when this write
        runs, becomes its short line. It takes the place of a turn's hand still waiting to go
        (the same write key, a newer state), so no message with card buttons is sent, or
        left, after the end."""
        user, key = chat_number(hand.player_id), _key(hand)
        content = content_of(render_played(hand, translator(lang)))

        async def run() -> Outcome:
            ref = (await self.refs(hand.table_id)).values.get(key)
            if ref is None:
                return SKIPPED
            self.keep(hand.table_id, key, None)
            self._retire(user, ref[1])
            return outcome_of(await self.outbox.edit(user, ref[1], content))

        self.put(_write_key(hand), user, run, stamp=(hand.version,), urgent=True, order=FIRST,
                 label="hand line", scope=hand.table_id)

    def _retire(self, user: int, message_id: int) -> None:
        self._retired[(user, message_id)] = None
        self._retired.move_to_end((user, message_id))
        while len(self._retired) > memory.CAPS.retired_hands:
            self._retired.popitem(last=False)

    # -- the live hand --------------------------------------------------------------------

    async def is_live(self, hand: HandView, message_id: int) -> bool:
        """Whether the hand message ``message_id`` of ``hand``'s player is their live hand (or
        one sent after it that was not noted): not a short line, nor older than the live one."""
        if (chat_number(hand.player_id), message_id) in self._retired:
            return False
        ref = (await self.refs(hand.table_id)).values.get(_key(hand))
        return ref is None or ref[1] <= message_id

    async def show_hand(self, hand: HandView, lang: str, *, fresh: bool = False,
                  header: Rendered | None = None, from_message: int | None = None,
                  hint: HintView | None = None, urgent: bool = True, order: int | None = None) -> bool:
        """Queue the player's hand: an edit of the live message, or (``fresh``) a new one.

        ``from_message`` is a hand message the player just pressed: False if it is an
        older one than the live hand (nothing is drawn on it; it becomes a short line).
        """
        user = chat_number(hand.player_id)
        key = _key(hand)
        refs = await self.refs(hand.table_id)
        ref = refs.values.get(key)

        def moved(message_id: int, *, urgent: bool = True) -> None:
            """An older hand message of this player says where the hand went."""
            self.line(user, message_id, content_of(render_moved(translator(lang))),
                      stamp=(hand.version,), urgent=urgent, hand=hand)

        before = ref  # the live hand before a press may make the pressed message the live one
        if from_message is not None:
            if (user, from_message) in self._retired:
                return False  # already (about to be) a short line: it keeps what it says
            if ref is not None and ref[1] > from_message:
                moved(from_message)
                return False
            if ref is None or ref[1] != from_message:
                # Unknown, or newer than the one noted: the bot sent it and stopped before
                # noting it (message ids only grow in a chat), so it is the live hand.
                self.keep(hand.table_id, key, [user, from_message, hand.version, hand.your_turn])
        web_app = self.web.mini_app_url(hand.table_id) if self.web is not None else None
        content = hand_content(hand, lang, header=header, hint=hint, web_app=web_app)
        turn = header is not None

        async def run() -> Outcome:
            # Decided again on the references as they are now.
            ref = refs.values.get(key)
            if from_message is not None and (ref is None or ref[1] < from_message):
                ref = [user, from_message, hand.version, hand.your_turn]
                self.keep(hand.table_id, key, ref)
            elif from_message is not None and ref is not None and ref[1] > from_message:
                # A newer hand was sent meanwhile: the press shows there.
                moved(from_message)
            if ref is None and not fresh and not turn:
                # The live hand became a short line meanwhile: none is posted out of turn
                # (the player follows the group until their turn brings one).
                return SKIPPED
            if ref is not None and not fresh:
                sent = await self.outbox.edit(user, ref[1], content)
                if sent.outcome.ok:
                    ref[2] = hand.version  # the shown version need not be stored
                    self.reachable.add(user)
                    return outcome_of(sent)
                if ref[1] == from_message and before is not None and before[1] != from_message:
                    # The pressed message cannot be drawn on (one the bot never sent): the
                    # live hand stays the one it was, and nothing new is posted.
                    self.keep(hand.table_id, key, before)
                    return outcome_of(sent)
                if sent.outcome is not Sent_.GONE:
                    return self._hand_failed(sent.outcome, hand, outcome_of(sent))
            sent = await self.outbox.send(user, content)
            if sent.message_id is None:
                return self._hand_failed(sent.outcome, hand, outcome_of(sent))
            self.reachable.add(user)
            self.unreachable.discard(user)
            current = refs.values.get(key)
            self.keep(hand.table_id, key, [user, sent.message_id, hand.version, turn or hand.your_turn])
            if current is not None and current[1] != sent.message_id:
                moved(current[1], urgent=False)
            warning = self._warnings.pop((hand.table_id, hand.player_id), None)
            if warning is not None:
                await self.outbox.delete(user, warning)
            return outcome_of(sent)

        # The write names the table too: its stamp is the table's version, and the player's
        # next match starts again from 1.
        if order is None:
            order = FIRST if urgent else TABLE
        return self.put(_write_key(hand), user, run, stamp=(hand.version,), urgent=urgent,
                        order=order, label="hand", scope=hand.table_id)

    def line(self, user: int, message_id: int, content: Content, *, stamp: tuple[int, ...],
             hand: HandView, urgent: bool = False, after: float = 0.0, fold: Fold | None = None) -> None:
        """A hand message of ``hand``'s player becomes a short line without buttons (it is no
        longer the live one); not if, by the time it goes, that very message is the live
        hand again at a newer state (a press on it after its reference was lost, as after a
        crash). It takes turns with the player's hand writes (one lock). A line held back
        for ``fold`` waits ``after`` seconds, the hand live meanwhile, and it is the write
        that makes the message a line: it drops the hand's reference when it goes."""
        if fold is None:
            self._retire(user, message_id)

        async def run() -> Outcome:
            refs = await self.refs(hand.table_id)
            live = refs.values.get(_key(hand))
            if live is not None and live[1] == message_id and (live[2],) > stamp:
                self._retired.pop((user, message_id), None)  # live again: a press on it counts
                return SKIPPED
            if fold is not None:
                if self._folds.get((hand.table_id, hand.player_id)) is fold:
                    del self._folds[(hand.table_id, hand.player_id)]  # the turn comes afresh
                if live is not None and live[1] == message_id:
                    self.keep(hand.table_id, _key(hand), None)
                self._retire(user, message_id)
            return outcome_of(await self.outbox.edit(user, message_id, content))

        self.put(("line", user, message_id), user, run, stamp=stamp, urgent=urgent, order=REPLY,
                 label="hand line", scope=hand.table_id, lock=_write_key(hand), after=after)

    def first_look(self, hand: HandView, lang: str) -> None:
        """The cards a player holds at the start, before their turn: a line without buttons
        (what it lists stays true until they play; their hand comes with their turn)."""
        user = chat_number(hand.player_id)
        content = content_of(render_played(hand, translator(lang)))

        async def run() -> Outcome:
            sent = await self.outbox.send(user, content, silent=True)
            if sent.message_id is None:
                return self._hand_failed(sent.outcome, hand, outcome_of(sent))
            self.reachable.add(user)
            return outcome_of(sent)

        # At a practice match the computers' first plays are awaited, and at a group's 1-v-1
        # the opponent's first play a moment: the turn it brings shows the cards instead
        # (``turn`` drops this write), unless it takes longer.
        hold = self.fold_hold(hand)
        self.put(("first look", hand.table_id, hand.player_id), user, run, urgent=hold is None, order=REPLY,
                 label="first hand", after=hold or 0.0)

    def _hand_failed(self, outcome: Sent_, hand: HandView, result: Outcome) -> Outcome:
        if outcome is Sent_.BLOCKED:
            user = chat_number(hand.player_id)
            self.unreachable.add(user)
            self.reachable.discard(user)
            if in_group(hand.table.chat_id):
                self._background(self.note_unreachable(hand))
            return FAILED
        return result

    def warn(self, notice: ClockWarning) -> None:
        """The clock's warning folds into the turn's hand message (an edit: the turn already
        notified, and a second ping a turn is noise); only a player without a live hand for this
        turn gets it as a message of its own."""
        user = chat_number(notice.player_id)
        warning = render_notice(notice)
        content = content_of(warning)
        key = (notice.table_id, notice.player_id)
        hand = notice.hand
        web_app = self.web.mini_app_url(hand.table_id) if self.web is not None else None
        folded = hand_content(hand, notice.lang, header=warning, web_app=web_app)

        async def run() -> Outcome:
            ref = (await self.refs(hand.table_id)).values.get(_key(hand))
            if ref is not None and _was_turn(ref) and ref[2] == hand.version:
                edited = await self.outbox.edit(user, ref[1], folded)
                if edited.outcome is not Sent_.GONE:
                    return outcome_of(edited)
            sent = await self.outbox.send(user, content)
            if sent.message_id is not None:
                old = self._warnings.pop(key, None)
                if old is not None:
                    await self.outbox.delete(user, old)
                self._warnings[key] = sent.message_id
            return outcome_of(sent)

        self.put(("warn", *key), user, run, stamp=(notice.hand.version,), urgent=True, order=FIRST,
                 label="clock warning", scope=hand.table_id, lock=_write_key(hand))


def _key(hand: HandView) -> str:
    return HAND_KEY + hand.player_id


def _write_key(hand: HandView) -> tuple[str, str, str]:
    """The dispatcher's key of the player's hand at that table, and the lock its short
    lines share with it."""
    return ("hand", hand.table_id, hand.player_id)


def _was_turn(ref: Any) -> bool:
    return len(ref) > 3 and bool(ref[3])
