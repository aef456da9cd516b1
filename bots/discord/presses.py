"""Button presses: one renderer action in, one service call, one answer out.

Who pressed is Discord's ``interaction.user``; the payload says which table,
which view version and what to do. The service checks the rest (seat, turn,
version) and refuses with a ``ServiceError``, which becomes a short reply in
the presser's language, seen only by them; nothing changes. A hand message is
ephemeral, so only its owner can press it, but its payload is still checked.
"""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from ..i18n import Translator, translator
from ..render import Action, render_settings
from ..render.actions import ERASE_VERBS, HAND_VERBS, LOBBY_VERBS, POOL_VERBS, SETTING_VERBS, STRANGER_VERBS
from ..render.answers import lobby_answer
from ..render.records import record_caption
from ..service import (
    BadInput,
    HandView,
    HintView,
    NotSaved,
    Person,
    RecordFile,
    ServiceError,
    StaleView,
    TableService,
    TableView,
    chat_id,
    player_id,
)
from . import privacy as erasing
from .hands import HandSlot
from .messages import hand_parts, message_parts
from .replies import ANSWER_WAIT, Reply
from .texts import FAILED, NEEDS_MANAGE_CHANNELS, RESIGN_COMMAND

if TYPE_CHECKING:
    from .parts import Bot

log = logging.getLogger(__name__)
T = TypeVar("T")

#: On Discord a hand's message also carries its Resign and Hint buttons.
HAND_MESSAGE_VERBS = HAND_VERBS | {"resign", "hint"}
#: The pool's buttons and a stranger match's own (its rematch, its reactions): ``pairing``'s.
PAIRING_VERBS = POOL_VERBS | STRANGER_VERBS


def person_of(interaction: discord.Interaction[Any]) -> Person:
    """The presser as the service knows people.

    Discord has no Arabic locale, so the client's locale says nothing useful
    about an Arabic speaker; the language comes from the person's or the
    channel's setting, else ``BASRA_LANGUAGE``.
    """
    user = interaction.user
    return Person(player_id("dc", user.id), user.display_name)


def chat_of(interaction: discord.Interaction[Any]) -> str:
    assert interaction.channel_id is not None
    return chat_id("dc", interaction.channel_id)


def may_change_settings(interaction: discord.Interaction[Any]) -> bool:
    """Channel settings are for people who may manage the channel (anyone in a DM)."""
    return interaction.guild is None or interaction.permissions.manage_channels


