"""``/play`` and the pairing pool's buttons: look for someone to play now, from the private
chat with the bot.

``/play`` (or a "Play someone" button: the welcome's, a practice result's, a stranger
match's result) puts the person in the pool and posts their one waiting message
(``Delivery.open_waiting``); ``/play 2v2`` looks for three others instead, to play two
against two with a partner the pool finds. The waiting message's buttons stop the search,
or, once the computer is offered, play it instead or keep waiting. They act on the presser
alone and carry nobody's id (``bots.render.pool``), and only on the presser's current
waiting message: a press on an older one gets the pool's refusal as its answer and
changes nothing.

A search begun or changed on the web table's start page (``bots.web.start``) shows in the
chat as the same press there would leave it (``page_pressed``): its waiting message is
posted, then edited as the pool tells, stopped, or ended by the computer chosen.

Under a 2-v-2 search's waiting message, Bring a partner answers with a new message holding an
invitation's link (``t.me/<bot>?start=i<token>``) to send to a friend: the friend who presses
it (``accept``) joins the searcher as partner, and both messages say they look for two
opponents together. "Play someone again" under a stranger match's result looks for the same
kind of match (``seek`` with ``arg`` "2v2" after a 2-v-2).

Under a stranger match's result, Block and Rematch (a 1-v-1's: wait in the pool for that
same opponent, who must press it too; the waiting message names them by the display name
the result shows) name that match's table only; so do the reactions on its hands and
result (``bots.render.reactions``), whose press sends the canned words to the others at the
match and is answered to the presser alone, in a toast.
"""

from __future__ import annotations

from typing import Final

from telegram import CallbackQuery, InlineKeyboardButton, Message
from telegram.constants import ChatType

from ..i18n import translator
from ..render import Action
from ..render.actions import POOL_VERBS, STRANGER_VERBS
from ..render.pool import (
    blocked_text,
    play_in_private_text,
    rematch_asked_text,
    render_invite_link,
    render_solo,
    render_stopped,
)
from ..render.reactions import reaction_sent_text
from ..service import BadInput, NotLooking, Person, PoolView
from .contents import content_of
from .keyboards import StartPayload, deep_link
from .presses import without_verb
from .privacy import Privacy

#: The play command as typed on Telegram, named in the messages that point to it.
PLAY: Final = "/play"
#: What ``/play`` may be followed by to ask for two against two.
TWO_AGAINST_TWO: Final = frozenset({"2v2", "4"})


