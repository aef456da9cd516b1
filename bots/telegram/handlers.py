"""The inbound half of the adapter: commands become service calls (presses: ``presses``).

Each handler names the person and the chat, calls one service method and
renders what comes back, or the refusal, localized. No rule of the game is
decided here: the service checks seats, turns and versions.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from telegram import InlineKeyboardButton, Message, Update, WebAppInfo
from telegram.constants import ChatType

from core import BasraError

from ..i18n import Translator, translator, user_text
from ..render import (
    Rendered,
    render_error,
    render_help,
    render_rules,
    render_settings,
    render_stats,
)
from ..render.answers import render_resigned, render_score
from ..render.pool import seek_button
from ..render.records import record_caption
from ..service import (
    AlreadyPlaying,
    BadInput,
    HandView,
    NoOpenTable,
    NotRunning,
    NotSaved,
    NotSeated,
    Person,
    ServiceError,
    TableView,
)
from .commands import GROUP_COMMANDS, PRIVATE_COMMANDS
from .contents import escape
from .keyboards import StartPayload, deep_link, inline_button
from .pairing import Pairing
from .presses import LEVEL_WORDS, ladder_content
from .replies import Context, person_of

log = logging.getLogger(__name__)
#: The help's key (``bots.render.info.COMMANDS``) of each Telegram command spelled otherwise.
HELP_KEYS = {"newgame": "new"}
MODES = {"1v1": "1v1", "2": "1v1", "2v2": "2v2", "4": "2v2"}
#: What ``/top`` may be followed by to show the online ladder.
ONLINE = "online"


class Handlers(Pairing):
    """Command and button handlers bound to one adapter."""

    def command(self, work: Callable[[Message, Person, str, list[str]], Awaitable[None]]
                ) -> Callable[[Update, Context], Coroutine[Any, Any, None]]:
        """Wrap a command: name the person and chat, turn refusals into a localized reply."""

        async def handler(update: Update, context: Context) -> None:
            message, user = update.effective_message, update.effective_user
            if message is None:
                return
            chat = self.delivery.moves.service_id(message.chat_id)
            if message.sender_chat is not None:  # an anonymous admin, or a channel's post
                await self.unknown_sender(message, chat)
                return
            if user is None or user.is_bot:
                return
            person = person_of(user)
            if self.repeated(message, person):
                return
            try:
                await work(message, person, chat, list(context.args or []))
            except NotSaved as error:  # the service logged why
                self.metrics.error("storage")
                t = await self.language(chat, person)
                await self.reply(message, render_error(error, t))
            except ServiceError as error:
                t = await self.language(chat, person)
                await self.reply(message, self._public_error(error, t, message))
            except BasraError as error:
                t = await self.language(chat, person)
                await self.reply(message, render_error(BadInput(str(error)), t))

        return handler

    async def unknown_sender(self, message: Message, chat: str) -> None:
        """A command sent as the group itself (an anonymous admin) or as a channel names
        nobody who could sit at a table: say how to send it as oneself."""
        t = translator(await self.service.language(chat))
        await self.reply_text(message, t.gettext(
            "Telegram shows this command as sent by a group or a channel, so I cannot tell who"
            " you are. Turn off “Remain anonymous” in your admin rights, or send it as"
            " yourself, and try again."))

    async def migrated(self, update: Update, context: Context) -> None:
        """A group became a supergroup with a new id: its table, settings and
        history move there. Telegram says so in both chats; the second says nothing new,
        nor does either if a call to the old id was refused first (``ChatMoves``)."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id:
            old, new = message.chat_id, message.migrate_to_chat_id
        elif message.migrate_from_chat_id:
            old, new = message.migrate_from_chat_id, message.chat_id
        else:
            return
        await self.delivery.moves.follow(old, new)

    def _public_error(self, error: ServiceError, t: Translator, message: Message) -> Rendered:
        """A refusal for a chat: a fresh hand is never shown outside its owner's private chat."""
        if isinstance(error.fresh, HandView) and message.chat.type != ChatType.PRIVATE:
            error.fresh = None
        private = message.chat.type == ChatType.PRIVATE
        if isinstance(error, AlreadyPlaying):  # it tells how to end the match one plays
            return render_error(error, t, command="/resign")
        return render_error(error, t, command="/practice" if private else "/newgame")

    async def start(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        """``/start`` in private: welcome, join a lobby from a deep link, join a friend's 2-v-2
        search from their invitation's link, deliver waiting hands."""
        if message.chat.type != ChatType.PRIVATE:
            await self.help(message, person, chat, args)
            return
        user = message.chat_id
        self.delivery.unreachable.discard(user)
        self.delivery.reachable.add(user)
        payload = StartPayload.parse(args[0]) if args else None
        t = await self.language(chat, person)
        if payload is not None and payload.kind == "play":
            await self.seek(person, chat)
        elif payload is not None and payload.kind == "invite":
            await self.accept(person, chat, payload.table_id)
        elif payload is not None and payload.kind == "join":
            await self.service.join(payload.table_id, person, payload.team)
            await self.reply_text(message, t.gettext(
                "You are at the table. Your cards will come here, in this chat, when the match starts."))
        elif payload is None:
            waiting = [table for table in sorted(self.delivery.noted.get(user, ()))
                       if await self._seated_in_lobby(table, person)]
            if waiting:
                # Seated through Join before ever starting the bot, then come by the bot's name
                # rather than the group's link: he reads where he sits, not a stranger's welcome.
                await self.reply_text(message, t.gettext(
                    "You are at the table. Your cards will come here, in this chat, when the match "
                    "starts."))
                for table in waiting:
                    await self.delivery.clear_note(table, person.player_id)
            else:
                rows = [[inline_button(seek_button(t))]]
                if self.delivery.web is not None:
                    # TRANSLATORS: button under the welcome: opens the web table's start page
                    # inside Telegram, from which one plays someone online.
                    label = t.gettext("🃏 Play on the web table")
                    opens = WebAppInfo(self.delivery.web.start_url())
                    rows.append([InlineKeyboardButton(label, web_app=opens)])
                await self.reply_text(message, t.gettext(
                    "Welcome to Basra! Add me to a group and send /newgame there, or send /practice "
                    "here to play against the computer. Your cards always come here, in private."),
                    rows)
        sent = await self.send_hands(person)
        if payload is not None and payload.kind == "hand" and sent == 0:
            if await self._seated_in_lobby(payload.table_id, person):
                # Someone who pressed Join before ever starting the bot: the welcome the join
                # could not send comes now, and the group's "open my hand" note has done its job.
                await self.reply_text(message, t.gettext(
                    "You are at the table. Your cards will come here, in this chat, when the match "
                    "starts."))
                await self.delivery.clear_note(payload.table_id, person.player_id)
                return
            # A link to a hand that is not (or no longer) theirs: say so, and what to do.
            await self.reply_text(message, t.gettext(
                "You have no game running at that table. Send /newgame in a group, or /practice "
                "here to play against the computer."))

    async def _seated_in_lobby(self, table_id: str, person: Person) -> bool:
        """Whether ``person`` has a seat at ``table_id``'s lobby, still waiting to start."""
        try:
            lobby = await self.service.lobby(table_id)
        except ServiceError:
            return False
        return lobby.status == "lobby" and lobby.seat_of(person.player_id) is not None

    async def send_hands(self, person: Person, table_id: str | None = None) -> int:
        """Send fresh hand messages of every running match of ``person`` (or one table);
        how many, none if the bot cannot write to them."""
        if int(person.player_id.partition(":")[2]) in self.delivery.unreachable:
            return 0
        hands = await self.service.hands_of(person.player_id)
        sent = 0
        for hand in hands:
            if table_id is not None and hand.table_id != table_id:
                continue
            lang = await self.service.language(hand.table.chat_id, person)
            if await self.delivery.show_hand(hand, lang, fresh=True):
                sent += 1
                await self.delivery.clear_note(hand.table_id, person.player_id)
        return sent

    async def help(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        """What the bot does and the commands of this kind of chat, each with what it does."""
        t = await self.language(chat, person)
        private = message.chat.type == ChatType.PRIVATE
        names = PRIVATE_COMMANDS if private else GROUP_COMMANDS
        spelled = {HELP_KEYS.get(name, name): f"/{name}" for name in names if name != "start"}
        await self.reply(message, render_help(t, spelled))

    async def rules(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        t = await self.language(chat, person)
        settings = await self.service.settings(chat)
        await self.reply(message, render_rules(t, settings.rules))

    async def newgame(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        t = await self.language(chat, person)
        if message.chat.type == ChatType.PRIVATE:
            await self.reply_text(message, t.gettext(
                "Matches between people are played in groups: add me to a group and send /newgame "
                "there. Here you can send /practice to play against the computer."))
            return
        mode = MODES.get(args[0].lower(), "1v1") if args else "1v1"
        lobby = await self.service.new_lobby(chat, person, mode)  # type: ignore[arg-type]
        if not await self.probe(message, person, t):
            await self.delivery.note(lobby.table_id, chat, person.player_id, person.name)

    async def practice(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        t = await self.language(chat, person)
        if not await self.in_private(message, t, t.gettext(
                "Practice matches are played in private chat with me: open it and send /practice.")):
            return
        players = 4 if any(a in ("4", "2v2") for a in args) else 2
        level = next((a.lower() for a in args if a.lower() in LEVEL_WORDS), "beginner")
        await self.service.practice(chat, person, players=players, level=level)

    async def hand(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        t = await self.language(chat, person)
        table_id = None
        if message.chat.type != ChatType.PRIVATE:
            current = await self.service.open_table(chat)
            if current is None:
                raise NoOpenTable()
            if not isinstance(current, TableView):
                raise NotRunning()
            if current.seat_of(person.player_id) is None:
                raise NotSeated()
            table_id = current.table_id
        if await self.send_hands(person, table_id):
            if message.chat.type != ChatType.PRIVATE:
                await self.reply_text(message, t.gettext("{name}, your hand is in our private chat.",
                                                         name=user_text(person.name)))
            return
        if message.chat.type == ChatType.PRIVATE:
            await self.reply_text(message, t.gettext(
                "You have no running match. Send /newgame in a group, or /practice here to play the "
                "computer."))
        else:
            await self.invite(message, person, t, table_id)

    async def invite(self, message: Message, person: Person, t: Translator, table_id: str | None) -> None:
        payload = StartPayload("hand", table_id) if table_id else None
        url = (deep_link(self.delivery.bot_username, payload) if payload
               else f"https://t.me/{self.delivery.bot_username}")
        button = InlineKeyboardButton(t.gettext("🂠 Open my hand"), url=url)
        await self.reply_text(message, t.gettext(
            "{name}, I cannot send you your cards yet. Press “Open my hand” and then Start: "
            "your hand arrives at once.", name=user_text(person.name)), [[button]])

    async def resign(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        if message.chat.type == ChatType.PRIVATE and not isinstance(
            await self.service.open_table(chat), TableView
        ):
            # No practice match here: a stranger match is resigned here, where it is played;
            # a match in a group is resigned in that group.
            t = await self.language(chat, person)
            stranger = await self._stranger_match(person)
            if stranger is not None:
                ended = await self.service.resign(stranger, person.player_id)
                await self.reply(message, render_resigned(ended, t), reply_to=message.message_id)
                return
            elsewhere = [h for h in await self.service.hands_of(person.player_id) if h.table.running]
            await self.reply_text(message, t.gettext(
                "Your match is in a group: send /resign there to resign it.") if elsewhere else t.gettext(
                "You have no running match. Send /newgame in a group, or /practice here to play the "
                "computer."))
            return
        ended = await self.service.resign_in_chat(chat, person.player_id)
        await self.reply(message, render_resigned(ended, await self.language(chat, person)),
                         reply_to=message.message_id)

    async def _stranger_match(self, person: Person) -> str | None:
        """The running match the pool seated ``person`` at, if any (it has no chat of its own)."""
        status = await self.service.pool_status(person)
        if status is None or status.state != "seated" or status.table_id is None:
            return None
        try:
            table = await self.service.table(status.table_id)
        except ServiceError:
            return None
        return table.table_id if table.running and table.seat_of(person.player_id) is not None else None

    async def score(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        t = await self.language(chat, person)
        current = await self.service.open_table(chat)
        if isinstance(current, TableView):
            # The score in a few lines, as a reply to the live table message (a tap on the quote
            # brings it up); never a copy of the table, whose buttons would freeze at once.
            ref = (await self.delivery.refs(current.table_id)).values.get("table")
            where = ref[1] if ref and ref[0] == message.chat_id else None
            await self.reply(message, render_score(current, t), reply_to=where)
            return
        scope = None if message.chat.type == ChatType.PRIVATE else chat
        stats = await self.service.stats(person.player_id, scope, name=person.name)
        await self.reply(message, render_stats(stats, t))

    async def top(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        """The leaderboard: the group's in a group, everyone's in private; ``/top online`` the
        online ladder (the players of matches between strangers the pool paired). In private
        a button under it shows the other one in its place."""
        t = await self.language(chat, person)
        private = message.chat.type == ChatType.PRIVATE
        online = any(arg.lower() == ONLINE for arg in args)
        scope = None if private or online else chat
        board = await self.service.leaderboard(scope, online=online)
        await self.reply(message, ladder_content(board, t, switch=private))

    async def record(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        """The chat's last finished match as a ``basra-record/1`` file, under the command."""
        record = await self.service.last_record(chat)
        caption = escape(record_caption(record, await self.language(chat, person)))
        self.delivery.post_record(message.chat_id, record, caption, reply_to=message.message_id)

    async def settings(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        t = await self.language(chat, person)
        await self.reply(message, render_settings(await self.service.settings(chat), t))


__all__ = ["Handlers", "person_of"]
