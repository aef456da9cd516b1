"""A table the service is running: its stored row, its engine match, its lock and timer.

The in-memory state always equals what the store holds (or is rebuilt from
it after a failed write). ``lock`` orders decisions, commits and the hand-over
of their notices to the adapter, which queues them (``Platform.deliver``), so
each table's notices are queued in the order its actions were committed and
nothing waits for a message to be sent.

``writing`` is held only while the state in memory runs ahead of the store
(the engine has taken an action whose commit is under way) and around every
write of the table's row. It is never held across a delivery, so readers
(hands, previews, hints) may take it from inside an adapter's ``deliver``
while another action of the table waits for the lock;
they see committed state only, and row writes never race.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from core import BasraError, Match, Rules
from core import events as ev
from storage import Seat, TableRecord

from .clock import Timer
from .views import TableView

#: The engine's own events: a log also holds the service's (resigned, expired, auto_played).
CORE_KINDS = frozenset(ev.EVENT_TYPES)
#: What a stored event log that no longer folds raises: text that is not JSON (ValueError),
#: an event of no known shape (pydantic's ValidationError is a ValueError, a missing field
#: a KeyError or TypeError, one not an object an AttributeError), or one the engine refuses.
UNREADABLE = (BasraError, ValueError, TypeError, KeyError, AttributeError)


def reason_of(error: BaseException) -> str:
    """What is wrong, in one short line for the log and the store."""
    lines = str(error).splitlines() or [type(error).__name__]
    return f"{type(error).__name__}: {lines[0][:200]}"


class Hooks(Protocol):
    """Told of tables taken into memory and of every change (the timers arm from them)."""

    def adopted(self, live: LiveTable) -> None: ...

    def changed(self, live: LiveTable) -> None: ...


class Unheard:
    def adopted(self, live: LiveTable) -> None:
        pass

    def changed(self, live: LiveTable) -> None:
        pass


class LiveTable:
    __slots__ = (
        "last_auto",
        "lock",
        "match",
        "record",
        "rules",
        "timer",
        "view",
        "view_key",
        "writing",
    )

    def __init__(self, record: TableRecord, match: Match | None = None, *, last_auto: bool = False) -> None:
        self.record = record
        self.match = match
        self.rules = Rules.from_dict(record.rules or None)
        self.lock = asyncio.Lock()
        self.writing = asyncio.Lock()
        self.timer: Timer | None = None
        self.last_auto = last_auto
        self.view: TableView | None = None  # the last public view made, and what it was made from
        self.view_key: tuple[object, ...] = ()

    @property
    def table_id(self) -> str:
        return self.record.table_id

    def update(self, record: TableRecord) -> None:
        self.record = record
        self.rules = Rules.from_dict(record.rules or None)

    def cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


def header(record: TableRecord, key: str, default: Any) -> Any:
    return (record.header or {}).get(key, default)


def capacity(record: TableRecord) -> int:
    """Seats at the table: 2 or 4."""
    return int(header(record, "capacity", 4 if record.mode == "2v2" else 2))


def turn_seconds(record: TableRecord, default: int) -> int:
    return int(header(record, "turn_seconds", default))


def people(record: TableRecord) -> list[int]:
    """Seat numbers held by people."""
    return [i for i, seat in enumerate(record.seats) if seat.player_id is not None]


def solo(record: TableRecord) -> bool:
    """One person against computers: practice, whose clock only waits."""
    return len(people(record)) == 1


def seat_of(record: TableRecord, player_id: str) -> int | None:
    return next((i for i, s in enumerate(record.seats) if s.player_id == player_id), None)


def seat_name(seat: Seat) -> str | None:
    return seat.name


def fold(events: Sequence[Mapping[str, Any]]) -> tuple[Match, bool]:
    """The match a stored log folds to, and whether its last play was made by the clock."""
    last_auto, previous = False, None
    for event in events:
        if event.get("kind") == "card_played":
            last_auto = previous == "auto_played"
        previous = event.get("kind")
    return Match.from_events([dict(e) for e in events if e.get("kind") in CORE_KINDS]), last_auto
