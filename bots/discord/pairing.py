"""``/basra play`` and the pairing pool's buttons: look for someone to play now.

``/basra play`` (in a server's channel or in the DM with the bot; ``mode`` one against one,
the default, or two against two), or "Play someone again" under a stranger match's result,
puts the person in the pool with their DM as its chat, has their one waiting message posted
there (``DiscordPlatform.open_waiting``) and tells them, privately, where to follow it; if
Discord will not let the bot write to them, the search is called off and they are told why.
The waiting message's buttons stop the search, or, once the computer is offered, play it
instead (a practice match in the DM) or keep waiting. They act on the presser alone and
carry nobody's id (``bots.render.pool``), and only on the presser's current waiting
message: a press on an older one gets the pool's refusal, seen by the presser alone, and
changes nothing.

Under a 2-v-2 search's waiting message, Bring a partner answers the presser alone with an
invitation: the command a friend uses, ``/basra play mode: 2v2 invite: <code>``, whose code
is random and names nobody; the friend who uses it joins the searcher as partner, from
their own DM (or from a Telegram chat, when one service serves both: the code is the same
everywhere). "Play someone again" under a stranger match's result looks for the same kind
of match (``seek`` with ``arg`` "2v2" after a 2-v-2).

Under a stranger match's result, Block and Rematch (a 1-v-1's: wait for that same opponent,
who must press it too) name that match's table only; so does each reaction button on its
table and result (``bots.render.reactions``), whose press sends the canned words to the
others at the match and is answered to the presser alone.
"""

from __future__ import annotations

import contextlib
from typing import Any

import discord

from ..i18n import Translator, translator, user_text
from ..render import Action
from ..render.pool import blocked_text, rematch_asked_text, render_invite_code, render_stopped
from ..render.reactions import reaction_sent_text
from ..service import BadInput, NotLooking, Person, ServiceError, chat_id
from .messages import message_parts
from .parts import Refused
from .presses import Handler, chat_of, person_of
from .replies import ANSWER_WAIT, Reply
from .texts import JOINED, LOOKING, NO_DMS, PLAY_COMMAND


