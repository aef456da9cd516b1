"""Bringing a partner to the pairing pool: an invitation a friend uses.

Someone who looks for a 2-v-2 (or is about to) makes an invitation (``invite``): a random
token, never an id, good once for ``INVITE_SECONDS``, which their adapter shows as a link
to press (Telegram) or a code to type (Discord). A friend who uses it (``accept``) joins
them as their partner: both wait in the pool as partners of each other
(``PoolEntry.partner``), whom a wave seats as one team, and the pool finds the other pair.
If the inviter was waiting, their entry gets the partner; if the invitation was made
outside a search, they are entered now. The inviter hears of it through their own
platform (``PoolTogether``), which need not be the friend's: the token is the same
everywhere, so one service that serves Telegram and Discord brings a friend of either.

Every refusal changes nothing: the invitation expired or was used (``InviteExpired``), it
is one's own (``OwnInvite``), the friend or the inviter plays a match now
(``AlreadyPlaying``, ``InviterPlaying``), the friend is looking already
(``InviteWhileLooking``), the inviter stopped looking since they made it (``InviterLeft``),
one of them blocked the other (``InviteBlocked``).

Using an invitation holds its key (``Store.hold``), so two friends who use it at once, in
any processes, are taken one after the other, and the second is refused. The friend is
entered first (their own refusals come then), the inviter given them as partner next (or
entered), and the invitation marked used last; whatever fails on the way is undone.
"""

from __future__ import annotations

import dataclasses
import re
import secrets
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Final, Protocol

from storage import PoolEntry, PoolInvite, Store

from .clock import Clock
from .config import ServiceConfig
from .errors import (
    AlreadyPlaying,
    BadInput,
    InviteBlocked,
    InviteExpired,
    InviterLeft,
    InviterPlaying,
    InviteWhileLooking,
    OwnInvite,
    PoolNotHere,
    ServiceError,
)
from .ids import Person, platform_of
from .languages import Languages
from .tables import Tables
from .usecase import UseCase
from .waiting import PoolNotice, PoolPlatform, PoolTogether, PoolView, tell_pool

#: How long an invitation is good for, in seconds.
INVITE_SECONDS: Final = 600
#: The kinds of match one may bring a partner to.
INVITE_MODES: Final = ("2v2",)
#: What a token looks like (``secrets.token_urlsafe``): what may be part of a link or a code.
TOKEN: Final = re.compile(r"^[A-Za-z0-9_-]{8,40}$")
#: Bytes of randomness in a token (16 characters once written).
TOKEN_BYTES: Final = 12


class Join(Protocol):
    """``Pool.join``: put a person in the pool, waiting for ``partner`` alone when given."""

    def __call__(self, person: Person, chat_id: str, mode: str = ..., *,
                 partner: str | None = ...) -> Awaitable[PoolView]: ...


#: ``Pool.status``: a person's place in the pool, or None.
Status = Callable[[Person], Awaitable[PoolView | None]]


@dataclass(frozen=True, slots=True)
class InviteView:
    """An invitation just made, for its maker to pass on: ``token`` (the adapter's link or
    code carries it), the kind of match, and how long it is good for (``seconds``, until
    ``until``)."""

    token: str
    mode: str
    seconds: int
    until: float
    #: Whether it was made from the maker's search under way (else using it enters them).
    searching: bool


