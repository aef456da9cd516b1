"""The rows the store reads and writes, as frozen pydantic models.

Nested data the store never queries (rules, seats, the engine's record header,
message ids) travels as JSON; what is queried (chat, status, deadline, counters)
gets real columns. Models are frozen: change one with ``model_copy(update=...)``
and hand it back to the store, which checks it was not based on a stale read.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from typing import Any, Final, Literal

from openskill.models import PlackettLuce
from pydantic import BaseModel, ConfigDict, Field, model_validator

JsonDict = dict[str, Any]
TableStatus = Literal["lobby", "running", "finished", "cancelled", "expired"]
TableMode = Literal["1v1", "2v2", "practice"]
Outcome = Literal["win", "draw", "loss"]
PoolState = Literal["waiting", "seated"]

OPEN_STATUSES: Final[tuple[TableStatus, ...]] = ("lobby", "running")

_DEFAULT_RATING: Final = PlackettLuce().rating()
DEFAULT_MU: Final[float] = _DEFAULT_RATING.mu
DEFAULT_SIGMA: Final[float] = _DEFAULT_RATING.sigma
DEFAULT_RATING: Final[float] = _DEFAULT_RATING.ordinal()


class _Row(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ChatSettings(_Row):
    """What a chat chose before its matches: language, variant rules, clock."""

    chat_id: str = Field(min_length=1)
    language: str | None = None
    rules: JsonDict = Field(default_factory=dict)
    turn_seconds: int = Field(default=120, ge=1)
    ai_delay_ms: int = Field(default=800, ge=0)


class PlayerProfile(_Row):
    """A person's totals across every chat; only finished matches move them.

    ``mu``/``sigma`` are the openskill PlackettLuce belief; ``rating`` is the
    single number the service derives from them and the leaderboard ranks by.
    """

    player_id: str = Field(min_length=1)
    name: str
    #: The language the person chose (``/settings``), if any.
    language: str | None = None
    #: The language their chat app reports, as last seen.
    platform_language: str | None = None
    matches: int = Field(default=0, ge=0)
    wins: int = Field(default=0, ge=0)
    draws: int = Field(default=0, ge=0)
    losses: int = Field(default=0, ge=0)
    points: int = Field(default=0, ge=0)
    basras: int = Field(default=0, ge=0)
    best_round: int = Field(default=0, ge=0)
    rated_matches: int = Field(default=0, ge=0)
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    rating: float = DEFAULT_RATING
    created_at: float = Field(default_factory=time.time)
    updated_at: float = Field(default_factory=time.time)


class Seat(_Row):
    """One seat at a table: a person or a computer player, and its side."""

    player_id: str | None = None
    computer: str | None = None
    name: str | None = None
    team: int = Field(default=0, ge=0)

    @model_validator(mode="after")
    def _person_or_computer(self) -> Seat:
        if (self.player_id is None) == (self.computer is None):
            raise ValueError("a seat holds exactly one of player_id or computer")
        return self


class TableRecord(_Row):
    """One lobby-or-match: the lobby row becomes the match row when it starts.

    ``version`` is the last event's version (0 before any); ``revision`` counts
    every write to the row, so a write based on a stale copy is refused.
    Both are maintained by the store: callers pass back what they read.
    ``owner`` is the bot that opened it (``"tg:<bot id>"``): no other bot acts on it,
    and each bot's chat has at most one open table.
    """

    table_id: str = Field(default_factory=lambda: str(uuid.uuid4()), min_length=1)
    chat_id: str = Field(min_length=1)
    platform: str = Field(min_length=1)
    owner: str = ""
    status: TableStatus = "lobby"
    mode: TableMode
    created_by: str
    created_at: float = Field(default_factory=time.time)
    updated_at: float = Field(default_factory=time.time)
    rules: JsonDict = Field(default_factory=dict)
    seats: tuple[Seat, ...] = ()
    header: JsonDict | None = None
    version: int = Field(default=0, ge=0)
    revision: int = Field(default=0, ge=0)
    deadline: float | None = None
    #: The next moment the table has timed work (lobby expiry, a computer's turn, a clock
    #: warning, a deadline), as the service wrote it; ``Store.due_tables`` and ``claim_due``
    #: find tables by it, and ``resume`` moves it by the downtime as it moves ``deadline``
    #: (both are stored relative to the bot's shift while the table is open: ``clocks``).
    due_at: float | None = None
    warned: bool = False
    result: JsonDict | None = None
    rated: bool = False

    @model_validator(mode="before")
    @classmethod
    def _platform_from_chat(cls, data: Any) -> Any:
        """Chat ids carry their platform ("tg:-100123"), so it need not be said twice."""
        if isinstance(data, dict) and "platform" not in data:
            chat_id = data.get("chat_id")
            if isinstance(chat_id, str) and ":" in chat_id:
                data = {**data, "platform": chat_id.partition(":")[0]}
        return data

    @property
    def is_open(self) -> bool:
        return self.status in OPEN_STATUSES


class StoredEvent(_Row):
    """One event of a match's log, as the store keeps it."""

    version: int = Field(ge=1)
    kind: str
    data: JsonDict
    at: float