class Pairing(Handler):
    """The pool's command and buttons."""

    async def play(self, reply: Reply, mode: str = "1v1", invite: str | None = None) -> None:
        """``/basra play``: look for someone to play now, one against one or (``mode`` "2v2")
        two against two; with ``invite``, a friend's invitation code, join them as partner."""
        if invite is not None:
            await self._accept(reply, invite.strip())
        else:
            await self._seek(reply, mode)

    async def press(self, interaction: discord.Interaction[Any], action: Action) -> None:
        """A pool button: seek (look again, for the same kind of match), unseek (stop), wait
        (keep waiting), solo (the computer instead), invite (bring a partner), block; or a
        stranger match's: again (its rematch), react. Refusals go up to the press handler."""
        if action.verb == "seek":
            await self._seek(Reply(interaction, "ephemeral"), "2v2" if action.arg == "2v2" else "1v1")
        elif action.verb == "invite":
            await self._invite(Reply(interaction, "ephemeral"))
        elif action.verb == "block":
            reply = Reply(interaction, "ephemeral")
            names = await reply.within(self.service.pool_block(person_of(interaction), action.table_id))
            await reply.tell(blocked_text(await self.t_for(interaction), names))
        elif action.verb == "again":
            await self._again(Reply(interaction, "ephemeral"), action.table_id)
        elif action.verb == "react":
            await self._react(Reply(interaction, "ephemeral"), action)
        elif action.verb == "unseek":
            await self._stop(Reply(interaction, "update"))
        elif action.verb == "wait":
            await self._wait_on(Reply(interaction, "update"))
        elif action.verb == "solo":
            await self._solo(Reply(interaction, "update"))

    # -- starting a search ------------------------------------------------------------

    async def _seek(self, reply: Reply, mode: str = "1v1") -> None:
        """Put the person in the pool from their DM and post their waiting message there; the
        pool's refusals (already playing, already looking) go up, and nothing changes."""
        interaction = reply.interaction
        person = person_of(interaction)
        t = await self.t_for(interaction)
        direct = await reply.within(_direct_channel(interaction))
        view = await reply.within(self.service.pool_join(person, chat_id("dc", direct), mode))
        self.bot.platform.open_waiting(view, self._refused(reply, person, t))
        await reply.tell(t.gettext(LOOKING))

    async def _accept(self, reply: Reply, code: str) -> None:
        """Join the friend whose invitation ``code`` is as their partner, from one's DM, where
        the waiting message that names them is posted; the refusals go up, changing nothing."""
        interaction = reply.interaction
        person = person_of(interaction)
        t = await self.t_for(interaction)
        direct = await reply.within(_direct_channel(interaction))
        view = await reply.within(self.service.pool_accept(person, chat_id("dc", direct), code))
        self.bot.platform.open_waiting(view, self._refused(reply, person, t))
        await reply.tell(t.gettext(JOINED, name=user_text(next(iter(view.partners), ""))))

    async def _invite(self, reply: Reply) -> None:
        """Bring a partner, under a 2-v-2 search's waiting message: the invitation's command,
        code included, for the presser alone to send to a friend, and how long it lasts."""
        interaction = reply.interaction
        person = person_of(interaction)
        direct = await reply.within(_direct_channel(interaction))
        made = await reply.within(self.service.pool_invite(person, chat_id("dc", direct)))
        command = f"{PLAY_COMMAND} mode: 2v2 invite: {made.token}"
        rendered = render_invite_code(await self.t_for(interaction), command, made.seconds)
        await reply.show(**message_parts(rendered, "info"))

    async def _again(self, reply: Reply, table_id: str) -> None:
        """Rematch under a finished stranger 1-v-1's result: wait in the pool for that same
        opponent, named by their display name in the waiting message posted below; the match
        begins once they press it too. The pool's refusals go up."""
        interaction = reply.interaction
        person = person_of(interaction)
        t = await self.t_for(interaction)
        table = await reply.within(self.service.table(table_id))
        others = [s.name or "" for s in table.seats if s.player_id not in (None, person.player_id)]
        if len(others) != 1:
            raise BadInput(f"table {table_id!r} is no stranger 1-v-1 of this presser")
        direct = await reply.within(_direct_channel(interaction))
        view = await reply.within(self.service.pool_rematch(person, chat_id("dc", direct), table_id))
        self.bot.platform.open_waiting(view, self._refused(reply, person, t), rematch=others[0])
        await reply.tell(rematch_asked_text(t, others[0]))

    def _refused(self, reply: Reply, person: Person, t: Translator) -> Refused:
        """What to do if Discord will not let the bot write to the person: nobody could tell
        them of a match, so the search is called off and they are told why."""

        async def refused(error: discord.HTTPException) -> None:
            self.bot.platform.close_waiting(person.player_id)
            with contextlib.suppress(ServiceError):
                await self.service.pool_cancel(person)
            with contextlib.suppress(discord.HTTPException):
                await reply.tell(t.gettext(NO_DMS))

        return refused

    async def _react(self, reply: Reply, action: Action) -> None:
        """A reaction button of a stranger match: its words go to the others at the match
        (``react``: at most a few a minute), and the presser alone is told it went."""
        key = action.arg or ""
        await reply.within(self.service.react(action.table_id, person_of(reply.interaction), key))
        await reply.tell(reaction_sent_text(await self.t_for(reply.interaction), key))

    # -- the waiting message's buttons ------------------------------------------------

    async def _stop(self, reply: Reply) -> None:
        person = await self._on_current(reply)
        view = await reply.within(self.service.pool_cancel(person))
        self.bot.platform.close_waiting(person.player_id)
        await reply.show(**message_parts(render_stopped(translator(view.lang), PLAY_COMMAND), "info"))

    async def _wait_on(self, reply: Reply) -> None:
        person = await self._on_current(reply)
        view = await reply.within(self.service.pool_keep_waiting(person))
        await reply.show(**self.bot.platform.waiting_parts(view))

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
