"""The store protocols: all the table service and the adapters may ask of storage.

``TableStore`` holds the game: tables, their event logs, results, chats and players,
and the service's own clock. ``Coordination`` holds what the processes of the bots
agree on: who does a table's timed work (claims), locks, rate windows and marks,
who leads a bot, notifications of change, where each table's messages are, and the
pairing pool (who waits for an opponent, who was paired with whom, who blocked whom,
who abandoned which match, who invited a partner). ``Store`` is both, and opens and
closes. No SQL leaks past ``storage/``. Every method that writes either commits all of
its effects or none, and returns only after the commit is durable.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from types import TracebackType
from typing import Any, Protocol, Self

from .lead import Lead
from .models import (
    ChatSettings,
    DamagedTable,
    MatchResult,
    PlayerProfile,
    PoolEntry,
    PoolInvite,
    PoolState,
    RatingEntry,
    SetAsideTable,
    Standing,
    StoredEvent,
    TableRecord,
)


class TableStore(Protocol):
    """Lobbies, match event logs, results, chat settings, profiles and the service's clock."""

    # Tables (lobbies and matches) -------------------------------------------

    async def create_table(self, table: TableRecord) -> TableRecord:
        """Insert a new table; OpenTableExists if its chat already has an open one,
        VersionConflict if the id is taken. Returns the row as stored."""

    async def update_table(self, table: TableRecord) -> TableRecord:
        """Write every field of ``table`` except ``version`` (which only events move).

        Refused with VersionConflict unless ``table.revision`` is the stored one;
        NotFound if absent; OpenTableExists if reopening would give its chat two
        open tables. Returns the row as stored (revision + 1).
        """

    async def get_table(self, table_id: str) -> TableRecord | None:
        """The table, or None; DamagedRow if its row cannot be read."""

    async def open_table_for_chat(self, chat_id: str, owner: str | None = None) -> TableRecord | None:
        """The chat's lobby or running match (of the bot ``owner``, if given), if any;
        DamagedRow if its row cannot be read."""

    async def last_finished_table(self, chat_id: str, owner: str) -> TableRecord | None:
        """The chat's most recently started match of the bot ``owner`` that has finished
        (reached its target, or a side resigned or ran out of time), if any."""

    async def open_tables(self) -> list[TableRecord]:
        """Every lobby and running match, oldest first, to restore at start-up."""

    # Event log ---------------------------------------------------------------

    async def append_events(
        self,
        table_id: str,
        expected_version: int,
        events: Sequence[Mapping[str, Any]],
        *,
        table: TableRecord | None = None,
        result: MatchResult | None = None,
    ) -> TableRecord:
        """Append events as versions ``expected_version + 1 ...`` in one transaction.

        With ``table``, its fields are written in the same transaction (its
        ``revision`` must be current); with ``result``, the result is recorded
        in it too. VersionConflict if the log is no longer at
        ``expected_version``: nothing is written. Returns the row as stored,
        whose ``version`` is the new last version.
        """

    async def load_events(self, table_id: str, after_version: int = 0) -> list[StoredEvent]:
        """The table's events after ``after_version``, in version order."""

    # Chats and players -------------------------------------------------------

    async def get_chat_settings(self, chat_id: str) -> ChatSettings:
        """The chat's settings, or the defaults if it never chose any."""

    async def find_chat_settings(self, chat_id: str) -> ChatSettings | None:
        """The chat's settings, or None if it never chose any (the service's defaults apply)."""

    async def put_chat_settings(self, settings: ChatSettings) -> None: ...

    async def move_chat(self, old_chat_id: str, new_chat_id: str) -> None:
        """A chat got a new id: its settings (unless the new id has some), results and
        finished tables follow, each moved table row at a new revision. Moving it again
        changes nothing. Open tables are moved by whoever keeps them."""

    async def get_player(self, player_id: str) -> PlayerProfile | None: ...

    async def upsert_player(
        self, player_id: str, name: str, platform_language: str | None = None
    ) -> PlayerProfile:
        """Create the profile, or refresh the display name and (when given) the language the
        person's app reports; counters and the chosen language are untouched."""

    async def set_player_language(self, player_id: str, language: str | None) -> None:
        """NotFound if the player has no profile."""

    async def forget_player(self, player_id: str, placeholder: str) -> bool:
        """Erase a person, in one transaction (``storage.erasure``): their profile, rating
        history, private chat's settings and message references go, and so do their entry in
        the pairing pool, the pairs they were in, the blocks they made or were given, the
        marks of the matches they abandoned and the invitations they made or used; in every
        table their id becomes ``placeholder`` (a closed table in their private chat moves to
        it too) and their name goes, and an entry that names them as its partner names
        ``placeholder``; results keep their seat with no player. True if anything of theirs
        was stored. Their open tables are the caller's to end first."""

    async def prune_finished(self, before: float) -> int:
        """Delete every closed table (finished, cancelled, expired) last written before
        ``before`` (epoch seconds, the store's clock), with its events, result, rating moves
        and message references, in one transaction; profiles keep their totals. Returns how
        many tables went."""

    # Results, ratings, leaderboards ----------------------------------------

    async def record_result(self, result: MatchResult) -> bool:
        """Apply a finished match to profiles and ratings, once per table.

        Returns False (and changes nothing) if this table's result was already
        recorded, so a retried finish never counts twice. NotFound if the table
        does not exist; VersionConflict if a rating moved since it was read.
        """

    async def rating_history(self, player_id: str, limit: int = 20) -> list[RatingEntry]:
        """The player's rating moves, newest first."""

    async def leaderboard(
        self, chat_id: str | None = None, limit: int = 10, *, online: bool = False
    ) -> list[Standing]:
        """Players ranked by rating, then points, then wins, top ``limit``.

        With ``chat_id``: players of recorded matches in that chat, with totals
        from those matches only. With ``online`` (the online ladder): players of
        recorded matches between strangers, the ones the pairing pool seated (a
        chat id with ``storage.pool.POOL_CHAT_MARK`` right after its platform,
        ``"tg:pool-a1b2"``), with totals from those matches only. With neither:
        every player with a recorded match, with their profile's totals. The
        rating is the profile's in every scope. ValueError if both ``chat_id``
        and ``online`` are given.
        """

    async def player_stats(
        self, player_id: str, chat_id: str | None = None, *, online: bool = False
    ) -> Standing | None:
        """One player's line and rank in the same scope as ``leaderboard`` (``chat_id``,
        ``online`` or everywhere), None if they have no recorded match in it. ValueError if
        both ``chat_id`` and ``online`` are given."""

    # The service's own clock ---------------------------------------------------

    async def note_alive(self, name: str, at: float) -> None:
        """Record that the service ``name`` was running at ``at`` (epoch seconds)."""

    async def last_alive(self, name: str) -> float | None:
        """When the service ``name`` was last noted alive, or None if never."""

    async def open_rows(
        self,
        *,
        owners: Sequence[str] | None = None,
        updated_since: float | None = None,
        player: str | None = None,
    ) -> list[TableRecord | DamagedTable]:
        """Every open table, as ``open_tables``, and in its place a ``DamagedTable`` for each
        whose row cannot be read; with ``owners``, only those bots' tables; with
        ``updated_since``, only rows written at or after it (``updated_at >= updated_since``,
        the store's clock); with ``player``, only the tables where that player has a seat.
        One statement."""

    async def changed_tables(
        self,
        owners: Sequence[str],
        since: float,
        *,
        before: tuple[str, float] | None = None,
        limit: int | None = None,
    ) -> list[tuple[str, float]]:
        """``(table_id, updated_at)`` of every table of ``owners``, open or closed, written at
        or after ``since`` (the store's clock), the latest written first (then by id): what a
        service that stopped without delivering everything draws again. With ``before``
        (a ``(table_id, updated_at)`` it returned), only those after it in that order; at
        most ``limit``: so the list is read a page at a time as it is drawn. One statement,
        reading each bot's indexes of writes; rows are not read whole, so a damaged one is
        listed too."""

    async def due_tables(
        self,
        owners: Sequence[str],
        *,
        after: float | None = None,
        until: float | None = None,
        limit: int | None = None,
    ) -> list[tuple[str, float]]:
        """``(table_id, due_at)`` of the open tables of ``owners`` that have a ``due_at``,
        soonest first (then by id): with ``after``, only those due after it; with
        ``until``, only those due at or before it; at most ``limit``. What a service wakes
        the tables it has not loaded from (the first due, then those due by now). One
        statement, reading each bot's part of the index of due times in order."""

    async def set_aside(self, table_id: str, reason: str) -> bool:
        """Close a table that cannot go on (a lobby as cancelled, a match as expired),
        whatever its row holds, and note it with ``reason`` for ``set_aside_tables``; nothing
        else of it changes. True if this closed it (False: it was closed already, by this
        or another process, so its chat has been told)."""

    async def set_aside_tables(self) -> list[SetAsideTable]:
        """Every table set aside, the latest first."""

    async def stored_rows(self, table_id: str) -> dict[str, Any] | None:
        """The table's row and its event rows as stored, each column as text (JSON not
        parsed, so that a damaged one is shown as it is): ``{"table": {...}, "events":
        [{...}, ...]}``; None if there is no such table."""

    async def resume(self, name: str, at: float, until: float, owners: Sequence[str]) -> float:
        """The service ``name`` of the bots ``owners`` (``"tg:<bot id>"``) starts at ``at``.

        In one transaction: each owner adopts the tables of its platform written before
        tables had owners; the time since the service was last noted alive is added to the
        ``deadline`` and the ``due_at`` of every open table of ``owners``; ``until`` is noted
        as its time alive. Returns the time added (to about a microsecond: steps of
        ``storage.clocks.STEP``). No table row is written for it: the time is added to each
        owner's shift, which an open table's times are read with (``storage.clocks``)."""