class Invites(UseCase):
    """The pool's invitations: making one, and a friend's use of it."""

    def __init__(self, tables: Tables, languages: Languages, store: Store, clock: Clock,
                 config: ServiceConfig, *, join: Join, status: Status) -> None:
        super().__init__(tables, languages, store, clock, config)
        self._join = join
        self._status = status

    async def invite(self, person: Person, chat_id: str, mode: str = "2v2") -> InviteView:
        """An invitation for a friend to join ``person`` as their partner at a ``mode`` match,
        from their private chat ``chat_id``. Made from their search if they wait for a 2-v-2
        with nobody yet; else using it enters them too. PoolNotHere outside the pool's
        platforms and private chats; AlreadyPlaying while they play a match; BadInput while
        they wait for another kind of match, or with a partner already."""
        platform = platform_of(person.player_id)
        served = self._t.platforms.get(platform)
        if not isinstance(served, PoolPlatform) or platform_of(chat_id) != platform:
            raise PoolNotHere()
        if mode not in INVITE_MODES:
            raise BadInput(f"no partner is brought to a {mode!r} match")
        self._lang.note_person(person)
        if await self._playing(person.player_id):
            raise AlreadyPlaying()
        entry = await self._store.pool_entry(person.player_id)
        searching = entry is not None and entry.state == "waiting"
        if entry is not None and searching and (entry.mode != mode or entry.partner is not None):
            raise BadInput("a search that brings no partner")
        now = self._clock.now()
        while True:
            invite = PoolInvite(
                token=secrets.token_urlsafe(TOKEN_BYTES), inviter=person.player_id,
                chat_id=entry.chat_id if entry is not None and searching else chat_id,
                name=person.name, lang=person.language, mode=mode, searching=searching,
                made_at=now, until=now + INVITE_SECONDS,
            )
            if await self._store.make_invite(invite):
                return InviteView(invite.token, mode, INVITE_SECONDS, invite.until, searching)

    async def accept(self, person: Person, chat_id: str, token: str) -> PoolView:
        """``person`` uses the invitation ``token`` from their private chat ``chat_id``: they
        and its maker wait in the pool as partners, and the maker is told. The view of the
        person's waiting message, naming the maker (``partners``). Refusals: see the module."""
        if not TOKEN.match(token):
            raise InviteExpired()
        async with self._store.hold(f"pool:invite:{token}"):
            invite, entry = await self._usable(person, token)
            inviter = Person(invite.inviter, invite.name, invite.lang)
            view = await self._join(person, chat_id, invite.mode, partner=invite.inviter)
            try:
                await self._partner(invite, inviter, entry, person)
            except BaseException:
                await self._store.leave_pool(person.player_id, "waiting")
                raise
            if await self._store.use_invite(token, person.player_id, self._clock.now()) is None:
                await self._undo(invite, inviter, entry, person)
                raise InviteExpired()
        told = await self._status(inviter)
        if told is not None:
            await self._tell([PoolTogether(dataclasses.replace(told, partners=(person.name,)))])
        return dataclasses.replace(view, partners=(invite.name,))

    async def _usable(self, person: Person, token: str) -> tuple[PoolInvite, PoolEntry | None]:
        """The invitation, if ``person`` may use it now, and its maker's entry in the pool
        (None when they have none, or one that is not waiting)."""
        invite = await self._store.pool_invite(token)
        if invite is None or invite.used_by is not None or invite.until <= self._clock.now():
            raise InviteExpired()
        if invite.inviter == person.player_id:
            raise OwnInvite()
        if await self._store.blocked_pairs([invite.inviter, person.player_id]):
            raise InviteBlocked()
        if await self._playing(invite.inviter):
            raise InviterPlaying(name=invite.name)
        entry = await self._store.pool_entry(invite.inviter)
        if entry is None or entry.state != "waiting":
            if invite.searching:
                raise InviterLeft(name=invite.name)
            entry = None
        elif entry.mode != invite.mode:
            raise InviterLeft(name=invite.name)
        elif entry.partner is not None:
            raise InviteExpired()  # another friend came first, with another invitation
        mine = await self._store.pool_entry(person.player_id)
        if mine is not None and mine.state == "waiting":
            raise InviteWhileLooking()
        return invite, entry

    async def _partner(self, invite: PoolInvite, inviter: Person, entry: PoolEntry | None,
                       person: Person) -> None:
        """The maker waits with ``person`` as partner: their entry gets them, or they are
        entered. InviterLeft if they stopped looking meanwhile."""
        if entry is not None:
            if not await self._store.update_pool_entry(
                entry.model_copy(update={"partner": person.player_id}), "waiting"
            ):
                raise InviterLeft(name=invite.name)
            return
        try:
            await self._join(inviter, invite.chat_id, invite.mode, partner=person.player_id)
        except ServiceError as error:
            if isinstance(error, AlreadyPlaying):
                raise InviterPlaying(name=invite.name) from error
            raise InviterLeft(name=invite.name) from error

    async def _undo(self, invite: PoolInvite, inviter: Person, entry: PoolEntry | None,
                    person: Person) -> None:
        """Take back what ``accept`` did before the invitation turned out used."""
        await self._store.leave_pool(person.player_id, "waiting")
        if entry is None:
            await self._store.leave_pool(inviter.player_id, "waiting")
            return
        now = await self._store.pool_entry(inviter.player_id)
        if now is not None and now.state == "waiting" and now.partner == person.player_id:
            await self._store.update_pool_entry(now.model_copy(update={"partner": None}), "waiting")

    async def _playing(self, player_id: str) -> bool:
        """Whether they play a running match now (a group's, or a stranger one), whichever
        bot keeps it."""
        rows = await self._store.open_rows(player=player_id)
        return any(getattr(row, "status", None) == "running" for row in rows)

    async def _tell(self, notices: Sequence[PoolNotice]) -> None:
        await tell_pool(self._t.platforms, notices)
