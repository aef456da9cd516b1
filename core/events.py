"""Events: what every accepted action produced. A match's events fold back into it.

Events are small named tuples with a ``kind``; ``to_dict``/``event_from_dict``
give the JSON form the table service stores. ``RoundStarted`` and ``Dealt``
carry cards nobody at the table may see (the deck, the hands): they are for
storage and replay, never for a chat; ``is_public`` tells them apart.
"""

from __future__ import annotations

from typing import Any, NamedTuple


class MatchStarted(NamedTuple):
    players: int
    dealer: int
    rules: dict[str, Any]
    kind: str = "match_started"


class RoundStarted(NamedTuple):
    """A round begins with this deck, top card first. Secret."""

    round_no: int
    dealer: int
    deck: tuple[str, ...]
    kind: str = "round_started"


class Dealt(NamedTuple):
    """Cards went out: to each hand, and (first deal only) to the floor. Secret.

    ``buried`` lists the jacks and 7D that were turned up for the floor and
    put under the stock instead; everyone saw them go.
    """

    round_no: int
    deal_no: int
    hands: tuple[tuple[str, ...], ...]
    floor: tuple[str, ...]
    buried: tuple[str, ...]
    kind: str = "dealt"


class CardPlayed(NamedTuple):
    """A seat played a card; ``plan`` is the plan number it chose, 0 to lay it."""

    round_no: int
    seat: int
    card: str
    plan: int
    kind: str = "card_played"


class CardsTaken(NamedTuple):
    """Floor cards went to a side's pile; ``last`` for the leftovers at a round's end."""

    round_no: int
    seat: int
    side: int
    cards: tuple[str, ...]
    last: bool
    kind: str = "cards_taken"


class Basra(NamedTuple):
    round_no: int
    seat: int
    side: int
    card: str
    kind: str = "basra"


class RoundScored(NamedTuple):
    """A round's result with the points broken down per side."""

    round_no: int
    cards: tuple[int, int]
    basras: tuple[int, int]
    points: tuple[int, int]
    breakdown: tuple[dict[str, int], dict[str, int]]
    carry_in: int
    carry_out: int
    scores: tuple[int, int]
    kind: str = "round_scored"


class MatchWon(NamedTuple):
    side: int
    scores: tuple[int, int]
    kind: str = "match_won"


Event = MatchStarted | RoundStarted | Dealt | CardPlayed | CardsTaken | Basra | RoundScored | MatchWon

EVENT_TYPES: dict[str, type[Any]] = {
    cls._field_defaults["kind"]: cls
    for cls in (MatchStarted, RoundStarted, Dealt, CardPlayed, CardsTaken, Basra, RoundScored, MatchWon)
}


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


def event_from_dict(data: dict[str, Any]) -> Event:
    """Read back what ``to_dict`` wrote; ValueError for anything else."""
    if not isinstance(data, dict) or data.get("kind") not in EVENT_TYPES:
        raise ValueError(f"not an event: {data!r}")
    cls = EVENT_TYPES[data["kind"]]
    try:
        event = cls(**{k: _tupled(v) for k, v in data.items()})
    except TypeError as exc:
        raise ValueError(f"bad {data['kind']} event: {exc}") from None
    return event  # type: ignore[no-any-return]


def _tupled(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_tupled(v) for v in value)
    return value
