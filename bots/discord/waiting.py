"""The pairing pool's waiting message: one per search, in the searcher's DM with the bot.

``/basra play`` (or "Play someone again" under a stranger match's result) opens a search
and has its waiting message posted (``open``); the pool edits it as it tells (``tell``:
how many look, the computer offered, the opponent found), and the searcher's own presses
edit it as their answer (stopped, waiting on, the computer chosen: ``close`` once the
search is over). A search for two against two says so, and offers to bring a partner; once
a friend came as partner (``PoolTogether``) it names them (kept with the message's
reference), and once found names the partner apart from the other team. Rematch under a
stranger 1-v-1's result opens a search for that one opponent, whose display name its message
shows instead of how many look (kept with the message's reference, so that a restarted bot
still names them). If Discord refuses the post (someone who takes no DMs), whoever opened
the search is told (``Refused``), since nobody could tell them of a match.

Every write of a person's waiting message takes one key in their DM's lane, within the
DM's budget, so they go one at a time, the newest state replacing a pending older one: a
post and a later edit never race, and a message is posted only when none is known. What
the pool has not asked for since the search ended is not shown: a count or an offer is
only written while the person still waits. The message's reference goes to the pool
(``TableService.pool_message``), so that a restarted bot edits the same message.

With the web table served, a search under way has a link under its message that opens the
web table's start page (``bots.web.start``), which follows the same search and opens the
match once found: signed for the reader alone, good once and for ``BASRA_WEB_LOGIN_SECONDS``,
made anew with each write. What a press on that page changes, the message shows as the same
press here would leave it (``show``, from ``bots.discord.webstart``).

A waiting message names nobody but its reader and, by display name only, whom the match
found or a rematch waits for (``bots.render.pool``); log lines name the kind of message,
never a person.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Awaitable, Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any, Final, Protocol

import discord

from ..i18n import Translator, translator
from ..outbound import SENT, SKIPPED, Outcome
from ..render import Line, Rendered, Text
from ..render.pool import found_lines, render_waiting
from ..render.searches import SearchNames, named
from ..service import (
    Person,
    PoolLooking,
    PoolNotice,
    PoolOffer,
    PoolPaired,
    PoolTogether,
    PoolView,
    is_pool_chat,
    raw_id,
)
from .limits import direct_lane
from .messages import message_parts, with_link
from .parts import Refused
from .replies import _sendable
from .texts import MATCH_BELOW, WEB_START

if TYPE_CHECKING:
    from ..service import TableService
    from ..web import WebTable
    from .directs import DirectChannels

log = logging.getLogger(__name__)

#: What the pool keeps of a waiting message (``PoolView.message``): where it is (and whom
#: it names: ``searches``).
CHANNEL: Final = "channel"
MESSAGE: Final = "message"


class Put(Protocol):
    """How delivery queues a write (``DiscordPlatform._put``)."""

    def __call__(self, table_id: str | None, key: Hashable, lane: Hashable,
                 run: Callable[[], Awaitable[Outcome]], *, stamp: tuple[int, ...] = (),
                 urgent: bool = False, order: int = ..., label: str) -> None: ...


def render_found(view: PoolView, t: Translator) -> Rendered:
    """The waiting message once the match was found: whom (the opponent; in two against two
    the partner and the other team: display names, isolated), and that the match follows
    below, where "My hand" shows the cards. No buttons."""
    return Rendered(Text.of(*found_lines(view, t), Line.of(t.gettext(MATCH_BELOW))))


class WaitingMessages:
    """Each searcher's waiting message: its writes and its reference."""

    def __init__(self, client: discord.Client, put: Put, cancel: Callable[[Hashable, Hashable], None],
                 service: Callable[[], TableService | None],
                 web: Callable[[], WebTable | None] = lambda: None) -> None:
        self._client = client
        self._put = put
        self._cancel = cancel
        self._service = service
        #: The web table, when served: a search under way links to its start page.
        self._web = web
        #: The waiting message of each search under way, as this process knows it
        #: (player id → message id).
        self._known: dict[str, int] = {}
        #: Searches whose message is not out yet, and whom to tell if Discord refuses it.
        self._opening: dict[str, Refused] = {}
        #: Whom each search under way waits for or came with, by player id.
        self._names: SearchNames[str] = SearchNames()
        self._stamps = itertools.count()

    # -- what changes a waiting message ------------------------------------------------

    def open(self, view: PoolView, refused: Refused, *, rematch: str | None = None) -> None:
        """Post the waiting message of the search ``view`` just opened (queued); ``refused``
        if Discord will not have it. ``rematch``: the display name of the one opponent the
        search waits for (Rematch under a stranger match's result)."""
        player = view.player_id
        self._known.pop(player, None)  # a search of its own: a message of its own
        self._opening[player] = refused
        self._names.opened(player, rematch)
        self._show(view, self.render(view), while_waiting=True)

    def rematch_of(self, view: PoolView) -> str | None:
        """Whom ``view``'s search waits for, when it is a rematch (a display name)."""
        return self._names.rematch_of(view.player_id, view.message or {})

    def partner_of(self, view: PoolView) -> str | None:
        """Whom ``view``'s 2-v-2 search came with (a display name), when it is known."""
        return self._names.partner_of(view.player_id, view, view.message or {})

    def render(self, view: PoolView, *, resumed: bool = False, parted: bool = False) -> Rendered:
        """The waiting message of ``view``'s search, in its reader's language: how it goes,
        whom it came with, or whom a rematch waits for."""
        return render_waiting(view, translator(view.lang), resumed=resumed, waiting_for=self.rematch_of(view),
                              partner=self.partner_of(view), parted=parted)

    def parts(self, view: PoolView, rendered: Rendered) -> dict[str, Any]:
        """A search under way's message parts: ``rendered``, and the link to the web table's
        start page when it is served (signed now, for the reader alone)."""
        parts = message_parts(rendered, "info")
        web = self._web()
        if web is not None:
            label = translator(view.lang).gettext(WEB_START)
            parts["view"] = with_link(parts["view"], label, web.discord_start_url(view.player_id, view.lang))
        return parts

    def show(self, view: PoolView, rendered: Rendered, *, final: bool = False) -> None:
        """What a press on the web table's start page left the search saying (``rendered``):
        its message shows it as the same press here would. ``final``: the search is over
        (stopped, the computer chosen), and the message is no longer this process's to edit."""
        if final:
            player = view.player_id
            self._opening.pop(player, None)
            self._names.forget(player)
            self._show(view, rendered, final=True)
        else:
            self._show(view, rendered, while_waiting=True)

    async def tell(self, notices: Sequence[PoolNotice]) -> None:
        """``PoolPlatform.tell_pool``: each waiting message says what the pool tells, in its
        reader's language (queued only; never raises)."""
        for notice in notices:
            try:
                view = notice.view
                t = translator(view.lang)
                if isinstance(notice, PoolPaired):
                    self._show(view, render_found(view, t), final=True)
                    self._names.forget(view.player_id)
                elif isinstance(notice, PoolOffer):
                    self._show(view, self.render(view), while_waiting=True)
                elif isinstance(notice, PoolLooking):
                    drawn = self.render(view, resumed=notice.resumed, parted=notice.parted)
                    self._show(view, drawn, while_waiting=True, urgent=notice.resumed or notice.parted)
                elif isinstance(notice, PoolTogether):
                    self._show(view, self.render(view), while_waiting=True, note=True)
            except Exception:
                log.exception("could not queue a %s notice", notice.kind)

    def close(self, player_id: str) -> None:
        """The search is over and its message already says so (the searcher's press answered
        with it): nothing pending for it goes out."""
        self._known.pop(player_id, None)
        self._opening.pop(player_id, None)
        self._names.forget(player_id)
        self._cancel(direct_lane(player_id), _key(player_id))

    def message_of(self, view: PoolView) -> int | None:
        """The message that shows ``view``'s search, when known."""
        known = self._known.get(view.player_id)
        if known is not None:
            return known
        stored = view.message or {}
        message = stored.get(MESSAGE)
        same_channel = stored.get(CHANNEL) == int(raw_id(view.chat_id))
        return message if isinstance(message, int) and same_channel else None

    # -- the writes ------------------------------------------------------------------

    def _show(self, view: PoolView, rendered: Rendered, *, final: bool = False,
              while_waiting: bool = False, urgent: bool = True, note: bool = False) -> None:
        """Edit the search's waiting message, or post it when none is known. ``final``: the
        search is over, and its message is no longer this process's to edit.
        ``while_waiting``: written only if the person still waits when the write runs.
        ``note``: what the message's reference keeps changed (it names a partner now): the
        pool keeps it anew once the message is edited (a posted one is kept anyway)."""
        player = view.player_id
        channel_id = int(raw_id(view.chat_id))

        async def run() -> Outcome:
            if while_waiting and not await self._still_waiting(player):
                return SKIPPED
            # Made as it goes: a search under way's link is signed for as long from now.
            parts = message_parts(rendered, "info") if final else self.parts(view, rendered)
            channel = self._client.get_partial_messageable(channel_id)
            known = self.message_of(view)
            if known is not None:
                try:
                    await channel.get_partial_message(known).edit(**parts)
                except discord.NotFound:
                    known = None  # gone: a new one says it
                else:
                    if final:
                        self._known.pop(player, None)
                    elif note:
                        await self._note(view, channel_id, known)
                    return SENT
            try:
                message = await channel.send(**_sendable(parts))
            except discord.HTTPException as error:
                refused = self._opening.pop(player, None) if not _busy(error) else None
                if refused is not None:
                    await refused(error)
                raise
            await self._sent(view, channel_id, message.id, final=final)
            return SENT

        stamp = (next(self._stamps),)
        self._put(None, _key(player), direct_lane(player), run, stamp=stamp, urgent=urgent,
                  label="waiting message")

    async def _sent(self, view: PoolView, channel_id: int, message_id: int, *, final: bool) -> None:
        player = view.player_id
        self._opening.pop(player, None)
        if final:
            self._known.pop(player, None)
            return
        self._known[player] = message_id
        await self._note(view, channel_id, message_id)

    async def _note(self, view: PoolView, channel_id: int, message_id: int) -> None:
        """The pool keeps the waiting message's reference: where it is, and whom it names."""
        service = self._service()
        if service is not None:
            reference = named({CHANNEL: channel_id, MESSAGE: message_id}, self.rematch_of(view),
                              self.partner_of(view))
            await service.pool_message(Person(view.player_id, ""), reference)

    async def _still_waiting(self, player_id: str) -> bool:
        service = self._service()
        if service is None:
            return False
        status = await service.pool_status(Person(player_id, ""))
        return status is not None and status.state == "waiting"


