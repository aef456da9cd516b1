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

from .errors import BadArgument, RecordError, shown


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


def to_dict(event: object) -> dict[str, Any]:
    """The JSON-ready form: ``{"kind": ..., field: value, ...}`` with lists for tuples."""
    if not isinstance(event, EventBase):
        raise BadArgument(f"not an event: {shown(event)}")
    data: dict[str, Any] = _plain(event._asdict())
    return data


def _plain(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_plain(v) for v in value]
    return value


# What each field of each kind of event holds, as ``to_dict`` writes it, in
# the order of its fields: a whole number, a flag, a card's text, a list of
# card texts, the hands (each a list of card texts), a pair of whole numbers,
# the two sides' points by item, or a match's rules (names to plain values).
SHAPES: Final[dict[str, tuple[str, ...]]] = {
    "match_started": ("int", "int", "rules"),
    "round_started": ("int", "int", "cards"),
    "dealt": ("int", "int", "hands", "cards", "cards"),
    "card_played": ("int", "int", "str", "int"),
    "cards_taken": ("int", "int", "int", "cards", "bool"),
    "basra": ("int", "int", "int", "str"),
    "round_scored": ("int", "pair", "pair", "pair", "breakdown", "int", "int", "pair"),
    "match_won": ("int", "pair"),
}


def event_from_dict(data: object) -> Event:
    """Read back what ``to_dict`` wrote (lists or tuples); RecordError for anything
    else: another kind, a missing or unknown field, a field of the wrong shape.

    Event objects given to ``Match.from_events`` are checked the same way,
    through their ``_asdict``.
    """
    if not isinstance(data, dict):
        raise RecordError(f"not an event: {shown(data)}")
    kind = data.get("kind")
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        raise RecordError(f"not an event kind: {shown(kind)}")
    cls = EVENT_TYPES[kind]
    names: tuple[str, ...] = cls.fields
    for key in data:
        if key != "kind" and key not in names:
            raise RecordError(f"bad {kind} event: unknown field {shown(key)}")
    values = []
    for name, shape in zip(names, SHAPES[kind], strict=True):
        if name not in data:
            raise RecordError(f"bad {kind} event: no {name!r}")
        value = _read(shape, data[name])
        if value is _BAD:
            raise RecordError(f"bad {kind} event: {name!r} cannot be {shown(data[name])}")
        values.append(value)
    event: Event = cls(*values)
    return event


_BAD: Final = object()  # what _read gives for a value of the wrong shape


def _read(shape: str, value: object) -> object:
    """``value`` in the shape a field holds (tuples for lists), or _BAD."""
    if shape == "int":
        return value if type(value) is int else _BAD
    if shape == "bool":
        return value if type(value) is bool else _BAD
    if shape == "str":
        return value if type(value) is str else _BAD
    if shape == "rules":
        if not isinstance(value, dict):
            return _BAD
        for k, v in value.items():
            if type(k) is not str or type(v) not in (int, bool, str):
                return _BAD
        return dict(value)
    if not isinstance(value, (list, tuple)):
        return _BAD
    if shape == "cards":
        return _strings(value)
    if shape == "hands":
        hands = [_strings(hand) if isinstance(hand, (list, tuple)) else _BAD for hand in value]
        return _BAD if any(hand is _BAD for hand in hands) else tuple(hands)
    if len(value) != 2:
        return _BAD
    first, second = value
    if shape == "pair":
        return (first, second) if type(first) is int and type(second) is int else _BAD
    # "breakdown": each side's points by item.
    for side in (first, second):
        if not isinstance(side, dict):
            return _BAD
        for k, v in side.items():
            if type(k) is not str or type(v) is not int:
                return _BAD
    return (dict(first), dict(second))


def _strings(items: list[Any] | tuple[Any, ...]) -> object:
    for item in items:
        if type(item) is not str:
            return _BAD
    return tuple(items)