class SeatOutcome(_Row):
    """How one seat finished a match; computer seats have no ``player_id``."""

    seat: int = Field(ge=0)
    team: int = Field(default=0, ge=0)
    player_id: str | None = None
    name: str | None = None
    outcome: Outcome
    score: int = 0
    profile_points: int = Field(default=0, ge=0)
    basras: int = Field(default=0, ge=0)
    best_round: int = Field(default=0, ge=0)


class RatingChange(_Row):
    """A rating move computed by the service from the ``before`` it read.

    The store refuses it (VersionConflict) if the player's rating has moved
    since, so two matches finishing at once cannot lose an update.
    """

    player_id: str
    before_mu: float
    before_sigma: float
    before_rating: float
    after_mu: float
    after_sigma: float
    after_rating: float


class RatingEntry(RatingChange):
    """A rating move as kept in the history, with the match that caused it."""

    table_id: str
    at: float


class MatchResult(_Row):
    """Everything a finished match does to profiles, recorded at most once."""

    table_id: str
    outcomes: tuple[SeatOutcome, ...] = Field(min_length=1)
    ratings: tuple[RatingChange, ...] = ()
    finished_at: float | None = None

    @model_validator(mode="after")
    def _consistent(self) -> MatchResult:
        seats = [o.seat for o in self.outcomes]
        if len(set(seats)) != len(seats):
            raise ValueError(f"seat listed twice in result of table {self.table_id!r}")
        players = [o.player_id for o in self.outcomes if o.player_id is not None]
        if len(set(players)) != len(players):
            raise ValueError(f"player listed twice in result of table {self.table_id!r}")
        for change in self.ratings:
            if change.player_id not in players:
                raise ValueError(f"rating for {change.player_id!r}, who did not play")
        if len({c.player_id for c in self.ratings}) != len(self.ratings):
            raise ValueError(f"two ratings for one player in table {self.table_id!r}")
        return self


class Standing(_Row):
    """A leaderboard line: totals in one scope (a chat, the matches between strangers, or
    everywhere) and rank."""

    rank: int = Field(ge=1)
    player_id: str
    name: str
    rating: float
    matches: int
    wins: int
    draws: int
    losses: int
    points: int
    basras: int
    best_round: int


class PoolEntry(_Row):
    """One person in the pairing pool: waiting for an opponent, or seated at the table a wave
    paired them at (until the service has told them and lets the entry go)."""

    player_id: str = Field(min_length=1)
    #: Their platform ("tg", "dc", "web" ...): a wave pairs the people of one platform.
    platform: str = Field(min_length=1)
    #: The private chat they are told in.
    chat_id: str = Field(min_length=1)
    name: str
    lang: str | None = None
    rating: float = DEFAULT_RATING
    provisional: bool = False
    #: "1v1" or "2v2".
    mode: str = "1v1"
    #: The person they came with (2v2), if any.
    partner: str | None = None
    joined_at: float
    state: PoolState = "waiting"
    #: The table they were seated at, once seated.
    table_id: str | None = None
    #: Whether the computer was offered to them after their wait.
    offered: bool = False
    #: The adapter's reference to the message that says they are waiting.
    message: JsonDict | None = None


class PoolInvite(_Row):
    """An invitation to the pairing pool: a friend who presses it joins ``inviter`` as their
    partner, and the pool finds the other pair. Its ``token`` is random, never an id; it is
    good once (``used_by``), until ``until``."""

    token: str = Field(min_length=8, max_length=40, pattern=r"^[A-Za-z0-9_-]+$")
    #: Who made it, and the private chat, name and language they are told in.
    inviter: str = Field(min_length=1)
    chat_id: str = Field(min_length=1)
    name: str
    lang: str | None = None
    #: The kind of match it brings a partner to ("2v2").
    mode: str = "2v2"
    #: Whether it was made from a search under way, which the friend joins (else the
    #: inviter enters the pool when it is used).
    searching: bool = False
    made_at: float
    until: float
    #: Who used it, and when; None while it is unused.
    used_by: str | None = None
    used_at: float | None = None


@dataclass(frozen=True, slots=True)
class DamagedTable:
    """An open table whose row cannot be read: what is known of it, and why."""

    table_id: str
    chat_id: str
    platform: str
    owner: str
    status: str
    reason: str


@dataclass(frozen=True, slots=True)
class SetAsideTable:
    """A table closed because its rows could not be read: which, where, why and when (the
    store's clock), for an operator to look at (``basra damaged``)."""

    table_id: str
    chat_id: str
    status: str
    reason: str
    at: float