class Pairing(Privacy):
    """The pool's commands and buttons."""

    async def play(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        """``/play``: look for someone to play now (in private; a group is told where)."""
        t = await self.language(chat, person)
        if message.chat.type != ChatType.PRIVATE:
            url = deep_link(self.delivery.bot_username, StartPayload("play"))
            button = InlineKeyboardButton(t.gettext("🎲 Play someone online"), url=url)
            await self.reply_text(message, play_in_private_text(t, PLAY), [[button]])
            return
        mode = "2v2" if any(arg.lower() in TWO_AGAINST_TWO for arg in args) else "1v1"
        await self.seek(person, chat, mode)

    async def seek(self, person: Person, chat: str, mode: str = "1v1") -> None:
        """Put ``person`` in the pool from their private chat ``chat`` (``mode`` "1v1", or
        "2v2"), and post their waiting message (the pool's refusals go up: already looking,
        already playing)."""
        view = await self.service.pool_join(person, chat, mode)
        self.delivery.open_waiting(view, person)

    async def accept(self, person: Person, chat: str, token: str) -> None:
        """A friend's invitation link pressed (``/start i<token>``): join them as partner, and
        post the waiting message that names them (the refusals go up, changing nothing)."""
        view = await self.service.pool_accept(person, chat, token)
        self.delivery.open_waiting(view, person)

    async def _invite(self, own: Message, person: Person, here: str) -> None:
        """Bring a partner, under a 2-v-2 search's waiting message: a new message with the
        invitation's link, to send to a friend, and how long it lasts."""
        made = await self.service.pool_invite(person, here)
        link = deep_link(self.delivery.bot_username, StartPayload("invite", made.token))
        t = await self.language(here, person)
        self.delivery.post(own.chat_id, content_of(render_invite_link(t, link, made.seconds)),
                           key=("invite", made.token))

    def page_pressed(self, op: str, view: PoolView, person: Person) -> None:
        """``bots.web.start.PoolChat``: the start page began the search (``op`` "join"), stopped
        it ("cancel"), waited on ("wait") or chose the computer ("computer", whose practice
        match the page opens): the waiting message says so, as after the same press here."""
        t = translator(view.lang)
        if op == "join":
            self.delivery.open_waiting(view, person)
        elif op == "cancel":
            self.delivery.show_waiting(view, render_stopped(t, PLAY), final=True)
        elif op == "wait":
            self.delivery.show_waiting(view, self.delivery.render_waiting(view))
        elif op == "computer":
            self.delivery.show_waiting(view, render_solo(view, t), final=True)

    async def _press(self, query: CallbackQuery, message: Message | None, person: Person,
                     chat: str | None) -> bool:
        action = Action.decode(query.data or "")
        if action.verb not in POOL_VERBS | STRANGER_VERBS:
            return await super()._press(query, message, person, chat)
        own = self._own_private(message, person)
        here = self.delivery.moves.service_id(own.chat_id)
        if action.verb == "seek":
            await self.seek(person, here, "2v2" if action.arg == "2v2" else "1v1")
            return False
        if action.verb == "invite":
            await self._invite(own, person, here)
            return False
        if action.verb == "react":
            key = action.arg or ""
            await self.service.react(action.table_id, person, key)
            return await self._answer(query, reaction_sent_text(await self.language(here, person), key))
        if action.verb == "again":
            return await self._again(query, person, here, action.table_id)
        if action.verb == "block":
            names = await self.service.pool_block(person, action.table_id)
            # Who will not be met again is offered neither a rematch nor a word to them.
            kept = without_verb(own, "block", *STRANGER_VERBS)
            self.delivery.drop_buttons(own.chat_id, own.message_id, keep=kept)
            return await self._answer(query, blocked_text(await self.language(here, person), names))
        await self._waiting_press(own, person, here, action.verb)
        return False

    async def _again(self, query: CallbackQuery, person: Person, here: str, table_id: str) -> bool:
        """Rematch under a finished stranger 1-v-1's result: wait in the pool for that same
        opponent, whom the waiting message posted below names by the display name the result
        shows; the match begins once they press it too (the pool's refusals go up)."""
        table = await self.service.table(table_id)
        others = [s.name or "" for s in table.seats if s.player_id not in (None, person.player_id)]
        if len(others) != 1 or table.seat_of(person.player_id) is None:
            raise BadInput(f"table {table_id!r} is no stranger 1-v-1 of this presser")
        view = await self.service.pool_rematch(person, here, table_id)
        self.delivery.open_waiting(view, person, rematch=others[0])
        return await self._answer(query, rematch_asked_text(translator(view.lang), others[0]))

    async def _waiting_press(self, own: Message, person: Person, here: str, verb: str) -> None:
        """Cancel, Keep waiting or Play the computer, on the presser's current waiting message."""
        status = await self.service.pool_status(person)
        if status is not None:
            current = self.delivery.waiting_message(status)
            if current is not None and current != own.message_id:
                raise NotLooking()  # a message of an earlier search
        pressed = own.message_id
        if verb == "unseek":
            view = await self.service.pool_cancel(person)
            t = translator(view.lang)
            self.delivery.show_waiting(view, render_stopped(t, PLAY), final=True, message_id=pressed)
        elif verb == "wait":
            view = await self.service.pool_keep_waiting(person)
            self.delivery.show_waiting(view, self.delivery.render_waiting(view), message_id=pressed)
        else:
            view = await self.service.pool_computer(person)
            t = translator(view.lang)
            self.delivery.show_waiting(view, render_solo(view, t), final=True, message_id=pressed)
            await self.service.practice(here, person, level=view.level)

