"""Players the bot cannot write to in private: it tells their group, once per table, how to
get their cards (a button that opens the bot), and takes the note away once they have.

A player who never started the bot, or who blocked it, cannot be sent their hand
(Telegram answers 403). The group's note names them and links to the bot with the table
in the start payload, so that one press brings their hand (``handlers``). The note's
message is kept with the table as ``note:<player>`` = ``[chat, message]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from telegram import InlineKeyboardButton

from ..i18n import translator, user_text
from ..outbound import Outcome
from ..service import HandView
from .contents import REPLY, TABLE, chat_number, escape, outcome_of
from .keyboards import StartPayload, deep_link, keyboard
from .outbox import Content

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Hashable

    from ..outbound.refs import TableRefs
    from ..service import TableService
    from .outbox import Outbox, Sent

NOTE_KEY: Final = "note:"


class PlayerNotes:
    """What ``Delivery`` knows of who it can reach in private, and the group's notes for those
    it cannot."""

    if TYPE_CHECKING:  # what ``Delivery`` provides
        outbox: Outbox
        bot_username: str

        @property
        def service(self) -> TableService: ...
        async def refs(self, table_id: str) -> TableRefs: ...
        def keep(self, table_id: str, key: str, value: Any) -> None: ...
        def put(self, key: Hashable, chat: int, run: Callable[[], Awaitable[Outcome]], *,
                stamp: tuple[int, ...] = (), urgent: bool = False, order: int = TABLE,
                label: str = "message", scope: str | None = None, lock: Hashable | None = None,
                after: float = 0.0) -> bool: ...
        def _group(self, chat_id: str) -> int: ...
        async def send(self, chat: int, content: Content, *, silent: bool = False) -> tuple[int, Sent]: ...

    def __init__(self) -> None:
        #: Telegram user ids the bot could not write to (never started, blocked).
        self.unreachable: set[int] = set()
        #: Users the bot has written to in private, so it need not check again.
        self.reachable: set[int] = set()
        #: Tables whose group was told that this user must start the bot (``note``): where a
        #: plain /start finds the seat they took before ever starting it.
        self.noted: dict[int, set[str]] = {}

    async def note_unreachable(self, hand: HandView) -> None:
        seat = hand.table.seat_of(hand.player_id)
        name = seat.name if seat is not None and seat.name else "?"
        await self.note(hand.table_id, hand.table.chat_id, hand.player_id, name)

    async def note(self, table_id: str, chat_id: str, player_id: str, name: str) -> None:
        """Tell the group, once per table, that this player must open the bot to get their cards."""
        refs = await self.refs(table_id)
        key = NOTE_KEY + player_id
        self.noted.setdefault(chat_number(player_id), set()).add(table_id)
        if refs.values.get(key):
            return
        refs.values[key] = [0, 0]
        t = translator(await self.service.language(chat_id))
        text = t.gettext(
            "{name}, I cannot send you your cards yet. Press “Open my hand” and then Start: "
            "your hand arrives at once.", name=user_text(name))
        button = InlineKeyboardButton(t.gettext("🂠 Open my hand"),
                                      url=deep_link(self.bot_username, StartPayload("hand", table_id)))
        content = Content(escape(text), keyboard((), [[button]]))

        async def run() -> Outcome:
            chat, sent = await self.send(chat_number(chat_id), content)
            if sent.message_id is not None:
                self.keep(table_id, key, [chat, sent.message_id])
            return outcome_of(sent)

        self.put(("note", table_id, player_id), self._group(chat_id), run, urgent=True, order=REPLY,
                 label="note")

    async def clear_note(self, table_id: str, player_id: str) -> None:
        """They have their hand now: the group's note about them goes."""
        self.noted.get(chat_number(player_id), set()).discard(table_id)
        refs = await self.refs(table_id)
        ref = refs.values.get(NOTE_KEY + player_id)
        if ref and ref[1]:
            await self.outbox.delete(ref[0], ref[1])
            self.keep(table_id, NOTE_KEY + player_id, None)
