"""Events: what every accepted action produced. A match's events fold back into it.

Each event is a small immutable value with a ``kind``, compared by kind and
fields; ``to_dict``/``event_from_dict`` give the JSON form the table service
stores. ``RoundStarted`` and ``Dealt`` carry cards nobody at the table may
see (the deck, the hands): they are for storage and replay, never for a
chat; ``is_public`` tells them apart.

They are plain classes rather than named tuples because every play makes one
or two: compiled (see ``core/compiled.py``) an event is built by one C call,
where a named tuple costs a Python-level constructor call several times over.
Their fields are ``Final``: compiled they are read-only; run from source,
mypy is what keeps anyone from setting one (a check on every field set would
cost the sources a third of their speed).
"""

from __future__ import annotations

from typing import Any, ClassVar, Final


class EventBase:
    """What every event has: its kind, its fields in order, and value semantics."""

    __slots__ = ()

    kind: ClassVar[str] = ""
    fields: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[Any, ...]:
        return tuple([getattr(self, name) for name in self.fields])

    def _by_name(self) -> dict[str, Any]:
        return dict(zip(self.fields, self._values(), strict=True))

    def _asdict(self) -> dict[str, Any]:
        """The fields by name, then ``kind``."""
        data = self._by_name()
        data["kind"] = self.kind
        return data

    def _replace(self, **changes: Any) -> Any:
        """A copy with some fields changed."""
        return type(self)(**{**self._by_name(), **changes})

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        assert isinstance(other, EventBase)
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash((self.kind, self._values()))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in self._by_name().items())
        return f"{type(self).__name__}({shown})"


class MatchStarted(EventBase):
    __slots__ = ("dealer", "players", "rules")
    kind: ClassVar[str] = "match_started"
    fields: ClassVar[tuple[str, ...]] = ("players", "dealer", "rules")
    players: Final[int]
    dealer: Final[int]
    rules: Final[dict[str, Any]]

    def __init__(self, players: int, dealer: int, rules: dict[str, Any]) -> None:
        self.players = players
        self.dealer = dealer
        self.rules = rules


class RoundStarted(EventBase):
    """A round begins with this deck, top card first. Secret."""

    __slots__ = ("dealer", "deck", "round_no")
    kind: ClassVar[str] = "round_started"
    fields: ClassVar[tuple[str, ...]] = ("round_no", "dealer", "deck")
    round_no: Final[int]
    dealer: Final[int]
    deck: Final[tuple[str, ...]]

    def __init__(self, round_no: int, dealer: int, deck: tuple[str, ...]) -> None:
        self.round_no = round_no
        self.dealer = dealer
        self.deck = deck


class Dealt(EventBase):
    """Cards went out: to each hand, and (first deal only) to the floor. Secret.

    ``buried`` lists the jacks and 7D that were turned up for the floor and
    put under the stock instead; everyone saw them go.
    """

    __slots__ = ("buried", "deal_no", "floor", "hands", "round_no")
    kind: ClassVar[str] = "dealt"
    fields: ClassVar[tuple[str, ...]] = ("round_no", "deal_no", "hands", "floor", "buried")
    round_no: Final[int]
    deal_no: Final[int]
    hands: Final[tuple[tuple[str, ...], ...]]
    floor: Final[tuple[str, ...]]
    buried: Final[tuple[str, ...]]

    def __init__(
        self,
        round_no: int,
        deal_no: int,
        hands: tuple[tuple[str, ...], ...],
        floor: tuple[str, ...],
        buried: tuple[str, ...],
    ) -> None:
        self.round_no = round_no
        self.deal_no = deal_no
        self.hands = hands
        self.floor = floor
        self.buried = buried


class CardPlayed(EventBase):
    """A seat played a card; ``plan`` is the plan number it chose, 0 to lay it."""

    __slots__ = ("card", "plan", "round_no", "seat")
    kind: ClassVar[str] = "card_played"
    fields: ClassVar[tuple[str, ...]] = ("round_no", "seat", "card", "plan")
    round_no: Final[int]
    seat: Final[int]
    card: Final[str]
    plan: Final[int]

    def __init__(self, round_no: int, seat: int, card: str, plan: int) -> None:
        self.round_no = round_no
        self.seat = seat
        self.card = card
        self.plan = plan


