"""When a table next has timed work: pure functions of its row, its match, the time and the
service's settings (no clock, no store). The unit of work stores what they say with each
change (``deadline``, ``due_at``), and the timers arm from it."""

from __future__ import annotations

from core import Match
from storage import TableRecord

from .config import ServiceConfig
from .live import solo, turn_seconds


def next_deadline(record: TableRecord, match: Match, now: float, config: ServiceConfig) -> float | None:
    """The deadline a change of the table sets: an idle lobby's closing, a practice
    match's giving up, a person's turn running out; none while a computer is to play."""
    if record.status == "lobby":
        return now + config.lobby_idle_seconds
    if record.status != "running" or match.to_move is None:
        return None
    if solo(record):
        return now + config.practice_idle_seconds
    if record.seats[match.to_move].computer is not None:
        return None
    return now + turn_seconds(record, config.turn_seconds)


def warns(record: TableRecord, config: ServiceConfig) -> bool:
    """Whether the turn clock's warning is still to come."""
    return not solo(record) and not record.warned and config.warning_seconds > 0


def due_at(record: TableRecord, match: Match | None, now: float, config: ServiceConfig) -> float | None:
    """When the table next has timed work (what the timers wait for), stored so that a
    restarted process, or another one, finds it without loading the table."""
    if record.status == "lobby":
        return record.deadline
    if record.status != "running" or match is None or match.to_move is None:
        return None
    if record.seats[match.to_move].computer is not None:
        return now + config.computer_delay
    if record.deadline is None:
        return None
    warn_at = record.deadline - config.warning_seconds
    if warns(record, config) and warn_at > now:
        return warn_at
    return record.deadline


def with_due(
    before: TableRecord, after: TableRecord, match: Match | None, now: float, config: ServiceConfig
) -> TableRecord:
    """``after`` with its ``due_at`` made right for a change from ``before``: recomputed
    when the change moved a clock or the state, kept otherwise."""
    if (
        after.deadline == before.deadline
        and after.warned == before.warned
        and after.status == before.status
        and after.version == before.version
        and after.seats == before.seats
    ):
        return after
    return after.model_copy(update={"due_at": due_at(after, match, now, config)})
