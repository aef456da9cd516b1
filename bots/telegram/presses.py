"""Button presses: untrusted payloads checked, then turned into one service call each.

A hand button counts only in the presser's own private chat, so a forged
press can never draw a hand in a group. The service checks the rest (the
seat, the turn, the view's version); a refusal is a short alert, with the
fresh view drawn where it belongs.

A card's press previews it, and only a confirm plays it. A hand is in a private chat,
which takes about one write a second, so the preview of a card with one outcome is the
press's answer (a toast, which costs no write: what it takes, or that it takes nothing),
and a second press on the same card of the same hand, within ``CONFIRM_SECONDS``, is its
confirm. Another card pressed in between (or the hint), a newer hand, or the time
passing, disarms it. A card with a choice (several plans, or laying it instead) is
previewed in the hand, its plans a button each, and confirmed with Play. Which card a
player armed is known to the process that answered the press: a second press that reaches
another process is previewed again. It is not kept in the store: that would make every
first press a durable write (as a play is), and what another card's press in between
undoes would need one more, to spare a player one more press in the moment after another
process takes over the bot.

In a practice match, and a group's 1-v-1, the confirmed play does not change the hand at
once: the answer to it, when it comes soon, is drawn on the same hand, with the play
(``hands``); the press's answer says what was played.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from telegram import CallbackQuery, InlineKeyboardButton, InlineKeyboardMarkup, Message, Update
from telegram.constants import ChatMemberStatus, ChatType
from telegram.error import NetworkError, TelegramError

from core import BasraError

from ..i18n import N_, SUPPORTED, Translator, translator
from ..metrics import Metrics
from ..render import (
    Action,
    Button,
    Rendered,
    render_error,
    render_leaderboard,
    render_lobby,
    render_moved,
    render_settings,
    render_table,
)
from ..render.actions import HAND_VERBS, LOBBY_VERBS, SETTING_VERBS, is_number
from ..render.answers import lobby_answer, played_answer, preview_answer
from ..render.records import record_caption
from ..service import (
    AlreadyPlaying,
    BadInput,
    HandView,
    LeaderboardView,
    LobbyView,
    NotAdmin,
    NotSaved,
    Person,
    ServiceError,
    StaleView,
    TableView,
    player_id,
    raw_id,
)
from .contents import content_of, escape
from .delivery import Delivery
from .keyboards import StartPayload, deep_link
from .outbox import Content
from .replies import Context, Replies, person_of, short

log = logging.getLogger(__name__)

#: A press's answer lost to the network is sent again after these pauses (Telegram keeps a
#: press answerable for some seconds; a timed-out answer that did arrive is refused harmlessly).
ANSWER_RETRIES = (0.1, 0.5)
LEVEL_WORDS = ("beginner", "strong", "expert")
#: How long after its preview's toast a second press on the same card plays it.
CONFIRM_SECONDS = 10.0
#: Past this many armed cards kept, the expired ones are dropped.
ARMED_KEPT = 1000


@dataclass(frozen=True, slots=True)
class Armed:
    """A card whose preview was its press's answer, on hand message ``message_id`` at table
    version ``version``: a second press on it plays ``plan``, the one the preview told."""

    message_id: int
    version: int
    card: str
    plan: int | None
    at: float

    def confirmed_by(self, message_id: int, action: Action, now: float) -> bool:
        """Whether ``action``, pressed on ``message_id`` at ``now``, is this card's second press."""
        return (action.verb == "card" and action.card == self.card and action.version == self.version
                and message_id == self.message_id and now - self.at <= CONFIRM_SECONDS)


class Acknowledgement:
    """Answers a press once the service has committed its action (``committed=``):
    the spinner stops at once, whatever the action's messages wait for."""

    def __init__(self, answer: Callable[[], Awaitable[bool]]) -> None:
        self._answer = answer
        self.answered = False

    async def __call__(self) -> None:
        self.answered = await self._answer()


class NotTheBotsMessage(ServiceError):
    """A button pressed on a copy of the bot's message (forwarded), not on the message itself."""

    msgid = N_("This is a copy. Press the buttons on the bot's own message.")


def sent_by_bot(message: Message) -> bool:
    """Whether the bot itself sent ``message`` (not a copy forwarded by someone)."""
    author = message.from_user
    return (author is not None and author.is_bot and author.id == message.get_bot().id
            and message.forward_origin is None)


