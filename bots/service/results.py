"""What a finished match does to profiles and ratings (RULES.md §7).

Only a finished match between people counts: win 24, draw 8, loss 3 profile
points; a 1-v-1 between two people also moves both ratings, with openskill's
Plackett-Luce model (its conservative ``ordinal`` is stored; people see it on
a chess-like scale, ``display_rating``). Practice and expired matches count
for nothing.
"""

from __future__ import annotations

from typing import Any, Final

from openskill.models import PlackettLuce

from core import Match
from storage import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    MatchResult,
    PlayerProfile,
    RatingChange,
    SeatOutcome,
    TableRecord,
)

from .views import EndReason, Outcome, counted_seating, rated_seating

PROFILE_POINTS: Final[dict[Outcome, int]] = {"win": 24, "draw": 8, "loss": 3}
_MODEL: Final = PlackettLuce()
#: The scale people see: a new player shows 1500.
DISPLAY_BASE: Final = 1500
DISPLAY_SCALE: Final = 40


def display_rating(ordinal: float) -> int:
    """The stored rating (openskill ordinal, 0 for a newcomer) as people see it.

    >>> display_rating(0.0), display_rating(3.44)
    (1500, 1638)
    """
    return round(DISPLAY_BASE + DISPLAY_SCALE * ordinal)


def counts(record: TableRecord, reason: EndReason) -> bool:
    """Whether the result reaches profiles: a counted seating, and a real end."""
    people_only = all(s.player_id is not None for s in record.seats)
    return reason != "expired" and counted_seating(record.mode, people_only)


def rated(record: TableRecord) -> bool:
    """Rated: the match was rated when it started (a 1-v-1 between two people)."""
    people_only = all(s.player_id is not None for s in record.seats)
    return record.rated and rated_seating(record.mode, people_only, len(record.seats))


def outcome_of(team: int, winner: int | None) -> Outcome:
    if winner is None:
        return "draw"
    return "win" if team == winner else "loss"


def rate(
    record: TableRecord, winner: int | None, before: dict[str, PlayerProfile | None]
) -> tuple[RatingChange, ...]:
    """Both players' rating moves for a rated match, from the profiles as read."""
    ids = [s.player_id for s in record.seats]
    assert all(ids) and len(ids) == 2
    olds = []
    for pid in ids:
        profile = before.get(pid or "")
        mu, sigma = (profile.mu, profile.sigma) if profile else (DEFAULT_MU, DEFAULT_SIGMA)
        olds.append(_MODEL.rating(mu=mu, sigma=sigma))
    ranks: list[float] = [0.0, 0.0] if winner is None else [0.0 if winner == s else 1.0 for s in (0, 1)]
    news = _MODEL.rate([[olds[0]], [olds[1]]], ranks=ranks)
    return tuple(
        RatingChange(
            player_id=pid or "",
            before_mu=old.mu,
            before_sigma=old.sigma,
            before_rating=old.ordinal(),
            after_mu=new[0].mu,
            after_sigma=new[0].sigma,
            after_rating=new[0].ordinal(),
        )
        for pid, old, new in zip(ids, olds, news, strict=True)
    )


def finish(
    record: TableRecord,
    match: Match,
    reason: EndReason,
    winner: int | None,
    resigned_seat: int | None,
    before: dict[str, PlayerProfile | None],
    now: float,
) -> tuple[dict[str, Any], MatchResult | None]:
    """The result kept with the table (JSON) and what the store applies to profiles."""
    counted = counts(record, reason)
    ratings = rate(record, winner, before) if counted and rated(record) else ()
    moved = {c.player_id: c for c in ratings}
    lines: list[dict[str, Any]] = []
    outcomes: list[SeatOutcome] = []
    for seat, info in enumerate(record.seats):
        team = seat % 2
        outcome = outcome_of(team, winner)
        points = PROFILE_POINTS[outcome] if counted else 0
        line: dict[str, Any] = {"seat": seat, "outcome": outcome, "profile_points": points}
        change = moved.get(info.player_id or "")
        if change is not None:
            line["rating_before"] = display_rating(change.before_rating)
            line["rating_after"] = display_rating(change.after_rating)
        lines.append(line)
        if counted:
            outcomes.append(
                SeatOutcome(
                    seat=seat,
                    team=team,
                    player_id=info.player_id,
                    name=info.name,
                    outcome=outcome,
                    score=match.scores[team],
                    profile_points=points,
                    basras=sum(1 for p in match.history if p.seat == seat and p.basra),
                    best_round=max((r.points[team] for r in match.rounds), default=0),
                )
            )
    summary: dict[str, Any] = {
        "reason": reason,
        "winner": winner,
        "resigned_seat": resigned_seat,
        "scores": list(match.scores),
        "counted": counted,
        "seats": lines,
    }
    result = (
        MatchResult(table_id=record.table_id, outcomes=tuple(outcomes), ratings=ratings, finished_at=now)
        if counted
        else None
    )
    return summary, result
