"""The pairing pool: people with nobody at hand ask to play someone now, and are paired.

``join`` puts a person in the pool from their private chat; every ``pool_wave_seconds`` a
wave pairs the people waiting (``pairing``: a maximum-weight matching over rating gaps
and waits) and seats each pair at a rated match of its own, which they play in their
private chats (``Lobbies.seat_strangers``, ``ids.pool_chat``), each on their own
platform and in their own language. Someone nobody was found for within
``pool_wait_seconds`` is offered the computer at the level nearest their rating, and
may keep waiting.

The pool is kept in the store (``Store.enter_pool`` and the rest), so every process of
the bots on one database shares it: one wave runs at a time among them (``Store.hold``
on ``WAVE``), a wave seats a person only if they are still waiting (``Store.seat_pool``,
all of a pair or none), and a crash loses nobody. Seating marks the pair first, then
opens their table; a wave that finds someone marked seated at a table that was never
opened (its process died in between) puts them back, first in line as before, and
tells them they are still waiting. A seated person's entry stays until they join again,
naming the match they are at.

Fair play: a stranger match has the pool's turn clock (``pool_turn_seconds``), and its
loser by resignation or by the clock abandoned it (``strangers.note_abandon``); who
abandoned ``ABANDONS_APART`` in a week is paired only with others who did. Two who blocked
each other are never paired, nor the same two again within ``pool_apart_seconds``
unless both asked for the rematch.

Across platforms: one process that serves Telegram and Discord (SQLite's one host) pairs
across them. On a store several processes share (PostgreSQL), a wave pairs the people of
every platform, but seats only the groups where someone of its own platforms sits (its bot
keeps their table; the other process acts on it too, ``crossing``), and tells only its own
people how their wait goes. A process finds its people seated by another's wave in their
entries (``follow_seated``): it tells them whom they were paired with and draws their
match, as it does after a restart for a match that went on meanwhile. Of a Discord bot's
shard processes, only the one that holds shard 0, where every press in a DM comes, pairs
(``waiting.pairs_here``): the others put their people in the pool, and it tells them.
"""

from __future__ import annotations

import itertools
import logging
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from typing import Final

from storage import PoolEntry, Store

from . import pairing
from .clock import Clock
from .config import ServiceConfig
from .errors import (
    AlreadyLooking,
    AlreadyPaired,
    AlreadyPlaying,
    BadInput,
    NotLooking,
    NotSeated,
    PoolNotHere,
)
from .ids import Person, is_pool_chat, new_table_id, platform_of
from .languages import Languages
from .live import LiveTable, seat_of
from .tables import Decision, Tables
from .usecase import UseCase
from .views import TableView
from .waiting import (
    LOOKING_EVERY,
    PoolLooking,
    PoolNotice,
    PoolOffer,
    PoolPaired,
    PoolPlatform,
    PoolView,
    pairs_here,
    tell_pool,
)

log = logging.getLogger(__name__)

#: The key one wave at a time holds, among every process on the database.
WAVE: Final = "pool:wave"
#: A person's first rated matches: their rating says little yet, and the pool says so.
PROVISIONAL_MATCHES: Final = 5
#: The most seconds between two edits of a waiting message while nothing else changes.
LOOKING_AT_MOST: Final = 30.0
#: Who abandoned this many stranger matches (resigned, or let the clock run out) in the last
#: ``ABANDONS_DAYS`` days is paired only with others who did (``Store.abandons``).
ABANDONS_APART: Final = 3
ABANDONS_DAYS: Final = 7
#: Kinds of match the pool pairs for.
MODES: Final = ("1v1", "2v2")
#: How long after joining a person seated by another process's wave is looked for: a seated
#: entry stays until its person joins again, so the entries of long ago are not read again.
FOLLOW_WITHIN: Final = 3600.0
#: The platforms whose people may wait in the pool, when several processes share it.
POOLED: Final = ("dc", "tg")

#: Open and start the match of people a wave paired, at the table id given, kept by the bot
#: of the platform given (``Lobbies.seat_strangers``).
Seat = Callable[[str, Sequence[Person], str], Awaitable[TableView]]


def level_for(rating: float) -> str:
    """The computer level nearest a rating (an openskill ordinal: a newcomer's is 0).

    >>> level_for(0.0), level_for(8.0), level_for(20.0)
    ('beginner', 'strong', 'expert')
    """
    return "beginner" if rating < 5 else "strong" if rating < 15 else "expert"