class Presses(Replies):
    """The button half of the handlers."""

    def __init__(self, delivery: Delivery, metrics: Metrics | None = None) -> None:
        super().__init__(delivery, metrics)
        #: The cards a second press would play, by (player, table) (``Armed``).
        self._armed: dict[tuple[str, str], Armed] = {}

    async def press(self, update: Update, context: Context) -> None:
        query = update.callback_query
        if query is None or query.from_user is None or query.from_user.is_bot:
            return
        started = time.perf_counter()
        person = person_of(query.from_user)
        message = query.message if isinstance(query.message, Message) else None
        chat = self.delivery.moves.service_id(message.chat_id) if message is not None else None
        answered = False
        try:
            answered = await self._press(query, message, person, chat)
        except NotSaved as error:  # the service logged why
            self.metrics.error("storage")
            answered = await self._refused(query, message, person, chat, error)
        except ServiceError as error:
            answered = await self._refused(query, message, person, chat, error)
        except BasraError as error:
            answered = await self._refused(query, message, person, chat, BadInput(str(error)))
        finally:
            if not answered:
                await self._answer(query)
            # The answer is the last thing a press waits for (a play's goes out once committed).
            self.metrics.answered(time.perf_counter() - started)

    async def _answer(self, query: CallbackQuery, text: str | None = None, *, alert: bool = False,
                      url: str | None = None) -> bool:
        for pause in (*ANSWER_RETRIES, None):
            try:
                await query.answer(short(text) if text else None, show_alert=alert, url=url)
            except NetworkError as error:  # the spinner would go on: try again, briefly
                if pause is None:
                    log.warning("could not answer a press: %s", type(error).__name__)
                    self.metrics.error("answer")
                    break
                await asyncio.sleep(pause)
            except TelegramError as error:
                # Too old or already answered: the player sees a spinner stop either way.
                log.info("could not answer a press: %s", type(error).__name__)
                break
            else:
                break
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
        if action.verb == "record":
            return await self._record(message, chat, action)
        if action.verb == "rematch":
            return await self._rematch(query, message, person, chat, action)
        if action.verb in LOBBY_VERBS:
            return await self._lobby_press(query, message, person, chat, action)
        if action.verb in SETTING_VERBS:
            return await self._setting_press(query, message, person, chat, action)
        if action.verb == "top":
            return await self._top_press(message, person, chat, action)
        raise BadInput(f"unknown verb {action.verb}")

    def _own_private(self, message: Message | None, person: Person) -> Message:
        """Hand buttons work only on the bot's own message in the presser's own private chat:
        never on a copy (a forwarded hand is the person's message, which the bot cannot edit)."""
        if message is None or player_id("tg", message.chat_id) != person.player_id:
            raise BadInput("hand button outside the presser's private chat")
        if not sent_by_bot(message):
            raise NotTheBotsMessage()
        return message

    async def _hand_press(self, query: CallbackQuery, message: Message | None, person: Person,
                          action: Action) -> bool:
        own = self._own_private(message, person)
        table, me = action.table_id, person.player_id
        armed = self._armed.pop((me, table), None)
        if armed is not None and not armed.confirmed_by(own.message_id, action, time.monotonic()):
            armed = None
        if armed is not None:
            # The same card again, its preview told in the first press's answer: the confirm.
            action = Action("play", table, armed.version, card=armed.card, plan=armed.plan)
        if action.verb == "play":
            if action.card is None:
                raise BadInput("confirm without a card")
            # The play's own notices turn this hand into its short line; the answer goes out
            # as soon as the play is committed. The hand may wait a moment to be drawn with
            # the answer to the play (``hands.Fold``): the press's answer says what was played.
            said = None
            with contextlib.suppress(ServiceError):  # the play says what is wrong, if anything
                chat = (await self.service.table(table)).chat_id
                said = played_answer(action.card, await self.language(chat, person))
            acknowledged = Acknowledgement(lambda: self._answer(query, said))
            try:
                await self.service.play(table, me, action.version, action.card, action.plan,
                                        committed=acknowledged)
            except NotSaved:
                if armed is not None:
                    # Nothing changed, and the player was told to try again: the same card
                    # pressed once more is its confirm again, not its preview.
                    self._arm((me, table), replace(armed, at=time.monotonic()))
                raise
            return acknowledged.answered
        if action.verb == "back":
            hand = await self.service.hand(table, me)
        else:
            if action.card is None:
                raise BadInput("preview without a card")
            hand = await self.service.preview(table, me, action.card, action.plan)
        if hand.version != action.version:
            # A preview changes nothing, but one drawn on an outdated hand would mislead.
            raise StaleView(fresh=await self.service.hand(table, me))
        lang = await self.service.language(hand.table.chat_id, person)
        told = preview_answer(hand, translator(lang)) if action.verb == "card" else None
        preview = hand.preview
        if told is not None and preview is not None and await self.delivery.is_live(hand, own.message_id):
            # The preview is the answer, and the hand stays as it is: no write.
            if hand.your_turn:
                armed = Armed(own.message_id, hand.version, preview.card, preview.selected, time.monotonic())
                self._arm((me, table), armed)
            return await self._answer(query, told)
        if not await self.delivery.show_hand(hand, lang, from_message=own.message_id):
            return await self._answer(query, render_moved(translator(lang)).plain())
        return await self._answer(query)

    def _arm(self, key: tuple[str, str], armed: Armed) -> None:
        """Note the card a second press would play (``Armed``)."""
        kept = self._armed
        if len(kept) > ARMED_KEPT:
            for old in [k for k, a in kept.items() if armed.at - a.at > CONFIRM_SECONDS]:
                del kept[old]
        kept[key] = armed

    async def _refused(self, query: CallbackQuery, message: Message | None, person: Person,
                       chat: str | None, error: ServiceError) -> bool:
        t = await self.language(chat, person)
        fresh = error.fresh
        error.fresh = None
        spelling = {"command": "/resign"} if isinstance(error, AlreadyPlaying) else {}
        await self._answer(query, render_error(error, t, **spelling).plain(), alert=True)
        if fresh is None or message is None:
            return True
        if not sent_by_bot(message):
            return True  # nothing is ever drawn on a message the bot did not send
        if isinstance(fresh, HandView):
            if fresh.player_id == person.player_id and player_id("tg", message.chat_id) == person.player_id:
                lang = await self.service.language(fresh.table.chat_id, person)
                await self.delivery.show_hand(fresh, lang, from_message=message.message_id)
        elif chat == fresh.chat_id:
            # A public view is redrawn only on that table's own message, in the chat's language.
            public = translator(await self.service.language(fresh.chat_id))
            if isinstance(fresh, LobbyView):
                self.delivery.redraw(fresh.table_id, fresh.chat_id, message.message_id,
                                     content_of(render_lobby(fresh, public)), lobby=True,
                                     version=fresh.revision)
            elif isinstance(fresh, TableView):
                self.delivery.redraw(fresh.table_id, fresh.chat_id, message.message_id,
                                     content_of(render_table(fresh, public)), lobby=False,
                                     version=fresh.version)
        return True

    async def _show_my_hand(self, query: CallbackQuery, message: Message | None, person: Person,
                            chat: str | None, action: Action) -> bool:
        hand = await self.service.hand(action.table_id, person.player_id)
        lang = await self.service.language(hand.table.chat_id, person)
        t = translator(lang)
        user = int(raw_id(person.player_id))
        if user in self.delivery.unreachable:
            url = deep_link(self.delivery.bot_username, StartPayload("hand", hand.table_id))
            return await self._answer(query, url=url)
        await self.delivery.show_hand(hand, lang, fresh=True)
        await self.delivery.clear_note(hand.table_id, person.player_id)
        if message is not None and message.chat_id != user:
            return await self._answer(query, t.gettext("Your hand is in our private chat."))
        return False

    async def _record(self, message: Message | None, chat: str | None, action: Action) -> bool:
        """The Record button of a match result: the file, under the result, in that chat only."""
        record = await self.service.record(action.table_id)
        if message is None or chat != record.chat_id:
            raise BadInput("a record button outside its match's chat")
        t = translator(await self.service.language(chat))
        self.delivery.post_record(message.chat_id, record, escape(record_caption(record, t)),
                                  reply_to=message.message_id, unbutton=message.message_id,
                                  keep=without_verb(message, "record"))
        return False

    async def _rematch(self, query: CallbackQuery, message: Message | None, person: Person,
                       chat: str | None, action: Action) -> bool:
        """The Rematch button of a match result: seated again; the lobby (or, once everyone is
        back, the match) is shown in the chat as any other."""
        if message is None or chat is None:
            raise BadInput("a rematch button outside its match's chat")
        view = await self.service.rematch(action.table_id, person)
        t = await self.language(chat, person)
        if isinstance(view, TableView):
            return await self._answer(query, t.gettext("Everyone is back: the rematch has started."))
        return await self._answer(query, t.gettext(
            "You are in. The rematch starts when everyone who played is back."))

    async def _lobby_press(self, query: CallbackQuery, message: Message | None, person: Person,
                           chat: str | None, action: Action) -> bool:
        table, verb = action.table_id, action.verb
        view: LobbyView | TableView
        if verb == "join":
            view = await self.service.join(table, person, action.team)
        elif verb == "team":
            view = await self.service.choose_team(table, person, action.team or 0)
        elif verb == "leave":
            view = await self.service.leave(table, person)
        elif verb == "computer":
            level = action.arg if action.arg in LEVEL_WORDS else "beginner"
            view = await self.service.add_computer(table, person, level, action.team)
        elif verb == "uncomputer":
            view = await self.service.remove_computer(table, person)
        elif verb == "start":
            said = lobby_answer(await self.language(chat, person), verb, None, person.player_id)
            acknowledged = Acknowledgement(lambda: self._answer(query, said))
            await self.service.start_match(table, person, committed=acknowledged)
            return acknowledged.answered
        else:
            view = await self.service.cancel(table, person)
        t = await self.language(chat, person)
        in_group = message is not None and message.chat.type != ChatType.PRIVATE
        if verb in ("join", "team") and in_group and message is not None \
                and not await self.probe(message, person, t):
            url = deep_link(self.delivery.bot_username, StartPayload("hand", table))
            await self.delivery.note(table, view.chat_id, person.player_id, person.name)
            return await self._answer(query, url=url)
        # The lobby is redrawn at the group's pace: the toast says at once what the press did.
        return await self._answer(query, lobby_answer(t, verb, view, person.player_id))

    async def _setting_press(self, query: CallbackQuery, message: Message | None, person: Person,
                             chat: str | None, action: Action) -> bool:
        if chat is None or message is None:
            raise BadInput("settings press without a chat")
        if message.chat.type != ChatType.PRIVATE and not await self._is_admin(message, person):
            raise NotAdmin()
        arg = action.arg or ""
        if action.verb == "variant":
            current = await self.service.settings(chat)
            state = dict(current.variants)
            if arg not in state:
                raise BadInput(f"unknown variant {arg!r}")
            on = bool(action.plan) if action.plan is not None else not state[arg]
            view = await self.service.set_variant(chat, arg, on)
        elif action.verb == "clock":
            if not is_number(arg):
                raise BadInput("clock without seconds")
            view = await self.service.set_turn_seconds(chat, int(arg))
        else:
            view = await self.service.set_chat_language(chat, arg if arg in SUPPORTED else None)
        t = translator(view.effective_language)
        self.delivery.edit(message.chat_id, message.message_id, content_of(render_settings(view, t)))
        return False

    async def _top_press(self, message: Message | None, person: Person, chat: str | None,
                         action: Action) -> bool:
        """The switch under ``/top`` in a private chat: everyone's leaderboard and the online
        ladder take each other's place in the same message."""
        if message is None or chat is None or message.chat.type != ChatType.PRIVATE:
            raise BadInput("a leaderboard switch outside a private chat")
        online = action.arg == "online"
        board = await self.service.leaderboard(None, online=online)
        t = await self.language(chat, person)
        self.delivery.edit(message.chat_id, message.message_id, ladder_content(board, t, switch=True))
        return False

    async def _is_admin(self, message: Message, person: Person) -> bool:
        """Whether the presser is one of the group's admins (asked of Telegram at each change)."""
        member = await message.get_bot().get_chat_member(message.chat_id, int(raw_id(person.player_id)))
        return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)

    async def _hint(self, query: CallbackQuery, message: Message | None, person: Person,
                    action: Action) -> bool:
        """Practice only: the hand previews what the computer would play, with why above it.
        The press gets a plain answer: the hint is read once, in the message, not again in an
        alert that needs a tap to close."""
        own = self._own_private(message, person)
        self._armed.pop((person.player_id, action.table_id), None)
        hint = await self.service.hint(action.table_id, person.player_id)
        if hint.version != action.version:
            raise StaleView(fresh=await self.service.hand(action.table_id, person.player_id))
        lang = await self.service.language(hint.hand.table.chat_id, person)
        if not await self.delivery.show_hand(hint.hand, lang, from_message=own.message_id, hint=hint):
            return await self._answer(query, render_moved(translator(lang)).plain())
        return await self._answer(query)