class CardsTaken(EventBase):
    """Floor cards went to a side's pile; ``last`` for the leftovers at a round's end."""

    __slots__ = ("cards", "last", "round_no", "seat", "side")
    kind: ClassVar[str] = "cards_taken"
    fields: ClassVar[tuple[str, ...]] = ("round_no", "seat", "side", "cards", "last")
    round_no: Final[int]
    seat: Final[int]
    side: Final[int]
    cards: Final[tuple[str, ...]]
    last: Final[bool]

    def __init__(self, round_no: int, seat: int, side: int, cards: tuple[str, ...], last: bool) -> None:
        self.round_no = round_no
        self.seat = seat
        self.side = side
        self.cards = cards
        self.last = last


class Basra(EventBase):
    __slots__ = ("card", "round_no", "seat", "side")
    kind: ClassVar[str] = "basra"
    fields: ClassVar[tuple[str, ...]] = ("round_no", "seat", "side", "card")
    round_no: Final[int]
    seat: Final[int]
    side: Final[int]
    card: Final[str]

    def __init__(self, round_no: int, seat: int, side: int, card: str) -> None:
        self.round_no = round_no
        self.seat = seat
        self.side = side
        self.card = card


class RoundScored(EventBase):
    """A round's result with the points broken down per side."""

    __slots__ = ("basras", "breakdown", "cards", "carry_in", "carry_out", "points", "round_no", "scores")
    kind: ClassVar[str] = "round_scored"
    fields: ClassVar[tuple[str, ...]] = (
        "round_no", "cards", "basras", "points", "breakdown", "carry_in", "carry_out", "scores"
    )
    round_no: Final[int]
    cards: Final[tuple[int, int]]
    basras: Final[tuple[int, int]]
    points: Final[tuple[int, int]]
    breakdown: Final[tuple[dict[str, int], dict[str, int]]]
    carry_in: Final[int]
    carry_out: Final[int]
    scores: Final[tuple[int, int]]

    def __init__(
        self,
        round_no: int,
        cards: tuple[int, int],
        basras: tuple[int, int],
        points: tuple[int, int],
        breakdown: tuple[dict[str, int], dict[str, int]],
        carry_in: int,
        carry_out: int,
        scores: tuple[int, int],
    ) -> None:
        self.round_no = round_no
        self.cards = cards
        self.basras = basras
        self.points = points
        self.breakdown = breakdown
        self.carry_in = carry_in
        self.carry_out = carry_out
        self.scores = scores


class MatchWon(EventBase):
    __slots__ = ("scores", "side")
    kind: ClassVar[str] = "match_won"
    fields: ClassVar[tuple[str, ...]] = ("side", "scores")
    side: Final[int]
    scores: Final[tuple[int, int]]

    def __init__(self, side: int, scores: tuple[int, int]) -> None:
        self.side = side
        self.scores = scores


Event = MatchStarted | RoundStarted | Dealt | CardPlayed | CardsTaken | Basra | RoundScored | MatchWon

_TYPES: Final = (MatchStarted, RoundStarted, Dealt, CardPlayed, CardsTaken, Basra, RoundScored, MatchWon)
EVENT_TYPES: dict[str, type[Any]] = {cls.kind: cls for cls in _TYPES}


SECRET_KINDS = frozenset({"round_started", "dealt"})


def is_public(event: Event) -> bool:
    """Whether everyone at the table may see this event as it is."""
    return event.kind not in SECRET_KINDS


def to_dict(event: Event) -> dict[str, Any]:
    """The JSON-ready form: ``{"kind": ..., field: value, ...}`` with lists for tuples."""
    data: dict[str, Any] = _plain(event._asdict())
    return data


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


def event_from_dict(data: object) -> Event:
    """Read back what ``to_dict`` wrote; ValueError for anything else."""
    if not isinstance(data, dict) or data.get("kind") not in EVENT_TYPES:
        raise ValueError(f"not an event: {data!r}")
    cls = EVENT_TYPES[data["kind"]]
    try:
        event = cls(**{k: _tupled(v) for k, v in data.items() if k != "kind"})
    except TypeError as exc:
        raise ValueError(f"bad {data['kind']} event: {exc}") from None
    return event  # type: ignore[no-any-return]


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value
