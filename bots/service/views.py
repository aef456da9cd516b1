"""What the service hands adapters: views, never the state.

Views are frozen snapshots made for one audience. A ``TableView`` is public:
everything in it every player at the table saw, and no hand card. A
``HandView`` is for one seat: that seat's hand, the public table, and the
preview of a selected card. Cards are their ASCII codes (``"10D"``); the
renderer turns them into labels (``10♦``).

``version`` is the match's event-log version: it grows with every accepted
action. Buttons carry ``(table_id, version)``; a press whose version is not
current is refused (``StaleView``) with a fresh view.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from core import Rules

TableMode = Literal["1v1", "2v2", "practice"]
TableStatus = Literal["lobby", "running", "finished", "cancelled", "expired"]
Outcome = Literal["win", "draw", "loss"]
#: How a match ended: reached the target, a side resigned, a person's clock ran
#: out (1-v-1 between people), or a practice match sat idle too long.
EndReason = Literal["target", "resigned", "timeout", "expired"]
#: Why a lobby closed.
LobbyEnd = Literal["started", "cancelled", "expired"]

TEAM_A, TEAM_B = 0, 1


# -- lobby ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LobbySeat:
    """Someone waiting at a lobby: a person (``player_id``) or a computer (``computer`` level)."""

    name: str | None
    player_id: str | None
    computer: str | None
    team: int


def counted_seating(mode: str, people_only: bool) -> bool:
    """Whether a match seated so reaches profiles: not practice, and no computer at it."""
    return mode != "practice" and people_only


def rated_seating(mode: str, people_only: bool, seats: int) -> bool:
    """Whether a match seated so moves ratings: a counted 1-v-1 (decided at its start)."""
    return counted_seating(mode, people_only) and seats == 2


@dataclass(frozen=True, slots=True)
class LobbyView:
    """An open (or just closed) lobby, public.

    ``capacity`` is 2 or 4. In a 2-v-2 lobby ``team`` says who sits together
    (0 = team A, seats 0 and 2; 1 = team B, seats 1 and 3). ``expires_at`` is
    when an idle lobby closes (epoch seconds).
    """

    table_id: str
    chat_id: str
    mode: TableMode
    status: TableStatus
    capacity: int
    creator_id: str
    seats: tuple[LobbySeat, ...]
    rules: Rules
    turn_seconds: int
    expires_at: float | None
    revision: int

    @property
    def full(self) -> bool:
        return len(self.seats) >= self.capacity

    @property
    def has_computer(self) -> bool:
        return any(s.computer is not None for s in self.seats)

    @property
    def joinable(self) -> bool:
        """Whether someone else may still sit down: a seat is free, and at a practice table
        (computers against its creator) a 2-v-2 keeps at least one seat for a computer."""
        if self.status != "lobby" or self.full:
            return False
        if self.mode == "practice":
            people = sum(1 for s in self.seats if s.computer is None)
            return self.capacity == 4 and people < self.capacity - 1
        return True

    @property
    def counted(self) -> bool:
        """Whether the match, started as seated now, reaches profiles."""
        return counted_seating(self.mode, not self.has_computer)

    @property
    def rated(self) -> bool:
        """Whether the match, started as seated now, moves ratings."""
        return rated_seating(self.mode, not self.has_computer, self.capacity)

    def team(self, team: int) -> tuple[LobbySeat, ...]:
        return tuple(s for s in self.seats if s.team == team)

    @property
    def can_start(self) -> bool:
        """Full, with two per team in 2-v-2 (a practice lobby may always start: computers fill it)."""
        if self.status != "lobby":
            return False
        if self.mode == "practice":
            return True
        if not self.full:
            return False
        return self.capacity == 2 or len(self.team(TEAM_A)) == len(self.team(TEAM_B))

    def seat_of(self, player_id: str) -> LobbySeat | None:
        return next((s for s in self.seats if s.player_id == player_id), None)


# -- table ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatInfo:
    """One seat as everyone sees it. Computers have no ``player_id`` and a ``computer`` level."""

    seat: int
    name: str | None
    player_id: str | None
    computer: str | None
    team: int
    cards: int

    @property
    def is_computer(self) -> bool:
        return self.computer is not None


@dataclass(frozen=True, slots=True)
class PlayDescription:
    """One play as the table saw it: who, what, what it took, basra.

    ``auto`` when the turn clock played it for an absent player; ``taken``
    is empty when the card stayed on the floor.
    """

    seat: int
    card: str
    taken: tuple[str, ...]
    basra: bool
    auto: bool = False


@dataclass(frozen=True, slots=True)
class RoundClose:
    """How a round's play ended: the cards left on the floor (in floor order) and
    the team they went to, the last to capture (RULES.md §4). ``team`` is None
    when the last play left the floor empty."""

    round_no: int
    leftovers: tuple[str, ...]
    team: int | None


@dataclass(frozen=True, slots=True)
class TableView:
    """The public table: safe for the group chat or channel.

    ``floor`` is in floor order (the same for everyone, in every language).
    ``deadline`` is when the turn clock runs out (epoch seconds), ``None``
    when nobody's clock runs (a computer's turn, a practice match, the end).
    ``seconds_left`` is the same taken when the view was made.
    ``round_close`` is set on the last picture of a finished round: its last
    play, an empty floor, what each side took, and where the leftovers went.
    """

    table_id: str
    chat_id: str
    version: int
    mode: TableMode
    status: TableStatus
    players: int
    rules: Rules
    seats: tuple[SeatInfo, ...]
    floor: tuple[str, ...]
    to_move: int | None
    deadline: float | None
    seconds_left: int | None
    turn_seconds: int | None
    stock: int
    deals_left: int
    round_no: int
    dealer: int
    scores: tuple[int, int]
    carry: int
    captured: tuple[int, int]
    round_basras: tuple[int, int]
    last_play: PlayDescription | None
    practice: bool
    rated: bool
    winner: int | None
    end_reason: EndReason | None = None
    round_close: RoundClose | None = None

    @property
    def running(self) -> bool:
        return self.status == "running"

    def seats_of_team(self, team: int) -> tuple[SeatInfo, ...]:
        return tuple(s for s in self.seats if s.team == team)

    def seat_of(self, player_id: str) -> SeatInfo | None:
        return next((s for s in self.seats if s.player_id == player_id), None)


@dataclass(frozen=True, slots=True)
class PlanOption:
    """One capture plan of a selected card, numbered as the rules number them.

    ``positions`` are the floor positions taken (to mark them on the floor).
    Number 0 is laying the card without taking (optional-capture variant).
    """

    number: int
    taken: tuple[str, ...]
    positions: tuple[int, ...]
    basra: bool


@dataclass(frozen=True, slots=True)
class Preview:
    """What a selected card would do now; computing it changes nothing.

    No plans: it takes nothing and stays on the floor. ``can_lay``: it may be
    laid without taking (optional capture). ``selected`` is the plan the
    confirm button would play (1 unless another was chosen; 0 to lay).
    """

    card: str
    plans: tuple[PlanOption, ...]
    selected: int
    can_lay: bool

    @property
    def takes_nothing(self) -> bool:
        return not self.plans or self.selected == 0

    @property
    def choice(self) -> PlanOption | None:
        return next((p for p in self.plans if p.number == self.selected), None)


@dataclass(frozen=True, slots=True)
class HandView:
    """One seat's private view: its hand, the public table and maybe a preview.

    Send it only to ``player_id``. ``table.version`` is what its buttons carry.
    """

    table: TableView
    seat: int
    player_id: str
    hand: tuple[str, ...]
    preview: Preview | None = None

    @property
    def table_id(self) -> str:
        return self.table.table_id

    @property
    def version(self) -> int:
        return self.table.version

    @property
    def your_turn(self) -> bool:
        return self.table.running and self.table.to_move == self.seat


@dataclass(frozen=True, slots=True)
class HintView:
    """What the computer would play from ``hand``, and why. Private, like the hand.

    ``hand`` previews the suggested ``card`` with the suggested ``plan`` selected,
    so its confirm button plays the hint. ``reason`` is a reason key of
    ``core.ai`` (``core.ai.REASONS``) and ``args`` fill its template: cards as
    tuples of codes, numbers as ints.
    """

    hand: HandView
    card: str
    plan: int
    reason: str
    args: Mapping[str, int | tuple[str, ...]]

    @property
    def table_id(self) -> str:
        return self.hand.table_id

    @property
    def version(self) -> int:
        return self.hand.version


# -- results -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SidePoints:
    """One side's round: cards and basras taken, points item by item, total after."""

    team: int
    seats: tuple[int, ...]
    cards: int
    basras: int
    majority: int
    aces: int
    jacks: int
    two_clubs: int
    ten_diamonds: int
    basra_points: int
    points: int
    total: int


