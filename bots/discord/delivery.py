"""The service's notices, delivered to Discord within its limits (``bots.outbound``, ``limits``).

Which message shows what:

- the lobby: one message, edited in place. While a press on it (or the
  ``/basra new`` that opens it) waits for its answer, that answer shows the
  lobby: it costs the channel nothing and the presser sees it at once;
- the table: one message per round, edited in place. A round's last picture
  carries the round's result and loses its button, in one edit; the next
  round gets a new message. At the match's end the last picture carries the
  round's and the match's results;
- the turn ping (``asides``), the previous one deleted;
- each player's hand: their open ephemeral message (``hands``), edited
  through the token of their latest press.

A match the pairing pool seated has no channel (``strangers``): each of its people sees
its table, round points, turn pings and result in their DM with the bot, as a channel
sees a match's, and their hand as anywhere else. A pool table's chat id is never taken
for a channel. The pool's waiting messages are ``waiting``'s (``tell_pool``). There the
running table and the result carry canned reactions (``bots.render.reactions``; one sent
is ``asides``'), and a 1-v-1's result a Rematch: nothing else of one person reaches another.

``deliver`` only queues (the table's lock is held). Each message has at
most one write pending, the newest; a channel's writes keep under its 5 in
5 seconds, a hand's under its token's limit, and a busy or failing Discord
(429, 5xx, a dropped connection) is tried again with back-off. What a write
sends is decided when it runs, from the message references as they are
then; they are kept in delivery's own rows of the store (``bots.outbound.refs``),
so a restarted bot edits the same messages. Log lines name the table and the kind of
message, never its text.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import Awaitable, Callable, Hashable, Sequence
from typing import TYPE_CHECKING, Any

import aiohttp
import discord

from ..i18n import Translator, translator
from ..outbound import FAILED, SENT, SKIPPED, Dispatcher, Outcome, Retry, Write
from ..outbound.refs import MessageRefs
from ..render import (
    Rendered,
    render_lobby,
    render_notice,
    render_table,
    render_turn_notice,
    render_warning,
)
from ..render.pool import with_rematch
from ..render.reactions import with_reactions
from ..service import (
    ClockWarning,
    HandUpdated,
    LobbyClosed,
    LobbyUpdated,
    MatchEnded,
    Notice,
    Reacted,
    RoundEnded,
    TableSetAside,
    TableUpdated,
    YourTurn,
    is_pool_chat,
    raw_id,
)
from .asides import REPLY, TABLE, Asides
from .directs import DirectChannels
from .hands import OpenHands
from .limits import channel_lane, delete_lane, direct_delete_lane, direct_lane, hand_lane
from .messages import embed_of, hand_parts, message_parts, view_of, with_link
from .replies import Reply, _sendable
from .strangers import Place, by_person
from .waiting import Searching, WaitingMessages

if TYPE_CHECKING:
    from ..service import TableService
    from ..web import WebTable

log = logging.getLogger(__name__)

#: A dropped connection or a timeout: tried again, like a 5xx.
NETWORK_ERRORS = (aiohttp.ClientError, OSError, asyncio.TimeoutError)
#: Seconds a closed table's hand slots are kept, for the writes that show its end.
SLOTS_KEPT_AFTER_END = 120.0


class DiscordPlatform(Asides, Searching):
    """``bots.service.Platform`` for Discord: ``name`` "dc", ``deliver``; and
    ``bots.service.PoolPlatform``: ``tell_pool``."""

    name = "dc"

    #: The table as a web page (``bots.web``), when the bot serves one.
    web: WebTable | None = None

    def __init__(
        self, client: discord.Client, hands: OpenHands, *, now: Callable[[], float], dispatcher: Dispatcher
    ) -> None:
        #: ``"dc:<application id>"`` once the bot has logged in (``BasraBot.setup_hook``).
        self.owner = self.name
        self.client = client
        self.hands = hands
        self.dispatcher = dispatcher
        self.service: TableService | None = None
        self._now = now
        #: Presses and commands whose answer may show a lobby: by message id, by chat.
        self.message_claims: dict[int, Reply] = {}
        self.chat_claims: dict[str, Reply] = {}
        #: Where each table's messages are: delivery's own rows of the store (``attach``ed at start).
        self.messages = MessageRefs()
        #: Who is to move at each table, as its last delivered table says (pings name only them).
        self._movers: dict[str, str | None] = {}
        self.failures: list[tuple[str, str, int]] = []  # (table, kind, HTTP status), for tests
        #: Each person's DM channel, where the pool and their stranger matches talk to them.
        self.directs = DirectChannels(client, lambda: self.service)
        #: The pool's waiting messages.
        self.waiting = WaitingMessages(client, self._put, self.dispatcher.cancel, lambda: self.service,
                                       lambda: self.web)
        #: Tells each reaction's message apart from the others (each is a message of its own).
        self._reactions = itertools.count()

    # -- outbound protocol ---------------------------------------------------------

    async def deliver(self, notices: Sequence[Notice]) -> None:
        """Queue one action's notices (the table's lock is held: nothing here waits for
        Discord): in the table's channel, or, at a stranger match, in each person's DM."""
        if not notices:
            return
        table_id = notices[0].table_id
        refs = await self.refs(table_id)
        if is_pool_chat(notices[0].chat_id):
            shown: list[Notice] = []
            for person, seat, mine in by_person(notices):
                self._show(table_id, mine, refs, self._direct_place(person, seat))
                shown += mine
            notices = shown
        else:
            self._show(table_id, notices, refs, self._chat_place(notices[0].chat_id))
        if any(_ends(n) for n in notices):
            self._ended(table_id)

    def _show(self, table_id: str, notices: Sequence[Notice], refs: dict[str, Any], place: Place) -> None:
        """Queue what ``notices`` change at ``place``."""
        rounds = {n.result.round_no: n for n in notices if isinstance(n, RoundEnded)}
        match = next((n for n in notices if isinstance(n, MatchEnded)), None)
        tables = [n for n in notices if isinstance(n, TableUpdated)]
        pings = [n for n in notices if isinstance(n, YourTurn) and not self._sees_own_turn(n)]
        for notice in notices:
            try:
                if isinstance(notice, LobbyUpdated | LobbyClosed):
                    if not place.direct:  # a stranger match has no lobby: the waiting message
                        self._lobby(notice, refs)
                elif isinstance(notice, TableUpdated):
                    self._table(notice, refs, rounds, match, place)
                elif (isinstance(notice, RoundEnded | MatchEnded) and not tables) or isinstance(
                    notice, TableSetAside
                ):
                    self._result(notice, place)
                elif isinstance(notice, HandUpdated):
                    self._hand(notice)
                elif isinstance(notice, YourTurn) and notice in pings:
                    self._ping(
                        refs, notice.hand, (notice.hand.version, 0), render_turn_notice(notice, t_of(notice)),
                        place,
                    )
                elif isinstance(notice, ClockWarning):
                    stamp = (notice.hand.version, 1, -notice.seconds_left)
                    self._ping(refs, notice.hand, stamp, render_warning(notice, t_of(notice)), place)
                elif isinstance(notice, Reacted) and place.direct:
                    self._reacted(notice, place)
            except Exception:
                log.exception("table %s: could not queue a %s notice", table_id, notice.kind)
        if tables:
            table = tables[-1].table
            self._movers[table_id] = (
                table.seats[table.to_move].player_id if table.to_move is not None else None
            )
        if match is not None:
            self._unping(table_id, refs, place)
        elif tables and not pings:
            # No ping for this turn (a computer's, or a player looking at their hand): the
            # last one must not go on naming someone else.
            old = refs.get(place.ref("ping"))
            if isinstance(old, dict) and old.get("player") != self._movers.get(table_id):
                self._unping(table_id, refs, place)

    def _ended(self, table_id: str) -> None:
        """The table is closed: what is kept of it goes, its hands' slots once their last
        writes have had time to go (a hand not shown again would keep its slot for ever)."""
        self._movers.pop(table_id, None)
        asyncio.get_running_loop().call_later(SLOTS_KEPT_AFTER_END, self.hands.forget_table, table_id)

    async def close(self, grace: float) -> bool:
        """Send what can go within ``grace`` seconds, then wait for the references to be
        stored (before the service closes); True if everything went."""
        sent = await self.dispatcher.close(grace)
        await self.messages.flush()
        return sent

    def _put(
        self,
        table_id: str | None,
        key: Hashable,
        lane: Hashable,
        run: Callable[[], Awaitable[Outcome]],
        *,
        stamp: tuple[int, ...] = (),
        urgent: bool = False,
        order: int = TABLE,
        label: str,
    ) -> None:
        where = f"table {table_id}" if table_id is not None else "the pool"

        async def guarded() -> Outcome:
            try:
                return await run()
            except discord.HTTPException as error:
                # Tried again when Discord was busy (429, 5xx); a refusal is given up (the
                # service has the state, and the message's next change shows it).
                log.warning("%s: sending a %s failed (HTTP %s)", where, label, error.status)
                self.failures.append((table_id or "", label, error.status))
                return Retry(throttled=error.status == 429) if _busy(error) else FAILED
            except NETWORK_ERRORS as error:
                log.info("%s: sending a %s failed (%s); trying again", where, label, type(error).__name__)
                return Retry()

        # With several processes of the bot, its other processes edit the same messages.
        self.dispatcher.put(Write(key, lane, guarded, stamp, urgent, order, label, table_id))

    def _sees_own_turn(self, notice: YourTurn) -> bool:
        """A practice player looking at a live hand needs no ping every turn."""
        return (
            notice.hand.table.practice and self.hands.get(notice.table_id, notice.hand.player_id) is not None
        )

    # -- each kind of message ------------------------------------------------------

    def _lobby(self, notice: LobbyUpdated | LobbyClosed, refs: dict[str, Any]) -> None:
        table_id, chat_id = notice.table_id, notice.chat_id
        key, stamp = ("lobby", table_id), (notice.lobby.revision,)
        lobby_id = refs.get("lobby")
        claim = self.message_claims.get(lobby_id) if isinstance(lobby_id, int) else None
        if claim is None and lobby_id is None and isinstance(notice, LobbyUpdated):
            claim = self.chat_claims.get(chat_id)
        parts = message_parts(render_lobby(notice.lobby, t_of(notice)), "lobby")
        if claim is not None and not claim.done:
            # The press (or the command) is answered with the lobby: no channel write.
            answer = claim
            answer.promised = True

            async def answer_with_it() -> Outcome:
                try:
                    message_id = await answer.show(**parts)
                except discord.HTTPException as error:
                    log.info("table %s: answering with the lobby failed (HTTP %s)", table_id, error.status)
                    self._lobby_in_channel(table_id, chat_id, refs, key, stamp, parts, notice)
                    return FAILED
                if message_id is not None and refs.get("lobby") != message_id:
                    self.keep(table_id, "lobby", message_id)
                return SENT

            self.dispatcher.cancel(channel_lane(channel_of(chat_id)), key)
            self._put(
                table_id, key, ("answer", id(claim)), answer_with_it, stamp=stamp, order=REPLY, label="lobby"
            )
            return
        self._lobby_in_channel(table_id, chat_id, refs, key, stamp, parts, notice)

    def _lobby_in_channel(
        self,
        table_id: str,
        chat_id: str,
        refs: dict[str, Any],
        key: Hashable,
        stamp: tuple[int, ...],
        parts: dict[str, Any],
        notice: LobbyUpdated | LobbyClosed,
    ) -> None:
        async def run() -> Outcome:
            message_id = refs.get("lobby")
            if isinstance(message_id, int):
                with contextlib.suppress(discord.NotFound):  # deleted by someone: post it again
                    await self._channel(chat_id).get_partial_message(message_id).edit(**parts)
                    return SENT
            if isinstance(notice, LobbyClosed):
                return SKIPPED  # nothing to close
            message = await self._channel(chat_id).send(**_sendable(parts))
            self.keep(table_id, "lobby", message.id)
            return SENT

        self._put(
            table_id, key, channel_lane(channel_of(chat_id)), run, stamp=stamp, urgent=True, label="lobby"
        )

    def _table(
        self,
        notice: TableUpdated,
        refs: dict[str, Any],
        rounds: dict[int, RoundEnded],
        match: MatchEnded | None,
        place: Place,
    ) -> None:
        """The round's table message: edited, or posted for a new round. A round's last picture
        carries its result (and, at the end, the match's, with its Record button) and no other
        button, in one edit."""
        table, t = notice.table, t_of(notice)
        round_no, table_id = table.round_no, table.table_id
        results = [n for n in (rounds.get(round_no), match) if n is not None]
        closing = table.round_close is not None or not table.running
        table_ref, closing_ref = place.ref("table"), place.ref("closing")
        shown = refs.get(table_ref)
        new_round = not isinstance(shown, dict) or shown.get("round") != round_no

        def parts() -> dict[str, Any]:
            rendered = render_table(table, t, now=self._now(), live=True)
            if place.direct and table.running:  # a stranger match: its people's reactions
                rendered = with_reactions(rendered, table_id, t)
            drawn = message_parts(rendered, "table")
            if self.web is not None and not closing:
                # TRANSLATORS: link under the group's table: the table as a live web page, read only.
                drawn["view"] = with_link(drawn["view"], t.gettext("👀 Watch live"),
                                          self.web.watch_url(table_id))
            if not results:
                return drawn
            embeds = [drawn["embed"], *(embed_of(render_notice(n), "result") for n in results)]
            view = drawn["view"] if not closing else None
            if match is not None and not table.running:  # the match's end: its result's buttons
                view = view_of(self._result_rendered(match, place))
            return {"content": None, "embeds": embeds, "view": view}

        async def run() -> Outcome:
            channel = await place.channel()
            for name in (table_ref, closing_ref):
                ref = refs.get(name)
                if isinstance(ref, dict) and ref.get("round") == round_no:
                    try:
                        await channel.get_partial_message(int(ref["id"])).edit(**parts())
                        return SENT
                    except discord.NotFound:
                        break  # deleted by someone: post it again
            current = refs.get(table_ref)
            if isinstance(current, dict) and int(current.get("round", 0)) > round_no:
                return SKIPPED  # a later round has its message: this one is gone
            message = await channel.send(**_sendable(parts()))
            if isinstance(current, dict) and current.get("round") != round_no:
                self.keep(table_id, closing_ref, current)
            self.keep(table_id, table_ref, {"id": message.id, "round": round_no})
            return SENT

        # A new round's message and a round's result are news; a refresh of the same
        # round's table is paced, so a fast game spreads the channel's writes evenly.
        self._put(
            table_id,
            place.key("table", table_id, round_no),
            place.lane,
            run,
            stamp=(table.version,),
            urgent=new_round or bool(results),
            label="table",
        )

    def _result_rendered(self, notice: RoundEnded | MatchEnded | TableSetAside, place: Place) -> Rendered:
        """A result as ``place`` shows it: in a DM, a stranger match's end also offers its
        Rematch (a 1-v-1's) and the reactions."""
        rendered = render_notice(notice)
        if place.direct and isinstance(notice, MatchEnded) and notice.result.reason != "expired":
            t = t_of(notice)
            rendered = with_reactions(with_rematch(rendered, notice.result, t), notice.table_id, t)
        return rendered

    def _result(self, notice: RoundEnded | MatchEnded | TableSetAside, place: Place) -> None:
        """A message of its own: a result with no table to carry it, a table set aside."""
        parts = message_parts(
            self._result_rendered(notice, place), "info" if isinstance(notice, TableSetAside) else "result"
        )
        round_no = notice.result.round_no if isinstance(notice, RoundEnded) else 0

        async def run() -> Outcome:
            await (await place.channel()).send(**_sendable(parts))
            return SENT

        key = place.key(notice.kind, notice.table_id, round_no)
        self._put(notice.table_id, key, place.lane, run, urgent=True, order=REPLY, label=notice.kind)

    def _hand(self, notice: HandUpdated) -> None:
        hand = notice.hand
        t = t_of(notice)

        async def run() -> Outcome:
            slot = self.hands.get(hand.table_id, hand.player_id)
            if slot is None or slot.version >= hand.version:
                return SKIPPED  # not open, or already showing this (its own press answered it)
            previous = slot.version
            slot.version, slot.card, slot.plan = hand.version, None, None
            try:
                await slot.reply.show(**hand_parts(hand, t, now=self._now(), web=self.web))
            except discord.HTTPException as error:
                if _busy(error):
                    slot.version = previous
                else:  # the token ran out or the message is gone: "my hand" opens a new one
                    self.hands.drop(hand.table_id, hand.player_id, slot)
                raise
            if not hand.table.running:
                self.hands.drop(hand.table_id, hand.player_id, slot)
            return SENT

        self._put(
            hand.table_id,
            ("hand", hand.table_id, hand.player_id),
            hand_lane(hand.table_id, hand.player_id),
            run,
            stamp=(hand.version,),
            urgent=hand.your_turn,
            label="hand",
        )

    # -- channels and references -----------------------------------------------------

    def _channel(self, chat_id: str) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(channel_of(chat_id))

    def _chat_place(self, chat_id: str) -> Place:
        """A table's own channel."""
        channel = self._channel(chat_id)

        async def find() -> discord.PartialMessageable:
            return channel

        number = channel_of(chat_id)
        return Place(channel_lane(number), delete_lane(number), find)

    def _direct_place(self, player_id: str, seat: int) -> Place:
        """The DM of the person at ``seat`` of a stranger match."""

        async def find() -> discord.PartialMessageable:
            return await self.directs.channel(player_id)

        return Place(direct_lane(player_id), direct_delete_lane(player_id), find, seat)

    async def refs(self, table_id: str) -> dict[str, Any]:
        return (await self.messages.of(table_id)).values

    def keep(self, table_id: str, key: str, value: Any) -> None:
        """Note a reference now, and store it in the background (``bots.outbound.refs``)."""
        self.messages.keep(table_id, key, value)


def t_of(notice: Notice) -> Translator:
    return translator(notice.lang)


def channel_of(chat_id: str) -> int:
    return int(raw_id(chat_id))


def _busy(error: discord.HTTPException) -> bool:
    return error.status == 429 or error.status >= 500


def _ends(notice: Notice) -> bool:
    """Whether the notice says the table is closed (a lobby that became a match is not)."""
    if isinstance(notice, LobbyClosed):
        return notice.reason != "started"
    return isinstance(notice, MatchEnded | TableSetAside)
