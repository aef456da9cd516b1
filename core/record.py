"""Match records (``basra-record/1``) and event folding: rebuilding a match.

A record holds the decks and the plays; replaying them through the rules
gives back the match, and any bad card or illegal play is reported with the
number of the play it happened at. The match is dealt by the ``new`` it is
given (``Match.new``: ``Match.from_record`` and ``Match.from_events`` are the
way in), so that this module and ``match`` do not import each other.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol, TypeVar

from . import events as ev
from .errors import BasraError, RecordError, shown
from .rules import Rules


class Replayable(Protocol):
    """What replaying needs of a match (``Match``)."""

    @property
    def to_move(self) -> int | None: ...

    @property
    def round_no(self) -> int: ...

    def opening_events(self) -> list[ev.Event]: ...

    def play(self, seat: object, card: object, plan: object = None) -> list[ev.Event]: ...


M = TypeVar("M", bound=Replayable)

FORMAT = "basra-record/1"
_PLAN_DIGITS = 9  # the most a plan number in a record may have, leading zeros aside


def replay_record(record: object, new: Callable[..., M]) -> M:
    """The match a record describes, played up to its last play."""
    match, _ = replay_events(record, new)
    return match


def replay_events(record: object, new: Callable[..., M]) -> tuple[M, list[ev.Event]]:
    """The match a record describes, and every event it went through: the opening
    ones, then each play's (for telling the match play by play)."""
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"unknown record format {shown(record.get('format'))} (expected {FORMAT!r})")
    players = record.get("players")
    if players.__class__ is not int or players not in (2, 4):
        raise RecordError(f"'players' must be 2 or 4, not {shown(players)}")
    dealer = record.get("dealer", 0)
    decks = record.get("decks")
    plays = record.get("plays", [])
    if not isinstance(decks, list) or not decks:
        raise RecordError("a record needs 'decks': a list of 52-card lists")
    if not isinstance(plays, list):
        raise RecordError("'plays' must be a list")
    try:
        rules = Rules.from_dict(record.get("rules"))
        match = new(players, rules, decks=decks, dealer=dealer, seed=record.get("seed"))
    except BasraError as exc:
        raise RecordError(str(exc)) from None
    events = match.opening_events()
    for number, play in enumerate(plays, start=1):
        events.extend(_replay_play(match, number, play, rounds=len(decks)))
    return match, events


def _replay_play(match: Replayable, number: int, play: object, rounds: int) -> list[ev.Event]:
    if not isinstance(play, str):
        raise RecordError(f"play {number}: {shown(play)} is not a play")
    text, slash, plan_text = play.partition("/")
    plan: int | None = None
    if slash:
        if not (plan_text.isascii() and plan_text.isdigit()):
            raise RecordError(f"play {number} {shown(play)}: bad plan number {shown(plan_text)}")
        # No card has a billion plans: a longer number is never read (Python
        # refuses to read one of over 4,300 digits).
        if len(plan_text.lstrip("0")) > _PLAN_DIGITS:
            raise RecordError(f"play {number} {shown(play)}: no such plan ({len(plan_text):,} digits)")
        plan = int(plan_text)
    if match.to_move is None:
        raise RecordError(f"play {number} {shown(play)}: the match is already over")
    if match.round_no > rounds:
        raise RecordError(f"play {number} {shown(play)}: round {match.round_no} has no deck in the record")
    try:
        return match.play(match.to_move, text, plan)
    except BasraError as exc:
        raise RecordError(f"play {number} {shown(play)}: {exc}") from None


def fold_events(events: object, new: Callable[..., M]) -> M:
    """Rebuild a match from its events, checking that every derived event agrees.

    ``events`` is a list of Events or of their dicts (``to_dict``), each read
    as ``event_from_dict`` reads it. The decisive events are MatchStarted,
    RoundStarted (the decks) and CardPlayed; the others must come out of the
    rules exactly as stored.
    """
    if isinstance(events, (str, bytes, dict)) or not isinstance(events, Iterable):
        raise RecordError(f"events must be a list of events, not {shown(events)}")
    items: list[ev.Event] = []
    for position, item in enumerate(events, start=1):
        data = item._asdict() if isinstance(item, ev.EventBase) else item
        try:
            items.append(ev.event_from_dict(data))
        except BasraError as exc:
            raise RecordError(f"event {position}: {exc}") from None
    if not items or not isinstance(items[0], ev.MatchStarted):
        raise RecordError("events must begin with match_started")
    start = items[0]
    decks = [list(e.deck) for e in items if isinstance(e, ev.RoundStarted)]
    if not decks:
        raise RecordError("events hold no round_started")
    try:
        rules = Rules.from_dict(start.rules or None)
        match = new(start.players, rules, decks=decks, dealer=start.dealer)
    except BasraError as exc:
        raise RecordError(str(exc)) from None
    expected = [ev.to_dict(e) for e in match.opening_events()]
    produced = [ev.to_dict(e) for e in items[: len(expected)]]
    if produced != expected:
        raise RecordError("the opening events do not match the decks")
    position = len(expected)
    while position < len(items):
        event = items[position]
        if not isinstance(event, ev.CardPlayed):
            raise RecordError(f"event {position + 1}: expected card_played, got {event.kind}")
        try:
            out = match.play(event.seat, event.card, event.plan)
        except BasraError as exc:
            raise RecordError(f"event {position + 1}: {exc}") from None
        stored = [ev.to_dict(e) for e in items[position : position + len(out)]]
        if stored != [ev.to_dict(e) for e in out]:
            raise RecordError(f"event {position + 1}: stored events differ from the rules' outcome")
        position += len(out)
    return match
