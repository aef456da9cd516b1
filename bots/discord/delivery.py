"""The service's notices, delivered to Discord.

One message per purpose, found again through references kept with the table
(``TableService.remember``): the lobby message, the table message of the
current round (a new round gets a new message), the latest turn ping. Round
and match results are messages of their own. Private notices go to the
player's open ephemeral hand (see ``hands``); Discord has no other way to
reach one person in a channel, so a player whose turn comes is mentioned in a
short public ping that names no card.

Every action is committed by the service before its notices arrive, so a
failed send never loses a play: rate limits and server errors are retried, and
a public notice that still fails is kept and sent again with the table's next
notices or a little later. The newest table, lobby and ping replace older
ones that failed; results are always sent. Log lines name the table and the
kind of message, never its text.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

import discord

from ..i18n import Translator, translator
from ..render import (
    Rendered,
    render_hand,
    render_hint,
    render_lobby,
    render_match_result,
    render_round_result,
    render_table,
    render_turn_notice,
    render_warning,
)
from ..service import (
    ClockWarning,
    HandUpdated,
    HandView,
    HintView,
    LobbyClosed,
    LobbyUpdated,
    MatchEnded,
    Notice,
    RoundEnded,
    TableUpdated,
    YourTurn,
    raw_id,
)
from .hands import OpenHands
from .messages import message_parts
from .replies import Reply, _sendable

if TYPE_CHECKING:
    from ..service import TableService

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Notices that a newer one of the same kind makes unnecessary to resend.
REPLACEABLE = frozenset({"lobby_updated", "lobby_closed", "table_updated", "your_turn", "clock_warning"})


def _latest(notices: list[Notice]) -> list[Notice]:
    """The notices still worth sending, in order: of the replaceable kinds only the last of
    each message (a round's table, a player's hand, ...), every other notice."""

    def message(notice: Notice) -> tuple[object, ...] | None:
        if isinstance(notice, TableUpdated):
            return (notice.kind, notice.table.round_no)
        if notice.kind in REPLACEABLE or isinstance(notice, HandUpdated):
            return (notice.kind, notice.player_id)
        return None

    keys = [message(n) for n in notices]
    last = {key: i for i, key in enumerate(keys) if key is not None}
    return [n for i, (n, key) in enumerate(zip(notices, keys, strict=True)) if key is None or last[key] == i]


def hand_parts(
    hand: HandView, t: Translator, *, now: float | None, note: str | None = None, hint: HintView | None = None
) -> dict[str, Any]:
    """A hand message: the renderer's hand (with ``hint`` above it, when asked for)
    and a note above the message."""
    rendered = render_hint(hint, t, now=now) if hint is not None else render_hand(hand, t, now=now)
    return message_parts(rendered, "hand", content=note)


class DiscordPlatform:
    """``bots.service.Platform`` for Discord: ``name`` "dc", ``deliver``."""

    name = "dc"

    def __init__(
        self,
        client: discord.Client,
        hands: OpenHands,
        *,
        now: Callable[[], float],
        retry_delays: Sequence[float] = (1.0,),
        retry_later: float = 30.0,
    ) -> None:
        self.client = client
        self.hands = hands
        self.service: TableService | None = None
        self._now = now
        self.retry_delays = tuple(retry_delays)
        self.retry_later = retry_later
        #: Replies that may answer for a public message (id) or a chat's first message.
        self.message_claims: dict[int, Reply] = {}
        self.chat_claims: dict[str, Reply] = {}
        self._refs: dict[str, dict[str, Any]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._backlog: dict[str, list[Notice]] = {}
        self._retrying: set[str] = set()
        self._sending: set[str] = set()
        self._tasks: set[asyncio.Task[Any]] = set()
        self.failures: list[tuple[str, str, int]] = []  # (table, kind, HTTP status), for tests
        # Everything but a hand goes to the channel (turn pings too), so it can be sent again.

    # -- outbound protocol ---------------------------------------------------------

    async def deliver(self, notices: Sequence[Notice]) -> None:
        """Queue one action's notices (the table's lock is held: nothing here waits for
        Discord). Each table's notices go out in order, one batch after another, and a batch
        still waiting when a newer one comes merges with it (the newest table, lobby and
        ping replace older ones); the answer to the press waits for none of it."""
        if not notices:
            return
        table_id = notices[0].table_id
        self._backlog.setdefault(table_id, []).extend(notices)
        if table_id not in self._sending:
            self._sending.add(table_id)
            self._spawn(self._drain(table_id), name=f"basra-send-{table_id}")

    async def _drain(self, table_id: str) -> None:
        try:
            async with self._lock(table_id):
                while self._backlog.get(table_id):
                    await self._send_all(table_id, [])
                    if table_id in self._retrying:
                        break  # what failed waits for its retry
        finally:
            self._sending.discard(table_id)

    async def flush(self, table_id: str) -> None:
        """Send what failed before (called again later, and on the next press)."""
        if not self._backlog.get(table_id):
            return
        async with self._lock(table_id):
            await self._send_all(table_id, [])

    async def flush_chat(self, chat_id: str) -> None:
        for table_id, pending in list(self._backlog.items()):
            if pending and pending[0].chat_id == chat_id:
                await self.flush(table_id)

    async def wait_idle(self) -> None:
        """Wait for reference writes and retries already started."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)

    def cancel_retries(self) -> None:
        for task in list(self._tasks):
            if task.get_name().startswith("basra-retry"):
                task.cancel()

    # -- the sending loop ----------------------------------------------------------

    def _lock(self, table_id: str) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    async def _send_all(self, table_id: str, notices: list[Notice]) -> None:
        backlog = self._backlog.pop(table_id, []) + notices
        batch = _latest(backlog)
        # The presser's own hand answers their interaction: first, within Discord's 3 s.
        batch.sort(key=lambda n: 0 if self._answers_a_press(n) else 1)
        failed: list[Notice] = []
        for notice in batch:
            try:
                await self._send(notice)
            except discord.HTTPException as error:
                log.warning("table %s: sending %s failed (HTTP %s)", table_id, notice.kind, error.status)
                self.failures.append((table_id, notice.kind, error.status))
                if not isinstance(notice, HandUpdated) and error.status != 403:
                    failed.append(notice)
            except Exception:
                log.exception("table %s: sending %s failed", table_id, notice.kind)
        if any(isinstance(n, MatchEnded) for n in batch) or any(
            isinstance(n, LobbyClosed) and n.reason != "started" for n in batch
        ):
            # The table is over: nothing more to refresh or edit (a failed result is
            # still in the backlog, and its references can be read again).
            self.hands.forget_table(table_id)
            if not failed:
                self._refs.pop(table_id, None)
        if failed:
            self._backlog[table_id] = failed
            if table_id not in self._retrying:
                self._retrying.add(table_id)
                self._spawn(self._retry_later(table_id), name=f"basra-retry-{table_id}")

    def _answers_a_press(self, notice: Notice) -> bool:
        if not isinstance(notice, HandUpdated):
            return False
        slot = self.hands.get(notice.table_id, notice.hand.player_id)
        return slot is not None and not slot.reply.done

    async def _retry_later(self, table_id: str) -> None:
        await asyncio.sleep(self.retry_later)
        self._retrying.discard(table_id)
        await self.flush(table_id)

    async def _send(self, notice: Notice) -> None:
        t = translator(notice.lang)
        if isinstance(notice, LobbyUpdated | LobbyClosed):
            await self._lobby(notice, t)
        elif isinstance(notice, TableUpdated):
            await self._table(notice, t)
        elif isinstance(notice, HandUpdated):
            await self._hand(notice, t)
        elif isinstance(notice, YourTurn):
            if not self._sees_own_turn(notice):
                await self._ping(
                    notice.table_id, notice.hand, notice.hand.version, render_turn_notice(notice, t)
                )
        elif isinstance(notice, ClockWarning):
            await self._ping(notice.table_id, notice.hand, -notice.seconds_left, render_warning(notice, t))
        elif isinstance(notice, RoundEnded):
            await self._post(notice.chat_id, message_parts(render_round_result(notice.result, t), "result"))
        elif isinstance(notice, MatchEnded):
            await self._post(notice.chat_id, message_parts(render_match_result(notice.result, t), "result"))
            await self._delete_ping(notice.chat_id, notice.table_id)

    def _sees_own_turn(self, notice: YourTurn) -> bool:
        """A practice player looking at a live hand needs no ping every turn."""
        return (
            notice.hand.table.practice and self.hands.get(notice.table_id, notice.hand.player_id) is not None
        )

    # -- each kind of message ------------------------------------------------------

    async def _lobby(self, notice: LobbyUpdated | LobbyClosed, t: Translator) -> None:
        parts = message_parts(render_lobby(notice.lobby, t), "lobby")
        refs = await self.refs(notice.table_id)
        message_id = refs.get("lobby")
        if isinstance(message_id, int) and await self._edit(notice.chat_id, message_id, parts):
            return
        if isinstance(notice, LobbyClosed):
            return  # nothing to close
        new_id = await self._post(notice.chat_id, parts)
        self.keep(notice.table_id, "lobby", new_id)

    async def _table(self, notice: TableUpdated, t: Translator) -> None:
        table = notice.table
        parts = message_parts(render_table(table, t, now=self._now()), "table")
        refs = await self.refs(table.table_id)
        current = refs.get("table")
        if not isinstance(current, dict):
            current = None
        if current is not None and current.get("round") == table.round_no:
            if await self._edit(table.chat_id, int(current["id"]), parts):
                return
            current = None  # deleted by someone: post a new one
        new_id = await self._post(table.chat_id, parts)
        self.keep(table.table_id, "table", {"id": new_id, "round": table.round_no})
        if current is not None:
            # The old round's message keeps its last picture, without the button.
            await self._quietly(
                self._channel(table.chat_id).get_partial_message(int(current["id"])).edit(view=None)
            )

    async def _hand(self, notice: HandUpdated, t: Translator) -> None:
        hand = notice.hand
        slot = self.hands.get(hand.table_id, hand.player_id)
        if slot is None or slot.version > hand.version:
            return
        parts = hand_parts(hand, t, now=self._now())
        try:
            await slot.reply.show(**parts)
        except discord.HTTPException:
            # The token ran out or the message is gone: "my hand" opens a new one.
            self.hands.drop(hand.table_id, hand.player_id, slot)
            return
        slot.version, slot.card, slot.plan = hand.version, None, None

    async def _ping(self, table_id: str, hand: HandView, version: int, rendered: Rendered) -> None:
        """Mention the player whose turn it is (a short message naming no card, with a
        "My hand" button); the previous ping of the table goes away."""
        chat_id, player = hand.table.chat_id, hand.player_id
        refs = await self.refs(table_id)
        old = refs.get("ping")
        if isinstance(old, dict) and old.get("player") == player and old.get("version") == version:
            return  # already said (a restart delivers the same turn again)
        user = int(raw_id(player))
        parts = _sendable(message_parts(rendered, "info", content=f"<@{user}> {rendered.text.markdown()}"))
        del parts["embed"]
        pinged = discord.AllowedMentions(users=[discord.Object(user)])
        message = await self._attempt(lambda: self._channel(chat_id).send(allowed_mentions=pinged, **parts))
        self.keep(table_id, "ping", {"id": message.id, "player": player, "version": version})
        if isinstance(old, dict):
            await self._quietly(self._channel(chat_id).get_partial_message(int(old["id"])).delete())

    async def _delete_ping(self, chat_id: str, table_id: str) -> None:
        old = (await self.refs(table_id)).get("ping")
        if isinstance(old, dict):
            self.keep(table_id, "ping", None)
            await self._quietly(self._channel(chat_id).get_partial_message(int(old["id"])).delete())

    # -- messages in the channel ---------------------------------------------------

    def _channel(self, chat_id: str) -> discord.PartialMessageable:
        return self.client.get_partial_messageable(int(raw_id(chat_id)))

    async def _post(self, chat_id: str, parts: dict[str, Any]) -> int:
        """A new public message; the slash command that caused it answers with it when it can."""
        claim = self.chat_claims.pop(chat_id, None)
        if claim is not None and claim.message_id is None:
            try:
                message_id = await claim.show(**parts)
                if message_id is not None:
                    return message_id
            except discord.HTTPException as error:
                log.warning(
                    "answering a command in %s failed (HTTP %s); posting instead", chat_id, error.status
                )
        message = await self._attempt(lambda: self._channel(chat_id).send(**_sendable(parts)))
        return message.id

    async def _edit(self, chat_id: str, message_id: int, parts: dict[str, Any]) -> bool:
        """Edit a public message in place; False when it is gone (deleted by someone)."""
        claim = self.message_claims.get(message_id)
        if claim is not None:
            try:
                await claim.show(**parts)
                return True
            except discord.HTTPException as error:
                log.warning(
                    "answering a press in %s failed (HTTP %s); editing instead", chat_id, error.status
                )
        try:
            await self._attempt(lambda: self._channel(chat_id).get_partial_message(message_id).edit(**parts))
        except discord.NotFound:
            return False
        return True

    async def _attempt(self, call: Callable[[], Awaitable[T]]) -> T:
        """``call()``, again after each of ``retry_delays`` when Discord is busy (429, 5xx)."""
        for delay in self.retry_delays:
            try:
                return await call()
            except discord.HTTPException as error:
                if error.status != 429 and error.status < 500:
                    raise
                log.info("Discord busy (HTTP %s); trying again in %.1f s", error.status, delay)
            await asyncio.sleep(delay)
        return await call()

    async def _quietly(self, call: Awaitable[Any]) -> None:
        """Tidying up (old buttons, old pings): a failure costs nothing."""
        try:
            await call
        except discord.HTTPException as error:
            log.info("tidying a message failed (HTTP %s)", error.status)

    # -- references kept with the table ----------------------------------------

    async def refs(self, table_id: str) -> dict[str, Any]:
        refs = self._refs.get(table_id)
        if refs is None:
            assert self.service is not None
            try:
                refs = await self.service.recall(table_id)
            except Exception:
                log.exception("table %s: reading message references failed", table_id)
                refs = {}
            refs = self._refs.setdefault(table_id, refs)
        return refs

    def keep(self, table_id: str, key: str, value: Any) -> None:
        """Note a reference now; store it in the background (``remember`` waits for the
        table, which may be busy with the very action being delivered)."""
        self._refs.setdefault(table_id, {})[key] = value
        if self.service is not None:
            self._spawn(self.service.remember(table_id, key, value), name=f"basra-remember-{table_id}")

    def _spawn(self, work: Coroutine[Any, Any, Any], *, name: str) -> None:
        task = asyncio.get_running_loop().create_task(self._logged(work), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    @staticmethod
    async def _logged(work: Coroutine[Any, Any, Any]) -> None:
        try:
            await work
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("background work failed")
