"""The web table's start page, Discord's side: who a start link's person is, and their DM's
waiting message following what they press on the page.

A Discord person reaches the start page (``bots.web.start``) through a link in their DM with
the bot (under a search's waiting message, and under ``/basra help`` there), signed for them
alone (``bots.web.auth``). The link names nobody else, not even their DM: at login the page
asks here for their display name (as Discord shows it to everyone) and their DM with the bot
(``DirectChannels``: noted, read back from their pool entry, or opened with Discord), the
chat where the pool then looks for them, as ``/basra play`` does.

A search begun, stopped, waited on or ended for the computer on the page shows in the DM as
the same press there would leave it (``page_pressed``): the waiting message is posted, then
edited as the pool tells; or it says the search stopped, or that the computer was chosen,
whose practice match the page opens and which the DM shows below, where it is played too.
"""

from __future__ import annotations

import contextlib
import logging

import discord

from ..i18n import translator
from ..render.pool import render_solo, render_stopped
from ..service import Person, PoolView, ServiceError, chat_id, raw_id
from .delivery import DiscordPlatform
from .parts import Refused
from .texts import PLAY_COMMAND

log = logging.getLogger(__name__)


class WebStart:
    """``bots.web.start.PoolChat`` and ``StartPeople`` for Discord."""

    def __init__(self, client: discord.Client, platform: DiscordPlatform) -> None:
        self._client = client
        self._platform = platform

    async def start_person(self, player_id: str) -> tuple[str, str] | None:
        """The display name of the person ``player_id`` and their DM with the bot (a chat
        id), or None when Discord cannot tell them now (logged without naming them)."""
        try:
            user_id = int(raw_id(player_id))
            user = self._client.get_user(user_id) or await self._client.fetch_user(user_id)
            channel = await self._platform.directs.channel(player_id)
        except (ValueError, discord.HTTPException) as error:
            log.info("a start page's person was not found (%s)", type(error).__name__)
            return None
        return user.display_name, chat_id("dc", channel.id)

    def page_pressed(self, op: str, view: PoolView, person: Person) -> None:
        """The start page began the search (``op`` "join"), stopped it ("cancel"), waited on
        ("wait") or chose the computer ("computer", whose practice match in the DM the page
        opens): the DM's waiting message says so, as after the same press there."""
        platform = self._platform
        t = translator(view.lang)
        if op == "join":
            platform.open_waiting(view, self._refused(person))
        elif op == "cancel":
            platform.show_waiting(view, render_stopped(t, PLAY_COMMAND), final=True)
        elif op == "wait":
            platform.show_waiting(view, platform.waiting.render(view))
        elif op == "computer":
            platform.show_waiting(view, render_solo(view, t), final=True)

    def _refused(self, person: Person) -> Refused:
        """If Discord will not let the bot write to the person, nobody could tell them of a
        match: the search is called off (the page, reading the pool, shows it)."""

        async def refused(error: discord.HTTPException) -> None:
            self._platform.close_waiting(person.player_id)
            service = self._platform.service
            if service is not None:
                with contextlib.suppress(ServiceError):
                    await service.pool_cancel(person)

        return refused