def ladder_content(board: LeaderboardView, t: Translator, *, switch: bool) -> Content:
    """A leaderboard; with ``switch`` (a private chat), a button under it that shows the other
    one in its place: the online ladder (matches between players the bot paired online), or
    everyone's."""
    rendered = render_leaderboard(board, t)
    if not switch:
        return content_of(rendered)
    if board.online:
        # TRANSLATORS: button under the online ladder: show everyone's leaderboard instead.
        button = Button(t.gettext("🏆 Leaderboard"), Action("top", arg="all"))
    else:
        # TRANSLATORS: button under the leaderboard in a private chat: show the online ladder
        # (matches between players the bot paired online) instead.
        button = Button(t.gettext("🌐 Online ladder"), Action("top", arg="online"))
    return content_of(Rendered(rendered.text, ((button,),)))


def without_verb(message: Message, *verbs: str) -> InlineKeyboardMarkup | None:
    """The message's keyboard without the buttons of ``verbs`` (None when nothing is left)."""
    markup = message.reply_markup
    if markup is None:
        return None

    def other(button: InlineKeyboardButton) -> bool:
        data = button.callback_data
        fields = data.split("|") if isinstance(data, str) else []
        return not (len(fields) > 1 and fields[1] in verbs)

    rows = [[b for b in row if other(b)] for row in markup.inline_keyboard]
    kept = [row for row in rows if row]
    return InlineKeyboardMarkup(kept) if kept else None
