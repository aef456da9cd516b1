"""``/basra play`` and the pairing pool's buttons: look for someone to play now.

``/basra play`` (in a server's channel or in the DM with the bot), or "Play someone again"
under a stranger match's result, puts the person in the pool with their DM as its chat,
has their one waiting message posted there (``DiscordPlatform.open_waiting``) and tells
them, privately, where to follow it; if Discord will not let the bot write to them, the
search is called off and they are told why. The waiting message's buttons stop the search, or, once the
computer is offered, play it instead (a practice match in the DM) or keep waiting. They
act on the presser alone and carry nobody's id (``bots.render.pool``), and only on the
presser's current waiting message: a press on an older one gets the pool's refusal,
seen by the presser alone, and changes nothing. Block, under a stranger match's result,
names that match's table only.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from ..i18n import translator
from ..render import Action
from ..render.pool import blocked_text, render_stopped, render_waiting
from ..service import NotLooking, Person, ServiceError, chat_id
from .messages import message_parts
from .presses import Handler, chat_of, person_of
from .replies import ANSWER_WAIT, Reply
from .texts import LOOKING, NO_DMS, PLAY_COMMAND


class Pairing(Handler):
    """The pool's command and buttons."""

    async def play(self, reply: Reply) -> None:
        """``/basra play``: look for someone to play now."""
        await self._seek(reply)

    async def press(self, interaction: discord.Interaction[Any], action: Action) -> None:
        """A pool button: seek (look again), unseek (stop), wait (keep waiting), solo (the
        computer instead), block. Refusals go up to the press handler."""
        if action.verb == "seek":
            await self._seek(Reply(interaction, "ephemeral"))
        elif action.verb == "block":
            reply = Reply(interaction, "ephemeral")
            names = await reply.within(self.service.pool_block(person_of(interaction), action.table_id))
            await reply.tell(blocked_text(await self.t_for(interaction), names))
        elif action.verb == "unseek":
            await self._stop(Reply(interaction, "update"))
        elif action.verb == "wait":
            await self._wait_on(Reply(interaction, "update"))
        elif action.verb == "solo":
            await self._solo(Reply(interaction, "update"))

    # -- starting a search ------------------------------------------------------------

    async def _seek(self, reply: Reply) -> None:
        """Put the person in the pool from their DM and post their waiting message there; the
        pool's refusals (already playing, already looking) go up, and nothing changes."""
        interaction = reply.interaction
        person = person_of(interaction)
        t = await self.t_for(interaction)
        direct = await reply.within(_direct_channel(interaction))
        view = await reply.within(self.service.pool_join(person, chat_id("dc", direct)))

        async def refused(error: discord.HTTPException) -> None:
            # Discord will not let the bot write to them: nobody could tell them of a match.
            self.bot.platform.close_waiting(person.player_id)
            with contextlib.suppress(ServiceError):
                await self.service.pool_cancel(person)
            with contextlib.suppress(discord.HTTPException):
                await reply.tell(t.gettext(NO_DMS))

        self.bot.platform.open_waiting(view, refused)
        await reply.tell(t.gettext(LOOKING))

    # -- the waiting message's buttons ------------------------------------------------

    async def _stop(self, reply: Reply) -> None:
        person = await self._on_current(reply)
        view = await reply.within(self.service.pool_cancel(person))
        self.bot.platform.close_waiting(person.player_id)
        await reply.show(**message_parts(render_stopped(translator(view.lang), PLAY_COMMAND), "info"))

    async def _wait_on(self, reply: Reply) -> None:
        person = await self._on_current(reply)
        view = await reply.within(self.service.pool_keep_waiting(person))
        await reply.show(**message_parts(render_waiting(view, translator(view.lang)), "info"))

    async def _solo(self, reply: Reply) -> None:
        """Leave the pool and practise against the computer at the level nearest one's
        rating, in the DM: the practice lobby answers the press in place of the waiting
        message, and the match follows below it."""
        person = await self._on_current(reply)
        view = await reply.within(self.service.pool_computer(person))
        self.bot.platform.close_waiting(person.player_id)
        chat = chat_of(reply.interaction)
        claims = self.bot.platform.chat_claims
        claims[chat] = reply
        try:
            await reply.within(self.service.practice(chat, person, level=view.level))
        finally:
            if claims.get(chat) is reply:
                del claims[chat]
        if reply.promised:
            await reply.within(reply.answered(ANSWER_WAIT))
        if not reply.done:
            await reply.ack()

    async def _on_current(self, reply: Reply) -> Person:
        """The presser, if the pressed message is their current waiting message, or one
        this process cannot tell from it; NotLooking for an older one."""
        interaction = reply.interaction
        person = person_of(interaction)
        status = await reply.within(self.service.pool_status(person))
        if status is not None and status.state == "waiting" and interaction.message is not None:
            current = self.bot.platform.waiting_message(status)
            if current is not None and current != interaction.message.id:
                raise NotLooking()
        return person


async def _direct_channel(interaction: discord.Interaction[Any]) -> int:
    """The id of the DM channel between the bot and whoever acted: where they acted, if that
    is it (no server), else opened (Discord answers with the same channel every time)."""
    if interaction.guild_id is None and interaction.channel_id is not None:
        return interaction.channel_id
    opened = interaction.user.dm_channel or await interaction.user.create_dm()
    return opened.id
