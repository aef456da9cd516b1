"""The bot's buttons: persistent, answerable by any process of the bot.

Every button's ``custom_id`` is the renderer's action payload
(``b1|verb|table|version|…``, see ``bots.render.actions``), so it carries the
match and the view version. Both classes are ``DynamicItem``s registered at
start-up (``Client.add_dynamic_items``): a button sent before a restart
reaches the new process, which checks it like any other press. Payloads are
untrusted; ``Action.decode`` checks their syntax and the service the rest.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from ..render import Action
from ..service import BadInput

if TYPE_CHECKING:
    from .parts import Bot

ACTION_TEMPLATE = r"b1\|[^\n]{1,98}"


def _bot(interaction: discord.Interaction[Any]) -> Bot:
    return interaction.client  # type: ignore[no-any-return]


class ActionButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=ACTION_TEMPLATE):
    """A button whose press is one of the renderer's actions."""

    def __init__(
        self,
        action: Action | None,
        *,
        payload: str | None = None,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        row: int | None = None,
    ) -> None:
        custom_id = action.encode() if action is not None else payload
        assert custom_id is not None
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=custom_id), row=row)
        self.action = action
        self.payload = custom_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionButton:
        # Decoding waits for the callback, where a bad payload gets a localized refusal.
        return cls(None, payload=match.group(0))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = _bot(interaction)
        try:
            action = self.action or Action.decode(self.payload)
        except BadInput as error:
            await bot.presses.refuse_payload(interaction, error)
            return
        await bot.presses.handle(interaction, action)
