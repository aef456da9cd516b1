"""The short messages beside a table: the turn ping, its deletion, and a stranger's reaction.

The ping mentions the player whose turn it is and names no card (Discord has no other way
to reach one person in a channel); the previous one is deleted once the next is out. A
reaction another person at a stranger match sent is one short message of its own in the
reader's DM. The half of ``delivery.DiscordPlatform`` that writes them.
"""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable, Hashable
from typing import TYPE_CHECKING, Any

import discord

from ..outbound import SENT, SKIPPED, Outcome
from ..render import Rendered, render_notice
from ..service import HandView, Reacted, raw_id
from .messages import message_parts
from .replies import _sendable

if TYPE_CHECKING:
    from ..outbound import Dispatcher
    from .strangers import Place

#: Write order within a lane, when several could go: answers first, tidying last.
REPLY, TABLE, TIDY = 0, 1, 2


class Asides:
    """Turn pings and reactions (``delivery.DiscordPlatform`` provides the rest)."""

    if TYPE_CHECKING:
        dispatcher: Dispatcher
        _movers: dict[str, str | None]
        _reactions: itertools.count[int]

        def _put(self, table_id: str | None, key: Hashable, lane: Hashable,
                 run: Callable[[], Awaitable[Outcome]], *, stamp: tuple[int, ...] = (),
                 urgent: bool = False, order: int = TABLE, label: str) -> None: ...
        def keep(self, table_id: str, key: str, value: Any) -> None: ...

    def _reacted(self, notice: Reacted, place: Place) -> None:
        """A reaction another person at the stranger match sent: one short message of its own in
        the reader's DM ("<their display name>: <the words>"), paced with the DM's other writes.
        It mentions nobody."""
        content = render_notice(notice).text.markdown()

        async def run() -> Outcome:
            channel = await place.channel()
            await channel.send(content=content, allowed_mentions=discord.AllowedMentions.none())
            return SENT

        key = place.key("reacted", notice.table_id, next(self._reactions))
        self._put(notice.table_id, key, place.lane, run, label="reaction")

    def _ping(
        self, refs: dict[str, Any], hand: HandView, stamp: tuple[int, ...], rendered: Rendered, place: Place
    ) -> None:
        """Mention the player whose turn it is (a short message naming no card); the previous
        ping of the table goes away."""
        table_id, player = hand.table_id, hand.player_id
        user = int(raw_id(player))
        ping_ref = place.ref("ping")

        async def run() -> Outcome:
            old = refs.get(ping_ref)
            if isinstance(old, dict) and old.get("player") == player and old.get("stamp") == list(stamp):
                return SKIPPED  # already said (a restart delivers the same turn again)
            if self._movers.get(table_id, player) != player:
                return SKIPPED  # the turn moved on while this waited
            parts = _sendable(
                message_parts(rendered, "info", content=f"<@{user}> {rendered.text.markdown()}")
            )
            del parts["embed"]
            pinged = discord.AllowedMentions(users=[discord.Object(user)])
            message = await (await place.channel()).send(allowed_mentions=pinged, **parts)
            self.keep(table_id, ping_ref, {"id": message.id, "player": player, "stamp": list(stamp)})
            if isinstance(old, dict):
                self._delete(table_id, place, int(old["id"]))
            return SENT

        self._put(
            table_id,
            place.key("ping", table_id),
            place.lane,
            run,
            stamp=stamp,
            urgent=True,
            label="ping",
        )

    def _unping(self, table_id: str, refs: dict[str, Any], place: Place) -> None:
        """No ping stands for this turn (the match is over, or nobody is to be pinged): the last
        one goes, and any still waiting."""
        self.dispatcher.cancel(place.lane, place.key("ping", table_id))
        old = refs.get(place.ref("ping"))
        if isinstance(old, dict):
            self.keep(table_id, place.ref("ping"), None)
            self._delete(table_id, place, int(old["id"]))

    def _delete(self, table_id: str, place: Place, message_id: int) -> None:
        async def run() -> Outcome:
            try:
                await (await place.channel()).get_partial_message(message_id).delete()
            except discord.NotFound:
                return SKIPPED
            return SENT

        self._put(
            table_id,
            ("delete", message_id),
            place.deletes,
            run,
            order=TIDY,
            label="old ping",
        )