class Coordination(Protocol):
    """What the processes of the bots on one database agree on."""

    @property
    def shared(self) -> bool:
        """Whether several processes may use this database at once (PostgreSQL), or one
        process alone does (SQLite). With one process, ``hold`` and ``take_window`` live
        in that process and a claim only ever meets the process's own claims."""

    # Claims: which process does a table's timed work --------------------------

    async def claim_due(
        self, owners: Sequence[str], now: float, holder: str, lease: float, limit: int = 100
    ) -> list[str]:
        """Claim, at once, up to ``limit`` open tables of ``owners`` whose ``due_at <= now``
        and that no other holder has a live claim on (``claim_until < now``, or none): each
        is marked as held by ``holder`` until ``now + lease``. Returns their ids, soonest
        due first. Two processes claiming at once never get the same table.

        A claim is let go by any write of the row (``update_table``, ``append_events``),
        or runs out with its lease."""

    async def claim(self, table_id: str, now: float, holder: str, lease: float) -> bool:
        """Claim one table for ``holder`` until ``now + lease``, whenever it is due: True if
        ``holder`` holds it now (also when it held it already: the lease is renewed), False
        if another holder's claim on it is live or the table is not open (or absent)."""

    def hold(self, key: str) -> AbstractAsyncContextManager[None]:
        """``async with store.hold(key):`` holds a lock on the string ``key`` (a table id, a
        message key) in every process on this database until the block exits; a process
        that dies lets its locks go. The store's own reads and writes inside the block
        do not wait for it. Holds of one key are not reentrant: holding a key again inside
        its own block waits forever."""

    def leadership(self, key: str) -> AbstractAsyncContextManager[Lead]:
        """``async with store.leadership(key) as lead:`` waits until this process leads
        ``key`` (a bot, ``"tg:<id>"``) among every process on this database, and leads it
        until the block exits. A process that dies lets it go at once. If the lead is lost
        while held (the database connection holding it was cut), ``lead.lost`` is set:
        another process may lead from then on. On a store of one process it leads at once."""

    async def take_window(self, key: str, calls: int, period: float, now: float) -> float:
        """A rate budget of ``calls`` per sliding ``period`` seconds, shared by every process
        on this database: if fewer than ``calls`` calls of ``key`` were let through in
        ``(now - period, now]``, let this one through (it counts from ``now``) and return
        0.0; otherwise count nothing and return the seconds until the oldest of them leaves
        the window. ValueError unless ``calls >= 1`` and ``period > 0``."""

    async def use_once(self, key: str, until: float, now: float) -> bool:
        """Note ``key`` (a login or link that is good once) as used until ``until`` (epoch
        seconds), for every process on this database and across restarts: True the first
        time, False while an earlier use of it has not expired (``until >= now``). Uses that
        have expired are forgotten on the way."""

    async def advance_mark(self, key: str, stamp: Sequence[int]) -> bool:
        """Move the mark of ``key`` (a message's) to ``stamp`` unless it holds a newer one,
        for every process on this database: True if the mark is now ``stamp`` (it was older,
        equal, or unset), False if it is newer (compared as sequences, as tuples are)."""

    def changes(
        self,
        on_change: Callable[[str | None], None],
        on_words: Callable[[str, str], None] | None = None,
    ) -> AbstractAsyncContextManager[None]:
        """``async with store.changes(on_change):`` calls ``on_change(table_id)`` whenever
        another process on this database (another store) commits a new version or status
        of a table (of a match between strangers, any change of its row), and
        ``on_change(None)`` when changes may have gone unheard (the database connection was
        lost and opened again). With ``on_words``, it also calls ``on_words(table_id,
        words)`` for what another process ``announce``d. What this store commits or
        announces itself it does not pass on: its process knows it already. So a store of
        one process (SQLite), which knows all its changes, calls nothing."""

    async def announce(self, table_id: str, words: str) -> None:
        """Tell the other processes on this database that listen (``changes`` with
        ``on_words``) ``words`` (a short text, 1,000 characters at most) about the table
        ``table_id``, as they listen now: nothing is kept, and a process that does not listen
        at that moment never hears it. A store of one process says nothing."""

    async def message_refs(self, table_id: str) -> dict[str, Any]:
        """Every message reference kept for the table (``keep_refs``): delivery's own rows,
        never the table's."""

    async def keep_refs(self, table_id: str, refs: Mapping[str, Any]) -> None:
        """Keep each reference of ``refs`` (JSON values) for the table, in one write; a
        ``None`` value forgets its key. It neither reads nor writes the table's row, so it
        never waits for an action of the table nor conflicts with one."""

    async def forget_idle(self, idle: float) -> int:
        """Forget the rate windows and marks not used for ``idle`` seconds (on the
        database's clock): a window whose last call is that old holds nothing any more, and
        a message not edited for that long is not edited again. Returns how many went.
        A store that keeps them in its process bounds them there and forgets nothing here."""

    # The pairing pool: who waits to play someone now ---------------------------

    async def enter_pool(self, entry: PoolEntry) -> tuple[PoolEntry, bool]:
        """Add ``entry`` unless its person (``player_id``) has an entry already: returns the
        entry as stored and whether it was added now. Two processes entering one person at
        once: one adds its entry, the other gets that entry and False."""

    async def pool_entry(self, player_id: str) -> PoolEntry | None:
        """The person's entry in the pool, or None."""

    async def pool_entries(
        self, platforms: Sequence[str], state: PoolState | None = None, *, joined_since: float | None = None
    ) -> list[PoolEntry]:
        """The entries of people of ``platforms`` (only those in ``state``, when given; with
        ``joined_since``, only those that joined at or after it), the earliest ``joined_at``
        first (then by player id)."""

    async def update_pool_entry(self, entry: PoolEntry, expect: PoolState) -> bool:
        """Write every field of ``entry`` but ``player_id`` to its person's entry if that is
        in the state ``expect``: True if it was written, False (nothing written) if the entry
        is in another state or gone."""

    async def leave_pool(self, player_id: str, state: PoolState | None = "waiting") -> PoolEntry | None:
        """Delete the person's entry if it is in ``state`` (in any, when None): returns the
        entry deleted, or None if nothing was."""

    async def seat_pool(self, player_ids: Sequence[str], table_id: str, at: float) -> bool:
        """Seat ``player_ids`` (a person named twice counts once) at ``table_id``, in one
        transaction, if every one of them has an entry and it is waiting: their entries are
        now seated there, and each two of them are noted as paired at ``at``
        (``pool_pairs_since``); pairs noted more than a day before ``at`` are forgotten on the
        way. False, with nothing changed, if any of them is not waiting (or has no entry).
        Two processes seating overlapping people at once: at most one seats any one person.
        ValueError if ``player_ids`` is empty."""

    async def pool_pairs_since(self, player_ids: Sequence[str], since: float) -> set[frozenset[str]]:
        """Every two of ``player_ids`` that were seated together at or after ``since`` (and no
        more than a day before the latest seating)."""

    async def block_player(self, player_id: str, other_id: str, at: float) -> None:
        """Note that ``player_id`` blocked ``other_id`` at ``at``, so the pool never pairs the
        two; blocking again changes nothing. ValueError if the two are one person."""

    async def blocked_pairs(self, player_ids: Sequence[str]) -> set[frozenset[str]]:
        """Every two of ``player_ids`` of whom one blocked the other."""

    async def note_abandon(self, player_id: str, table_id: str, at: float) -> None:
        """Note that ``player_id`` abandoned the match ``table_id`` (between strangers: they
        resigned or let their clock run out) at ``at``, so the pool can pair people who
        abandon often with each other; noting the same person and table again changes
        nothing. Marks noted more than 30 days before ``at`` are forgotten on the way, in
        the same transaction."""

    async def abandons(self, player_ids: Sequence[str], since: float) -> dict[str, int]:
        """How many matches each of ``player_ids`` abandoned at or after ``since`` (and no
        more than 30 days before the latest noting), by player id; people with none are left
        out."""

    # Invitations to the pool: a friend who presses one joins its maker as their partner ----

    async def make_invite(self, invite: PoolInvite) -> bool:
        """Keep ``invite``: True, or False with nothing kept if its token is taken.
        Invitations that expired more than a day before it was made are forgotten on the
        way, in the same transaction."""

    async def pool_invite(self, token: str) -> PoolInvite | None:
        """The invitation ``token`` names, used or not, expired or not; None if there is none."""

    async def use_invite(self, token: str, by: str, at: float) -> PoolInvite | None:
        """Mark the invitation ``token`` used by ``by`` at ``at``, if it is unused and still
        good then (``until`` after ``at``): the invitation as it is now. None, with nothing
        changed, if it is used, expired or not there. Two uses at once, in any processes:
        one of them uses it."""


class Store(TableStore, Coordination, Protocol):
    """A whole store: the game's rows and the processes' coordination, opened once."""

    async def open(self) -> None:
        """Connect and bring the schema up to date; safe to call on an existing file."""

    async def close(self) -> None:
        """Finish pending writes and disconnect."""

    async def __aenter__(self) -> Self: ...

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...