def _key(player_id: str) -> tuple[Any, ...]:
    return ("waiting", player_id)


def _busy(error: discord.HTTPException) -> bool:
    """Discord was busy (tried again), rather than unwilling."""
    return error.status == 429 or error.status >= 500


class Searching:
    """The pool's side of ``delivery.DiscordPlatform`` (``PoolPlatform``): its people's
    waiting messages, through ``waiting``, in the DMs ``directs`` knows."""

    #: Whether this process pairs its people (``bots.service.waiting.pairs_here``): not a
    #: shard process without shard 0, since every press in a DM comes to the one with it.
    pairs: bool = True

    if TYPE_CHECKING:
        waiting: WaitingMessages
        directs: DirectChannels

    async def tell_pool(self, notices: Sequence[PoolNotice]) -> None:
        """``PoolPlatform``: each waiting message says what the pool tells its reader (queued
        only; never raises)."""
        for notice in notices:
            try:
                self._note_direct(notice.view)
            except ValueError:
                log.warning("a %s notice names no Discord DM", notice.kind)
        await self.waiting.tell(notices)

    def open_waiting(self, view: PoolView, refused: Refused, *, rematch: str | None = None) -> None:
        """Post the waiting message of the search ``view`` just opened (``WaitingMessages.open``);
        ``refused`` if Discord will not have it; ``rematch``: whom a rematch waits for."""
        self._note_direct(view)
        self.waiting.open(view, refused, rematch=rematch)

    def waiting_parts(self, view: PoolView) -> dict[str, Any]:
        """The message parts of ``view``'s search under way (``WaitingMessages.render``), with
        the link to the web table's start page when it is served."""
        return self.waiting.parts(view, self.waiting.render(view))

    def show_waiting(self, view: PoolView, rendered: Rendered, *, final: bool = False) -> None:
        """What a press on the web table's start page left ``view``'s search saying
        (``WaitingMessages.show``)."""
        self.waiting.show(view, rendered, final=final)

    def close_waiting(self, player_id: str) -> None:
        """The search of ``player_id`` is over, and its message says so already."""
        self.waiting.close(player_id)

    def waiting_message(self, view: PoolView) -> int | None:
        """The message that shows ``view``'s search, when known."""
        return self.waiting.message_of(view)

    def _note_direct(self, view: PoolView) -> None:
        if not is_pool_chat(view.chat_id):
            self.directs.note(view.player_id, int(raw_id(view.chat_id)))