class Pool(UseCase):
    """The pairing pool's half of the table service."""

    def __init__(self, tables: Tables, languages: Languages, store: Store, clock: Clock,
                 config: ServiceConfig, *, seat: Seat) -> None:
        super().__init__(tables, languages, store, clock, config)
        self._seat = seat
        #: What each waiting person's message says last, as this process told it:
        #: (how many were looking, when).
        self._told: dict[str, tuple[int, float]] = {}
        self._waved_at: float | None = None
        self._recovered = False
        #: Pairs a dead process marked seated at a match it never opened: they never met.
        self._never_met: set[frozenset[str]] = set()
        #: Matches another process's wave seated this one's people at, drawn here already.
        self._drawn: set[str] = set()

    @property
    def platforms(self) -> list[str]:
        """The platforms served here whose people may wait in the pool."""
        return sorted(name for name, p in self._t.platforms.items() if isinstance(p, PoolPlatform))

    @property
    def pairing(self) -> list[str]:
        """The platforms whose waiting people this process pairs (``waiting.pairs_here``)."""
        return sorted(name for name, p in self._t.platforms.items() if pairs_here(p))

    @property
    def shared(self) -> bool:
        """Whether other processes share the pool (a shared store), maybe serving other
        platforms: a wave pairs everyone, and seats whom its own people sit with."""
        return self._store.shared

    @property
    def pooled(self) -> list[str]:
        """The platforms whose people a wave pairs."""
        return sorted({*POOLED, *self.platforms}) if self.shared else self.platforms

    # -- what people ask --------------------------------------------------------------

    async def join(self, person: Person, chat_id: str, mode: str = "1v1", *,
                   partner: str | None = None) -> PoolView:
        """Put ``person`` in the pool from their private chat ``chat_id``: the view their
        waiting message shows. ``mode`` "1v1", or "2v2" (a wave seats four: two teams of
        two, by rating). ``partner``: the one person they wait for (``rematch``), whom no
        other is paired in place of. PoolNotHere on a platform without the pool;
        AlreadyPlaying while they play a match; AlreadyLooking while they wait already
        (still one entry)."""
        platform = platform_of(person.player_id)
        if platform not in self.platforms or platform_of(chat_id) != platform:
            raise PoolNotHere()
        if mode not in MODES:
            raise BadInput(f"the pool pairs no {mode!r} matches")
        self._lang.note_person(person)
        profile = await self._store.upsert_player(person.player_id, person.name, person.language)
        self._lang.chosen[person.player_id] = profile.language
        if await self._playing(person.player_id):
            raise AlreadyPlaying()
        entry = PoolEntry(
            player_id=person.player_id, platform=platform, chat_id=chat_id, name=person.name,
            lang=person.language, rating=profile.rating,
            provisional=profile.rated_matches < PROVISIONAL_MATCHES, mode=mode,
            partner=partner, joined_at=self._clock.now(),
        )
        stored, added = await self._store.enter_pool(entry)
        if not added and stored.state == "seated":
            # Seated by an earlier wave at a match that is over now: look afresh.
            await self._store.leave_pool(person.player_id, "seated")
            stored, added = await self._store.enter_pool(entry)
        if not added:
            raise AlreadyLooking()
        waiting = await self._store.pool_entries(self.pooled, "waiting")
        looking = sum(1 for w in waiting if w.mode == mode)
        self._told[person.player_id] = (looking, stored.joined_at)
        return self._view(stored, looking)

    async def _playing(self, player_id: str) -> bool:
        """Whether they play a running match of these bots now (a group's, or a stranger one)."""
        owners = None if self.shared else sorted(self._t.owners.values())  # another's bot may keep it
        rows = await self._store.open_rows(owners=owners, player=player_id)
        return any(getattr(row, "status", None) == "running" for row in rows)

    async def rematch(self, person: Person, chat_id: str, table_id: str) -> PoolView:
        """Rematch pressed under a finished stranger match: wait in the pool for that same
        opponent, who must press it too (a wave seats the two as soon as both wait for each
        other, however recently they met); the computer is offered after the wait, as to
        anyone. NotSeated if they did not play it; BadInput if it is no finished 1-v-1 of
        the pool."""
        record, _ = await self._t.closed_table(table_id)
        if seat_of(record, person.player_id) is None:
            raise NotSeated()
        others = [s.player_id for s in record.seats if s.player_id not in (None, person.player_id)]
        if record.status in ("lobby", "running") or not is_pool_chat(record.chat_id) or len(others) != 1:
            raise BadInput(f"table {table_id!r} is no finished stranger 1-v-1")
        return await self.join(person, chat_id, "1v1", partner=others[0])

    async def note_message(self, person: Person, message: dict[str, object]) -> None:
        """Keep the adapter's reference to the person's waiting message, for its later edits
        (from any process, after a restart too). Nothing when they wait no longer."""
        entry = await self._store.pool_entry(person.player_id)
        if entry is not None and entry.state == "waiting":
            await self._store.update_pool_entry(entry.model_copy(update={"message": message}), "waiting")

    async def cancel(self, person: Person) -> PoolView:
        """Leave the pool. NotLooking if they were not waiting; AlreadyPaired once a wave
        seated them (the match has begun)."""
        left = await self._store.leave_pool(person.player_id, "waiting")
        if left is None:
            entry = await self._store.pool_entry(person.player_id)
            if entry is not None and entry.state == "seated" and await self._playing(person.player_id):
                raise AlreadyPaired()
            raise NotLooking()
        self._told.pop(person.player_id, None)
        await self._parted(left)
        return self._view(left, 0, state="left")

    async def _parted(self, left: PoolEntry) -> None:
        """Whoever came to a 2-v-2 as the partner of someone who left looks on alone, for a
        partner too, and is told so."""
        if left.mode != "2v2" or left.partner is None:
            return
        partner = await self._store.pool_entry(left.partner)
        if partner is None or partner.state != "waiting" or partner.partner != left.player_id:
            return
        alone = partner.model_copy(update={"partner": None})
        if await self._store.update_pool_entry(alone, "waiting"):
            await self._tell([PoolLooking(self._view(alone, await self._looking(alone.mode)), parted=True)])

    async def keep_waiting(self, person: Person) -> PoolView:
        """Keep waiting after the computer was offered: the view of the waiting message,
        which still offers the computer. NotLooking if they are not waiting."""
        entry = await self._waiting(person)
        return self._view(entry, await self._looking(entry.mode))

    async def play_computer(self, person: Person) -> PoolView:
        """Leave the pool to play the computer instead: ``level`` of the view returned is the
        one to practise against. NotLooking, AlreadyPaired as for ``cancel``."""
        return await self.cancel(person)

    async def status(self, person: Person) -> PoolView | None:
        """Their place in the pool, or None when they are not in it."""
        entry = await self._store.pool_entry(person.player_id)
        if entry is None:
            return None
        return self._view(entry, await self._looking(entry.mode))

    async def block(self, person: Person, table_id: str) -> tuple[str, ...]:
        """``person`` will not be paired again with the others of the match ``table_id``
        (once it is over): their display names. NotSeated if they did not play it."""
        record, _ = await self._t.closed_table(table_id)
        if seat_of(record, person.player_id) is None:
            raise NotSeated()
        if record.status in ("lobby", "running"):
            raise BadInput(f"table {table_id!r} is not over")
        others = [s for s in record.seats if s.player_id not in (None, person.player_id)]
        for seat in others:
            assert seat.player_id is not None
            await self._store.block_player(person.player_id, seat.player_id, self._clock.now())
        return tuple(s.name or "" for s in others)

    async def _waiting(self, person: Person) -> PoolEntry:
        entry = await self._store.pool_entry(person.player_id)
        if entry is None or entry.state != "waiting":
            raise NotLooking()
        return entry

    async def _looking(self, mode: str) -> int:
        waiting = await self._store.pool_entries(self.pooled, "waiting")
        return sum(1 for w in waiting if w.mode == mode)

    # -- waves -----------------------------------------------------------------------

    async def tick(self) -> None:
        """A chore of the heartbeat: a wave once ``pool_wave_seconds`` have passed since the
        last one."""
        now = self._clock.now()
        if self._waved_at is not None and now - self._waved_at < self._config.pool_wave_seconds:
            return
        self._waved_at = now
        if self.pairing:
            await self.wave()
            if self.shared:
                await self.follow_seated()

    async def wave(self) -> int:
        """Pair the people waiting and seat each pair; offer the computer to those who
        waited long enough; tell the others how many are looking. Returns the pairs seated.
        With nobody waiting, the processes' lock on waves is not taken (once this process
        has recovered what a stop left)."""
        seated = 0
        if self._recovered and not await self._store.pool_entries(self.pooled, "waiting"):
            return seated
        async with self._store.hold(WAVE):
            now = self._clock.now()
            if not self._recovered:
                await self._recover()
                self._recovered = True
            waiting = await self._store.pool_entries(self.pooled, "waiting")
            ours = self.pairing  # (the platforms this process pairs)
            by_mode: defaultdict[str, list[PoolEntry]] = defaultdict(list)
            for entry in waiting:
                by_mode[entry.mode].append(entry)
            unseated: list[PoolEntry] = []
            for mode, entries in by_mode.items():
                ids = [e.player_id for e in entries]
                apart = await self._store.blocked_pairs(ids)
                met = await self._store.pool_pairs_since(ids, now - self._config.pool_apart_seconds)
                abandons = await self._store.abandons(ids, now - ABANDONS_DAYS * 86400)
                tiers = {p: 1 for p, n in abandons.items() if n >= ABANDONS_APART}
                by_id = {e.player_id: e for e in entries}
                for group in self._groups(mode, entries, now, apart, met - self._never_met, tiers):
                    keeper = next((platform_of(p) for p in group if platform_of(p) in ours), None)
                    if keeper is None:
                        continue  # nobody of this process's: the process of theirs seats them
                    if await self._seat_group([by_id[p] for p in group], now, keeper):
                        seated += 1
                        for p in group:
                            by_id.pop(p)
                unseated.extend(e for e in by_id.values() if e.platform in ours)
            await self._tell_waiting(unseated, now)  # how many look is read once, every kind seated
        return seated

    @staticmethod
    def _groups(mode: str, entries: Sequence[PoolEntry], now: float, blocked: set[frozenset[str]],
                met: set[frozenset[str]], tiers: dict[str, int]) -> Sequence[tuple[str, ...]]:
        """Who this wave seats together: first the two who wait for each other (a rematch,
        or partners who came together), then the matching of the others (``pairing``)."""
        partner_of = {e.player_id: e.partner for e in entries}
        mutual = [
            (person, partner) for person, partner in partner_of.items()
            if partner is not None and person < partner and partner_of.get(partner) == person
            and frozenset((person, partner)) not in blocked
        ]
        free = [e for e in entries if e.partner is None]
        if mode == "1v1":
            return [*mutual, *pairing.pairs(free, now, blocked | met, tiers)]
        teams = [*mutual, *pairing.pairs(free, now, blocked, tiers)]
        return pairing.tables_of_teams(teams, {e.player_id: e for e in entries}, now, blocked)

    async def _seat_group(self, entries: list[PoolEntry], now: float, keeper: str) -> bool:
        """Mark them seated, then open their match; put them back if it cannot open."""
        ids = [e.player_id for e in entries]
        busy = [e for e in entries if await self._playing(e.player_id)]
        for entry in busy:  # they began another match meanwhile (practice, a group's)
            await self._store.leave_pool(entry.player_id, "waiting")
            self._told.pop(entry.player_id, None)
            await self._parted(entry)
        table_id = new_table_id()
        if busy or not await self._store.seat_pool(ids, table_id, now):
            return False
        people = [Person(e.player_id, e.name, e.lang) for e in entries]
        try:
            await self._seat(table_id, people, keeper)
        except Exception:
            log.exception("a pair the pool found could not be seated")
            for entry in entries:
                await self._store.update_pool_entry(entry, "seated")
            return False
        self._drawn.add(table_id)
        for i, entry in enumerate(entries):
            self._told.pop(entry.player_id, None)
            seated = entry.model_copy(update={"state": "seated", "table_id": table_id})
            await self._tell([self._paired(seated, [e.name for e in entries], i)])
        return True

    def _paired(self, entry: PoolEntry, names: Sequence[str], i: int) -> PoolPaired:
        """What the ``i``-th of the people seated at one match (``names``, in seat order) is
        told: a group of four is two teams, the first two and the last two."""
        four = len(names) == 4
        partners = tuple(n for j, n in enumerate(names) if four and j != i and j // 2 == i // 2)
        others = tuple(n for j, n in enumerate(names) if j != i and not (four and j // 2 == i // 2))
        return PoolPaired(self._view(entry, 0, opponents=others, partners=partners))

    async def follow_seated(self) -> None:
        """This process's people whom another process's wave seated (or who sat at a match
        between strangers across a restart of this one): each is told whom they were paired
        with, and their match is drawn for them, once."""
        since = self._clock.now() - FOLLOW_WITHIN
        seated = await self._store.pool_entries(self.pairing, "seated", joined_since=since)
        tables = {e.table_id for e in seated if e.table_id is not None}
        self._drawn &= tables
        for table_id in sorted(tables - self._drawn - set(self._t.live)):
            record = await self._store.get_table(table_id)
            if record is None or record.status == "lobby":
                continue  # still being opened: looked at again next time
            self._drawn.add(table_id)
            if not record.is_open or not self._t.crossed(record):
                continue
            live = await self._t.adopt(record)
            if live is None:
                continue
            names = [s.name or "" for s in record.seats]
            told = [self._paired(e, names, i) for e in seated for i, s in enumerate(record.seats)
                    if e.table_id == table_id and s.player_id == e.player_id]
            await self._tell(told)

            async def draw(live: LiveTable = live) -> Decision[None]:
                return None, self._t.match_notices(live)

            await self._t.run(live, draw)

    async def _recover(self) -> None:
        """After a start: whoever a dead process marked seated at a match it never opened is
        waiting again, as before; they and everyone who waited across the stop are told
        that the search goes on (who was seated finds their match's messages drawn again)."""
        now = self._clock.now()
        everyone = await self._store.pool_entries(self.pooled, "waiting")
        counts = {mode: sum(1 for e in everyone if e.mode == mode) for mode in MODES}
        ours = self.pairing
        waiting = [e for e in everyone if e.platform in ours]
        for entry in waiting:
            self._told[entry.player_id] = (counts.get(entry.mode, 0), now)
        await self._tell([PoolLooking(self._view(e, counts.get(e.mode, 0)), resumed=True) for e in waiting])
        unopened: defaultdict[str, list[str]] = defaultdict(list)
        for entry in await self._store.pool_entries(ours, "seated"):
            if entry.table_id is not None and await self._store.get_table(entry.table_id) is not None:
                continue
            unopened[entry.table_id or ""].append(entry.player_id)
            back = entry.model_copy(update={"state": "waiting", "table_id": None})
            if await self._store.update_pool_entry(back, "seated"):
                looking = await self._looking(back.mode)
                self._told[back.player_id] = (looking, self._clock.now())
                await self._tell([PoolLooking(self._view(back, looking), resumed=True)])
        for people in unopened.values():
            self._never_met.update(frozenset(pair) for pair in itertools.combinations(people, 2))

    async def _tell_waiting(self, entries: Sequence[PoolEntry], now: float) -> None:
        """The offer to those who waited long enough; to the others, how many are looking,
        when that changed (at most every ``LOOKING_EVERY`` seconds) or a while has passed."""
        counts: defaultdict[str, int] = defaultdict(int)
        for entry in await self._store.pool_entries(self.pooled, "waiting"):
            counts[entry.mode] += 1
        notices: list[PoolNotice] = []
        for entry in entries:
            looking = counts[entry.mode]
            if not entry.offered and now - entry.joined_at >= self._config.pool_wait_seconds:
                offered = entry.model_copy(update={"offered": True})
                if await self._store.update_pool_entry(offered, "waiting"):
                    self._told[entry.player_id] = (looking, now)
                    notices.append(PoolOffer(self._view(offered, looking)))
                continue
            told, told_at = self._told.get(entry.player_id, (0, entry.joined_at))
            if now - told_at >= LOOKING_EVERY and (told != looking or now - told_at >= LOOKING_AT_MOST):
                self._told[entry.player_id] = (looking, now)
                notices.append(PoolLooking(self._view(entry, looking)))
        await self._tell(notices)

    async def _tell(self, notices: Sequence[PoolNotice]) -> None:
        await tell_pool(self._t.platforms, notices)

    def _view(self, entry: PoolEntry, looking: int, *, state: str | None = None,
              opponents: tuple[str, ...] = (), partners: tuple[str, ...] = ()) -> PoolView:
        return PoolView(
            player_id=entry.player_id,
            chat_id=entry.chat_id,
            lang=self._lang.of(entry.player_id, None),
            mode=entry.mode,
            state="left" if state == "left" else entry.state,
            looking=looking,
            waited=max(0.0, self._clock.now() - entry.joined_at),
            wait_seconds=self._config.pool_wait_seconds,
            offered=entry.offered,
            level=level_for(entry.rating),
            rating=entry.rating,
            provisional=entry.provisional,
            table_id=entry.table_id,
            opponents=opponents,
            partners=partners,
            message=dict(entry.message) if entry.message is not None else None,
            partnered=entry.mode == "2v2" and entry.partner is not None,
        )