@dataclass(frozen=True, slots=True)
class RoundResultView:
    """A finished round with its points breakdown, public."""

    table_id: str
    chat_id: str
    round_no: int
    seats: tuple[SeatInfo, ...]
    sides: tuple[SidePoints, SidePoints]
    carry_in: int
    carry_out: int
    scores: tuple[int, int]
    target: int
    match_over: bool


@dataclass(frozen=True, slots=True)
class SeatResult:
    """How one seat finished: outcome, profile points, rating move (rated matches only)."""

    seat: int
    team: int
    name: str | None
    player_id: str | None
    computer: str | None
    outcome: Outcome
    profile_points: int
    rating_before: float | None = None
    rating_after: float | None = None


@dataclass(frozen=True, slots=True)
class MatchResultView:
    """A finished match, public. ``winner`` is the winning team (None: nobody won).

    ``resigned_seat`` names who resigned or ran out of time. ``counted``:
    the result reached profiles (never for practice or an expired match).
    ``version`` is the match's last, which its buttons (the record) carry.
    """

    table_id: str
    chat_id: str
    mode: TableMode
    reason: EndReason
    winner: int | None
    resigned_seat: int | None
    scores: tuple[int, int]
    target: int
    rounds: tuple[RoundResultView, ...]
    seats: tuple[SeatResult, ...]
    practice: bool
    rated: bool
    counted: bool
    version: int = 0


# -- chat settings, stats ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SettingsView:
    """A chat's settings. ``variants`` lists every RULES.md §8 variant by name with on/off."""

    chat_id: str
    language: str | None
    effective_language: str
    rules: Rules
    variants: tuple[tuple[str, bool], ...]
    turn_seconds: int


@dataclass(frozen=True, slots=True)
class StatsLine:
    """One player's totals in a scope (a chat, or everywhere) and rank."""

    rank: int
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


@dataclass(frozen=True, slots=True)
class StatsView:
    """``line`` is None when the player has no finished match in the scope."""

    player_id: str
    name: str
    chat_id: str | None
    line: StatsLine | None
    rated_matches: int = 0
    rating_history: tuple[float, ...] = field(default=())


@dataclass(frozen=True, slots=True)
class LeaderboardView:
    """Ranked by rating, then profile points, then wins. ``chat_id`` None is global;
    ``online``: the online ladder (matches between strangers only)."""

    chat_id: str | None
    lines: tuple[StatsLine, ...]
    online: bool = False