class Handler:
    """What commands and presses both answer with: the bot's service, and the words of
    the person who acted."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot

    @property
    def service(self) -> TableService:
        return self.bot.service

    async def t_for(self, interaction: discord.Interaction[Any]) -> Translator:
        return translator(await self.service.language(chat_of(interaction), person_of(interaction)))


class Presses(Handler):

    # -- entry points ------------------------------------------------------------

    async def handle(self, interaction: discord.Interaction[Any], action: Action) -> None:
        started = time.perf_counter()
        try:
            if action.verb in LOBBY_VERBS:
                await self._lobby(interaction, action)
            elif action.verb == "hand":
                await self._open_hand(interaction, action)
            elif action.verb in HAND_MESSAGE_VERBS:
                await self._on_hand(interaction, action)
            elif action.verb in SETTING_VERBS:
                await self._setting(interaction, action)
            elif action.verb == "record":
                await self._record(interaction, action)
            elif action.verb == "rematch":
                await self._rematch(interaction, action)
            elif action.verb in ERASE_VERBS:
                await erasing.press(self.service, await self.t_for(interaction), interaction, action)
            elif action.verb in PAIRING_VERBS:
                await self.bot.pairing.press(interaction, action)
            else:
                raise BadInput(f"verb {action.verb!r} has no button here")
        except ServiceError as error:
            if isinstance(error, NotSaved):  # the service logged why
                self.bot.metrics.error("storage")
            # A search refused while a match is played says how to resign it.
            spelling = {"command": RESIGN_COMMAND} if action.verb in PAIRING_VERBS else {}
            await self._refuse(interaction, error, **spelling)
        except discord.HTTPException as error:
            # Discord refused our answer; whatever the press did is committed and shown
            # to the table, and "My hand" brings the presser's view back.
            log.warning("answering a %s press failed (HTTP %s)", action.verb, error.status)
            self.bot.metrics.error("answer")
        except Exception:
            await self.failed(interaction, "button")
        finally:
            self.bot.metrics.answered(time.perf_counter() - started)

    async def refuse_payload(self, interaction: discord.Interaction[Any], error: BadInput) -> None:
        """A payload no renderer made (forged or garbled): say so, do nothing."""
        log.info("refused a malformed button payload from %s", interaction.user.id)
        await self._refuse(interaction, error)

    async def failed(self, interaction: discord.Interaction[Any], where: str) -> None:
        """Anything unexpected: one logged error, a short apology to the presser."""
        await self.bot.on_error(f"basra_{where}", interaction)
        try:
            t = await self.t_for(interaction)
            text = t.gettext(FAILED)
        except Exception:
            text = FAILED
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass

    # -- lobby: the public lobby message ----------------------------------------------

    async def _lobby(self, interaction: discord.Interaction[Any], action: Action) -> None:
        person = person_of(interaction)
        table_id = action.table_id
        reply = Reply(interaction, "update")
        service = self.service
        calls: dict[str, Any] = {
            "join": lambda: service.join(table_id, person, action.team),
            "leave": lambda: service.leave(table_id, person),
            "team": lambda: service.choose_team(table_id, person, _required_team(action)),
            "computer": lambda: service.add_computer(
                table_id, person, action.arg or "beginner", action.team
            ),
            "uncomputer": lambda: service.remove_computer(table_id, person),
            "start": lambda: service.start_match(table_id, person),
            "cancel": lambda: service.cancel(table_id, person),
        }
        view = await self._claiming(reply, calls[action.verb]())
        # The lobby itself answered the press; a line for the presser alone says what it did.
        t = await self.t_for(interaction)
        await interaction.followup.send(lobby_answer(t, action.verb, view, person.player_id), ephemeral=True)

    async def _claiming(self, reply: Reply, work: Awaitable[T]) -> T:
        """Run ``work`` letting its notices answer the press by editing the pressed message."""
        claims = self.bot.platform.message_claims
        message_id = reply.message_id
        if message_id is not None:
            claims[message_id] = reply
        try:
            value = await reply.within(work)
        finally:
            if message_id is not None and claims.get(message_id) is reply:
                del claims[message_id]
        if reply.promised:
            await reply.within(reply.answered(ANSWER_WAIT))
        if not reply.done:
            await reply.ack()
        return value

    # -- the hand ------------------------------------------------------------------

    async def _open_hand(self, interaction: discord.Interaction[Any], action: Action) -> None:
        """ "My hand" on the table message: a fresh ephemeral hand, whatever the version."""
        pid = player_id("dc", interaction.user.id)
        reply = Reply(interaction, "ephemeral")
        hand: HandView = await reply.within(self.service.hand(action.table_id, pid))
        slot = self.bot.hands.open(action.table_id, pid, reply)
        await self._show_hand(slot, hand, await self.t_for(interaction))

    async def _on_hand(self, interaction: discord.Interaction[Any], action: Action) -> None:
        """A press on a hand message: preview a card or a plan, go back, ask for the
        practice hint (the hand previews its card), confirm, resign."""
        pid = player_id("dc", interaction.user.id)
        table_id = action.table_id
        if interaction.message is None or not interaction.message.flags.ephemeral:
            # A hand button only ever sits on its owner's ephemeral message: answering on a
            # public one would draw the hand for the whole channel. (discord.py already drops
            # a press whose button is not on the message; this holds whatever it does.)
            raise BadInput(f"a {action.verb} press on a public message")
        t = await self.t_for(interaction)
        reply = Reply(interaction, "update")
        slot = self.bot.hands.open(table_id, pid, reply)
        service = self.service
        try:
            if action.verb == "play":
                if action.card is None:
                    raise BadInput("confirm without a card")
                played: HandView = await reply.within(
                    service.play(table_id, pid, action.version, action.card, action.plan)
                )
                if slot.version < played.version:  # its own notice did not show it already
                    await self._show_hand(slot, played, t)
                return
            if action.verb == "resign":
                await reply.within(service.resign(table_id, pid))
                if not reply.done:
                    await reply.ack()
                return
            hint: HintView | None = None
            if action.verb == "hint":
                hint = await reply.within(service.hint(table_id, pid))
                hand: HandView = hint.hand
            elif action.verb == "back" or action.card is None:
                hand = await reply.within(service.hand(table_id, pid))
            else:
                hand = await reply.within(service.preview(table_id, pid, action.card, action.plan))
            if hand.version != action.version:
                # An old hand (its token ran out, or from before a restart): the floor moved.
                fresh = hand if action.verb == "back" else await service.hand(table_id, pid)
                await self._show_hand(slot, fresh, t, note=StaleView().message(t))
                return
            await self._show_hand(slot, hand, t, hint=hint)
            slot.card = hand.preview.card if hand.preview is not None else None
            slot.plan = hand.preview.selected if hand.preview is not None else None
        except ServiceError as error:
            fresh = None
            if not isinstance(error, StaleView) and action.card is not None:
                try:  # keep the card selected: the refusal is about it
                    fresh = await service.preview(table_id, pid, action.card, action.plan)
                except ServiceError:
                    fresh = None
            if fresh is None and isinstance(error.fresh, HandView):
                fresh = error.fresh
            if fresh is None:
                try:
                    fresh = await service.hand(table_id, pid)
                except ServiceError:
                    self.bot.hands.drop(table_id, pid, slot)
                    raise error from None
            await self._show_hand(slot, fresh, t, note=error.message(t))

    async def _show_hand(
        self,
        slot: HandSlot,
        hand: HandView,
        t: Translator,
        note: str | None = None,
        *,
        hint: HintView | None = None,
    ) -> None:
        parts = hand_parts(hand, t, now=self.bot.clock.now(), note=note, hint=hint, web=self.bot.web)
        await slot.reply.show(**parts)
        slot.version = max(slot.version, hand.version)
        if hand.table.running:
            self.bot.hands.shown(slot)
        else:
            self.bot.hands.drop(slot.table_id, slot.player_id, slot)

    # -- a finished match's record ----------------------------------------------------

    async def _record(self, interaction: discord.Interaction[Any], action: Action) -> None:
        """The Record button on a match result: the file, seen only by the presser (the
        button stays for whoever else wants it). Only in the match's own channel."""
        reply = Reply(interaction, "ephemeral")
        record = await reply.within(self.service.record(action.table_id))
        if record.chat_id != chat_of(interaction):
            raise BadInput("a record button outside its match's channel")
        await send_record(reply, record, await self.t_for(interaction))

    async def _rematch(self, interaction: discord.Interaction[Any], action: Action) -> None:
        """The Rematch button of a match result: the presser is seated again (told alone);
        the lobby, or once everyone is back the match, goes to the channel as any other."""
        reply = Reply(interaction, "ephemeral")
        t = await self.t_for(interaction)
        view = await reply.within(self.service.rematch(action.table_id, person_of(interaction)))
        if isinstance(view, TableView):
            await reply.tell(t.gettext("Everyone is back: the rematch has started."))
        else:
            await reply.tell(t.gettext("You are in. The rematch starts when everyone who played is back."))

    # -- channel settings (the ephemeral settings message) ----------------------------

    async def _setting(self, interaction: discord.Interaction[Any], action: Action) -> None:
        t = await self.t_for(interaction)
        reply = Reply(interaction, "update")
        chat = chat_of(interaction)
        if not may_change_settings(interaction):
            await reply.tell(t.gettext(NEEDS_MANAGE_CHANNELS))
            return
        settings = await reply.within(self.bot.commands_impl.apply_setting(chat, interaction, action))
        await reply.show(**message_parts(render_settings(settings, t), "info"))

    # -- refusals -------------------------------------------------------------------

    async def _refuse(
        self, interaction: discord.Interaction[Any], error: ServiceError, **spelling: str
    ) -> None:
        """The refusal, seen only by the presser; nothing changes, and the public messages
        already show (or are about to show) the latest state. ``spelling`` names the commands
        a refusal may point to."""
        t = await self.t_for(interaction)
        text = error.message(t, **spelling)
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException as http:
            log.info("a refusal could not be sent (HTTP %s)", http.status)


async def send_record(reply: Reply, record: RecordFile, t: Translator) -> None:
    """A match's record as an attachment, with what it is above it."""
    file = discord.File(io.BytesIO(record.data), filename=record.name)
    await reply.attach(record_caption(record, t), file)


def _required_team(action: Action) -> int:
    team = action.team
    if team is None:
        raise BadInput("team button without a team")
    return team
