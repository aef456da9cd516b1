"""``/basra privacy``, ``/basra forget`` and its Erase / Cancel buttons.

Both answers are ephemeral: the question before erasing is seen, and pressed, only by the
one who asked (and Erase erases whoever presses it, nobody else).
"""

from __future__ import annotations

import time
from typing import Any

import discord

from ..i18n import N_, Translator
from ..render import Action
from ..render.privacy import answer_erase, render_forget_confirm, render_privacy
from ..service import TableService, player_id
from .messages import message_parts
from .replies import Reply

PRIVACY = N_("What this bot keeps about you")
FORGET = N_("Erase what this bot keeps about you")
FORGET_COMMAND = "/basra forget"


async def privacy(service: TableService, t: Translator, reply: Reply) -> None:
    rendered = render_privacy(t, service.keep_finished_days, FORGET_COMMAND)
    await reply.show(**message_parts(rendered, "info"))


async def forget(t: Translator, reply: Reply) -> None:
    await reply.show(**message_parts(render_forget_confirm(t, time.time()), "info"))


async def press(
    service: TableService, t: Translator, interaction: discord.Interaction[Any], action: Action
) -> None:
    """Erase or Cancel: the question becomes its answer, for the presser alone."""
    reply = Reply(interaction, "update")
    text = await answer_erase(
        action, t, FORGET_COMMAND, lambda: reply.within(service.forget(player_id("dc", interaction.user.id)))
    )
    await reply.show(content=text, embed=None, view=None)
