"""The inbound half of the adapter: commands and button presses become service calls.

Each handler parses the update, names the person, calls one service method
and renders what comes back (or the refusal, localized). No rule of the game
is decided here: the service checks seats, turns and versions. What is
checked here is what only Telegram knows: a hand button must be pressed in
the presser's own private chat, so no hand is ever drawn in a group.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from telegram import CallbackQuery, InlineKeyboardButton, Message, Update, User
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import CallbackContext

from core import BasraError

from ..i18n import Translator, translator, user_text
from ..render import (
    Action,
    Rendered,
    hint_text,
    render_error,
    render_hand,
    render_help,
    render_leaderboard,
    render_lobby,
    render_rules,
    render_settings,
    render_stats,
    render_table,
)
from ..service import (
    BadInput,
    HandView,
    LobbyView,
    NotSeated,
    Person,
    ServiceError,
    StaleView,
    TableService,
    TableView,
    chat_id,
    player_id,
)
from .delivery import Delivery, content_of
from .keyboards import StartPayload, deep_link, keyboard
from .outbox import Content, Outcome

log = logging.getLogger(__name__)

Context = CallbackContext[Any, Any, Any, Any]
ALERT_LIMIT = 200
LOBBY_VERBS = frozenset({"join", "leave", "team", "computer", "uncomputer", "start", "cancel"})
HAND_VERBS = frozenset({"card", "plan", "play", "back"})
SETTING_VERBS = frozenset({"variant", "clock", "lang"})
MODES = {"1v1": "1v1", "2": "1v1", "2v2": "2v2", "4": "2v2"}
LEVEL_WORDS = ("beginner", "strong", "expert")


def person_of(user: User) -> Person:
    name = user.full_name.strip() or (user.username or str(user.id))
    return Person(player_id("tg", user.id), name[:64], user.language_code)


def short(text: str) -> str:
    """A callback answer fits Telegram's 200 characters."""
    text = " ".join(text.split())
    return text if len(text) <= ALERT_LIMIT else text[: ALERT_LIMIT - 1] + "…"


class Handlers:
    """Command and button handlers bound to one adapter."""

    def __init__(self, delivery: Delivery) -> None:
        self.delivery = delivery

    @property
    def service(self) -> TableService:
        return self.delivery.service

    async def language(self, chat: str | None, person: Person) -> Translator:
        return translator(await self.service.language(chat, person))

    async def reply(self, message: Message, rendered: Rendered | Content) -> None:
        content = rendered if isinstance(rendered, Content) else content_of(rendered)
        sent = await self.delivery.outbox.send(message.chat_id, content)
        if sent.outcome is Outcome.FAILED:
            self.delivery.retrier.schedule(
                ("reply", message.chat_id, message.message_id),
                lambda: self._resend(message.chat_id, content),
                delay=sent.retry_after or None,
            )

    async def _resend(self, chat: int, content: Content) -> bool:
        return (await self.delivery.outbox.send(chat, content)).outcome is not Outcome.FAILED

    async def reply_text(self, message: Message, text: str,
                         buttons: list[list[InlineKeyboardButton]] | None = None) -> None:
        await self.reply(message, Content(_escape(text), keyboard((), buttons or [])))

    # -- commands ---------------------------------------------------------------------------

    def command(self, work: Callable[[Message, Person, str, list[str]], Awaitable[None]]
                ) -> Callable[[Update, Context], Coroutine[Any, Any, None]]:
        """Wrap a command: name the person and chat, turn refusals into a localized reply."""

        async def handler(update: Update, context: Context) -> None:
            message, user = update.effective_message, update.effective_user
            if message is None or user is None or user.is_bot:
                return
            person = person_of(user)
            chat = chat_id("tg", message.chat_id)
            try:
                await work(message, person, chat, list(context.args or []))
            except ServiceError as error:
                t = await self.language(chat, person)
                await self.reply(message, self._public_error(error, t, message))
            except BasraError as error:
                t = await self.language(chat, person)
                await self.reply(message, render_error(BadInput(str(error)), t))

        return handler

    def _public_error(self, error: ServiceError, t: Translator, message: Message) -> Rendered:
        """A refusal for a chat: a fresh hand is never shown outside its owner's private chat."""
        if isinstance(error.fresh, HandView) and message.chat.type != ChatType.PRIVATE:
            error.fresh = None
        return render_error(error, t)

    async def start(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        """``/start`` in private: welcome, join a lobby from a deep link, deliver waiting hands."""
        if message.chat.type != ChatType.PRIVATE:
            await self.help(message, person, chat, args)
            return
        user = message.chat_id
        self.delivery.unreachable.discard(user)
        self.delivery.reachable.add(user)
        payload = StartPayload.parse(args[0]) if args else None
        t = await self.language(chat, person)
        if payload is not None and payload.kind == "join":
            await self.service.join(payload.table_id, person, payload.team)
            await self.reply_text(message, t.gettext(
                "You are at the table. Your cards will come here, in this chat, when the match starts."))
        elif payload is None:
            await self.reply_text(message, t.gettext(
                "Welcome to Basra! Add me to a group and send /newgame there, or send /practice "
                "here to play against the computer. Your cards always come here, in private."))
        await self.send_hands(person)

    async def send_hands(self, person: Person, table_id: str | None = None) -> int:
        """Send fresh hand messages of every running match of ``person`` (or one table)."""
        hands = await self.service.hands_of(person.player_id)
        sent = 0
        for hand in hands:
            if table_id is not None and hand.table_id != table_id:
                continue
            lang = await self.service.language(hand.table.chat_id, person)
            outcome = await self.delivery.show_hand(hand, lang, fresh=True)
            if outcome.ok:
                sent += 1
                await self.delivery.clear_note(hand.table_id, person.player_id)
        return sent

    async def help(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        t = await self.language(chat, person)
        await self.reply(message, render_help(t))

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
        if message.chat.type != ChatType.PRIVATE:
            link = InlineKeyboardButton(t.gettext("Open the bot"),
                                        url=f"https://t.me/{self.delivery.bot_username}")
            await self.reply_text(message, t.gettext(
                "Practice matches are played in private chat with me: open it and send /practice."),
                [[link]])
            return
        players = 4 if any(a in ("4", "2v2") for a in args) else 2
        level = next((a.lower() for a in args if a.lower() in LEVEL_WORDS), "beginner")
        await self.service.practice(chat, person, players=players, level=level)

    async def hand(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        t = await self.language(chat, person)
        table_id = None
        if message.chat.type != ChatType.PRIVATE:
            current = await self.service.open_table(chat)
            table_id = current.table_id if isinstance(current, TableView) else None
            if table_id is None or current is None or current.seat_of(person.player_id) is None:
                raise NotSeated()
        if await self.send_hands(person, table_id):
            if message.chat.type != ChatType.PRIVATE:
                await self.reply_text(message, t.gettext("{name}, your hand is in our private chat.",
                                                         name=user_text(person.name)))
            return
        if message.chat.type == ChatType.PRIVATE:
            await self.reply_text(message, t.gettext("You have no running match."))
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

    async def probe(self, message: Message, person: Person, t: Translator) -> bool:
        """Make sure the bot can write to ``person`` in private; if not, say so in the group."""
        user = int(person.player_id.partition(":")[2])
        if user in self.delivery.reachable:
            return True
        sent = await self.delivery.outbox.send(user, Content(_escape(t.gettext(
            "You are at the table in {group}. Your cards will come here.",
            group=user_text(message.chat.title or "")))), silent=True)
        if sent.outcome.ok:
            self.delivery.reachable.add(user)
            return True
        if sent.outcome is Outcome.BLOCKED:
            self.delivery.unreachable.add(user)
        return False

    async def resign(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        await self.service.resign_in_chat(chat, person.player_id)

    async def score(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        t = await self.language(chat, person)
        current = await self.service.open_table(chat)
        if isinstance(current, TableView):
            await self.reply(message, render_table(current, t))
            return
        scope = None if message.chat.type == ChatType.PRIVATE else chat
        await self.reply(message, render_stats(await self.service.stats(person.player_id, scope), t))

    async def top(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        t = await self.language(chat, person)
        scope = None if message.chat.type == ChatType.PRIVATE else chat
        await self.reply(message, render_leaderboard(await self.service.leaderboard(scope), t))

    async def settings(self, message: Message, person: Person, chat: str, args: list[str]) -> None:
        t = await self.language(chat, person)
        await self.reply(message, render_settings(await self.service.settings(chat), t))

    # -- button presses -----------------------------------------------------------------------

    async def press(self, update: Update, context: Context) -> None:
        query = update.callback_query
        if query is None or query.from_user is None or query.from_user.is_bot:
            return
        person = person_of(query.from_user)
        message = query.message if isinstance(query.message, Message) else None
        chat = chat_id("tg", message.chat_id) if message is not None else None
        answered = False
        try:
            answered = await self._press(query, message, person, chat)
        except ServiceError as error:
            answered = await self._refused(query, message, person, chat, error)
        except BasraError as error:
            answered = await self._refused(query, message, person, chat, BadInput(str(error)))
        finally:
            if not answered:
                await self._answer(query)

    async def _answer(self, query: CallbackQuery, text: str | None = None, *, alert: bool = False,
                      url: str | None = None) -> bool:
        try:
            await query.answer(short(text) if text else None, show_alert=alert, url=url)
        except TelegramError as error:
            # Too old or already answered: the player sees a spinner stop either way.
            log.info("could not answer a press: %s", type(error).__name__)
        return True

    async def _press(self, query: CallbackQuery, message: Message | None, person: Person,
                     chat: str | None) -> bool:
        action = Action.decode(query.data or "")
        if action.verb == "hint":
            return await self._hint(query, message, person, action)
        if action.verb in HAND_VERBS:
            return await self._hand_press(query, message, person, action)
        if action.verb == "hand":
            return await self._show_my_hand(query, message, person, chat, action)
        if action.verb == "resign":
            await self.service.resign(action.table_id, person.player_id)
            return False
        if action.verb in LOBBY_VERBS:
            return await self._lobby_press(query, message, person, chat, action)
        if action.verb in SETTING_VERBS:
            return await self._setting_press(query, message, person, chat, action)
        raise BadInput(f"unknown verb {action.verb}")

    def _own_private(self, message: Message | None, person: Person) -> Message:
        """Hand buttons work only on a message in the presser's own private chat."""
        if message is None or player_id("tg", message.chat_id) != person.player_id:
            raise BadInput("hand button outside the presser's private chat")
        return message

    async def _hand_press(self, query: CallbackQuery, message: Message | None, person: Person,
                          action: Action) -> bool:
        own = self._own_private(message, person)
        table, me = action.table_id, person.player_id
        if action.verb == "play":
            if action.card is None:
                raise BadInput("confirm without a card")
            hand = await self.service.play(table, me, action.version, action.card, action.plan)
        elif action.verb == "back":
            hand = await self.service.hand(table, me)
        else:
            if action.card is None:
                raise BadInput("preview without a card")
            hand = await self.service.preview(table, me, action.card, action.plan)
        if action.verb != "play" and hand.version != action.version:
            # A preview changes nothing, but one drawn on an outdated hand would mislead.
            raise StaleView(fresh=await self.service.hand(table, me))
        lang = await self.service.language(hand.table.chat_id, person)
        # The spinner stops while the hand is redrawn: two round trips at once, not one after the other.
        await asyncio.gather(self.delivery.show_hand(hand, lang, from_message=own.message_id),
                             self._answer(query))
        return True

    async def _refused(self, query: CallbackQuery, message: Message | None, person: Person,
                       chat: str | None, error: ServiceError) -> bool:
        t = await self.language(chat, person)
        fresh = error.fresh
        error.fresh = None
        await self._answer(query, render_error(error, t).plain(), alert=True)
        if fresh is None or message is None:
            return True
        if isinstance(fresh, HandView):
            if fresh.player_id == person.player_id and player_id("tg", message.chat_id) == person.player_id:
                lang = await self.service.language(fresh.table.chat_id, person)
                await self.delivery.show_hand(fresh, lang, from_message=message.message_id)
        elif chat != fresh.chat_id:
            pass  # a public view is redrawn only on that table's own chat
        elif isinstance(fresh, LobbyView):
            await self.delivery.outbox.edit(message.chat_id, message.message_id,
                                            content_of(render_lobby(fresh, t)))
        elif isinstance(fresh, TableView):
            await self.delivery.outbox.edit(message.chat_id, message.message_id,
                                            content_of(render_table(fresh, t)))
        return True

    async def _show_my_hand(self, query: CallbackQuery, message: Message | None, person: Person,
                            chat: str | None, action: Action) -> bool:
        hand = await self.service.hand(action.table_id, person.player_id)
        lang = await self.service.language(hand.table.chat_id, person)
        t = translator(lang)
        outcome = await self.delivery.show_hand(hand, lang, fresh=True)
        if outcome.ok:
            await self.delivery.clear_note(hand.table_id, person.player_id)
            if message is not None and message.chat_id != int(person.player_id.partition(":")[2]):
                return await self._answer(query, t.gettext("Your hand is in our private chat."))
            return False
        url = deep_link(self.delivery.bot_username, StartPayload("hand", hand.table_id))
        return await self._answer(query, url=url)

    async def _lobby_press(self, query: CallbackQuery, message: Message | None, person: Person,
                           chat: str | None, action: Action) -> bool:
        table, verb = action.table_id, action.verb
        view: LobbyView | TableView
        if verb == "join":
            view = await self.service.join(table, person, _team(action))
        elif verb == "team":
            view = await self.service.choose_team(table, person, _team(action) or 0)
        elif verb == "leave":
            view = await self.service.leave(table, person)
        elif verb == "computer":
            level = action.arg if action.arg in LEVEL_WORDS else "beginner"
            view = await self.service.add_computer(table, person, level, _team(action))
        elif verb == "uncomputer":
            view = await self.service.remove_computer(table, person)
        elif verb == "start":
            view = await self.service.start_match(table, person)
        else:
            view = await self.service.cancel(table, person)
        if verb in ("join", "team") and message is not None and message.chat.type != ChatType.PRIVATE:
            t = await self.language(chat, person)
            if not await self.probe(message, person, t):
                url = deep_link(self.delivery.bot_username, StartPayload("hand", table))
                await self.delivery.note(table, view.chat_id, person.player_id, person.name)
                return await self._answer(query, url=url)
        return False

    async def _setting_press(self, query: CallbackQuery, message: Message | None, person: Person,
                             chat: str | None, action: Action) -> bool:
        if chat is None or message is None:
            raise BadInput("settings press without a chat")
        arg = action.arg or ""
        if action.verb == "variant":
            current = await self.service.settings(chat)
            state = dict(current.variants)
            if arg not in state:
                raise BadInput(f"unknown variant {arg!r}")
            on = bool(action.plan) if action.plan is not None else not state[arg]
            view = await self.service.set_variant(chat, arg, on)
        elif action.verb == "clock":
            if not arg.isdigit():
                raise BadInput("clock without seconds")
            view = await self.service.set_turn_seconds(chat, int(arg))
        else:
            view = await self.service.set_chat_language(chat, arg if arg in ("ar", "en") else None)
        t = translator(view.effective_language)
        await self.delivery.outbox.edit(message.chat_id, message.message_id,
                                        content_of(render_settings(view, t)))
        return False

    async def _hint(self, query: CallbackQuery, message: Message | None, person: Person,
                    action: Action) -> bool:
        """Practice only: the hand previews what the computer would play, and the alert says why."""
        own = self._own_private(message, person)
        hint = await self.service.hint(action.table_id, person.player_id)
        if hint.version != action.version:
            raise StaleView(fresh=await self.service.hand(action.table_id, person.player_id))
        lang = await self.service.language(hint.hand.table.chat_id, person)
        await self.delivery.show_hand(hint.hand, lang, from_message=own.message_id, hint=hint)
        return await self._answer(query, hint_text(hint, translator(lang)), alert=True)


def _team(action: Action) -> int | None:
    if action.arg is not None and action.arg in ("0", "1"):
        return int(action.arg)
    if action.arg in ("A", "a"):
        return 0
    if action.arg in ("B", "b"):
        return 1
    return action.plan if action.plan in (0, 1) else None


def _escape(text: str) -> str:
    import html

    return html.escape(text, quote=False)


__all__ = ["Handlers", "person_of", "render_hand"]
