"""Building views from a table's stored row and its engine match.

Only here does engine state turn into what leaves the service, and only the
seat's own hand goes into a ``HandView``; a ``TableView`` holds counts.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from core import Card, Match, Rules
from core import events as ev
from core.scoring import RoundSummary
from core.view import PublicPlay
from storage import TableRecord

from .live import capacity, solo
from .views import (
    HandView,
    LobbySeat,
    LobbyView,
    MatchResultView,
    PlanOption,
    PlayDescription,
    Preview,
    RoundClose,
    RoundResultView,
    SeatInfo,
    SeatResult,
    SidePoints,
    TableView,
)


def lobby_view(record: TableRecord, rules: Rules, turn_seconds: int) -> LobbyView:
    return LobbyView(
        table_id=record.table_id,
        chat_id=record.chat_id,
        mode=record.mode,
        status=record.status,
        capacity=capacity(record),
        creator_id=record.created_by,
        seats=tuple(LobbySeat(s.name, s.player_id, s.computer, s.team) for s in record.seats),
        rules=rules,
        turn_seconds=turn_seconds,
        expires_at=record.deadline if record.status == "lobby" else None,
        revision=record.revision,
    )


def clock_runs(record: TableRecord, match: Match) -> bool:
    """Whether a turn clock is running now: a person to move, not alone against computers."""
    seat = match.to_move
    return (
        record.status == "running"
        and seat is not None
        and record.seats[seat].player_id is not None
        and not solo(record)
    )


def table_view(
    record: TableRecord, match: Match, rules: Rules, now: float, turn_seconds: int, *, last_auto: bool = False
) -> TableView:
    running = record.status == "running"
    seats = tuple(
        # After a resignation each seat still holds what it held: shown as it was.
        SeatInfo(i, s.name, s.player_id, s.computer, i % 2, len(match.hand(i)))
        for i, s in enumerate(record.seats)
    )
    history = match.history
    last = history[-1] if history and history[-1].round_no == match.round_no else None
    last_play = described(last, auto=last_auto) if last is not None else None
    piles = match.piles
    basras = [0, 0]
    if last is not None:
        for play in reversed(history):
            if play.round_no != match.round_no:
                break
            if play.basra:
                basras[play.seat % 2] += 1
    ticking = running and clock_runs(record, match)
    deadline = record.deadline if ticking else None
    result = record.result or {}
    return TableView(
        table_id=record.table_id,
        chat_id=record.chat_id,
        version=record.version,
        mode=record.mode,
        status=record.status,
        players=match.players,
        rules=rules,
        seats=seats,
        floor=tuple(c.code for c in match.floor),
        to_move=match.to_move if running else None,
        deadline=deadline,
        seconds_left=max(0, math.ceil(deadline - now)) if deadline is not None else None,
        turn_seconds=None if solo(record) else turn_seconds,
        stock=match.stock_count,
        deals_left=match.stock_count // (4 * match.players),
        round_no=match.round_no,
        dealer=match.dealer,
        scores=match.scores,
        carry=match.carry,
        captured=(len(piles[0]), len(piles[1])),
        round_basras=(basras[0], basras[1]),
        last_play=last_play,
        practice=is_practice(record),
        rated=record.rated,
        winner=result.get("winner") if not running else None,
        end_reason=result.get("reason") if not running else None,
    )


def described(play: PublicPlay, *, auto: bool = False) -> PlayDescription:
    taken = tuple(c.code for c in play.taken)
    return PlayDescription(play.seat, play.card.code, taken, play.basra, auto=auto)


def round_close(events: Sequence[ev.Event], round_no: int) -> RoundClose:
    """How round ``round_no`` ended, from the events of the play that ended it."""
    for event in events:
        if isinstance(event, ev.CardsTaken) and event.last and event.round_no == round_no:
            return RoundClose(round_no, event.cards, event.side)
    return RoundClose(round_no, (), None)


def closed_round_view(table: TableView, match: Match, close: RoundClose, *, last_auto: bool) -> TableView:
    """The last picture of a finished round, made from ``table`` (the match's table
    now, already in the next round): the round's last play, the floor emptied,
    each side's cards and basras of that round, and the scores after it."""
    summary = match.rounds[close.round_no - 1]
    last = next(p for p in reversed(match.history) if p.round_no == close.round_no)
    return replace(
        table,
        seats=tuple(replace(s, cards=0) for s in table.seats),
        floor=(),
        to_move=None,
        deadline=None,
        seconds_left=None,
        stock=0,
        deals_left=0,
        round_no=close.round_no,
        dealer=summary.dealer,
        carry=summary.carry_in,
        captured=summary.cards,
        round_basras=summary.basras,
        last_play=described(last, auto=last_auto),
        round_close=close,
    )


def is_practice(record: TableRecord) -> bool:
    return any(s.computer is not None for s in record.seats)


def preview(match: Match, rules: Rules, card: Card, plan: int | None) -> Preview:
    plans = tuple(
        PlanOption(n, tuple(c.code for c in p.taken), p.positions, p.basra)
        for n, p in enumerate(match.plans(card), start=1)
    )
    can_lay = bool(plans) and rules.optional_capture
    if plan is None or not (0 <= plan <= len(plans)) or (plan == 0 and plans and not can_lay):
        plan = 1 if plans else 0
    return Preview(card.code, plans, plan, can_lay)


def hand_view(table: TableView, match: Match, seat: int, player_id: str, chosen: Preview | None) -> HandView:
    hand = tuple(c.code for c in match.hand(seat)) if table.running else ()
    return HandView(table, seat, player_id, hand, chosen)


def side_points(
    summary: RoundSummary, scores: tuple[int, int], players: int
) -> tuple[SidePoints, SidePoints]:
    out = []
    for side in (0, 1):
        points = summary.breakdown[side]
        out.append(
            SidePoints(
                team=side,
                seats=tuple(range(side, players, 2)),
                cards=summary.cards[side],
                basras=summary.basras[side],
                majority=points.majority,
                aces=points.aces,
                jacks=points.jacks,
                two_clubs=points.two_clubs,
                ten_diamonds=points.ten_diamonds,
                basra_points=points.basras,
                points=points.total,
                total=scores[side],
            )
        )
    return (out[0], out[1])


def round_views(record: TableRecord, match: Match, seats: tuple[SeatInfo, ...]) -> list[RoundResultView]:
    """Every finished round of the match, with the running totals after each."""
    views = []
    totals = (0, 0)
    last = len(match.rounds)
    for number, summary in enumerate(match.rounds, start=1):
        totals = (totals[0] + summary.points[0], totals[1] + summary.points[1])
        views.append(
            RoundResultView(
                table_id=record.table_id,
                chat_id=record.chat_id,
                round_no=summary.round_no,
                seats=seats,
                sides=side_points(summary, totals, match.players),
                carry_in=summary.carry_in,
                carry_out=summary.carry_out,
                scores=totals,
                target=match.rules.target,
                match_over=number == last and match.over,
            )
        )
    return views


def match_result_view(record: TableRecord, match: Match, seats: tuple[SeatInfo, ...]) -> MatchResultView:
    """The result stored with a finished (or expired) table, as a view."""
    result: dict[str, Any] = record.result or {}
    by_seat = {int(line["seat"]): line for line in result.get("seats", [])}
    lines = []
    for info in seats:
        line = by_seat.get(info.seat, {})
        lines.append(
            SeatResult(
                seat=info.seat,
                team=info.team,
                name=info.name,
                player_id=info.player_id,
                computer=info.computer,
                outcome=line.get("outcome", "draw"),
                profile_points=int(line.get("profile_points", 0)),
                rating_before=line.get("rating_before"),
                rating_after=line.get("rating_after"),
            )
        )
    scores = result.get("scores", list(match.scores))
    return MatchResultView(
        table_id=record.table_id,
        chat_id=record.chat_id,
        mode=record.mode,
        reason=result.get("reason", "target"),
        winner=result.get("winner"),
        resigned_seat=result.get("resigned_seat"),
        scores=(int(scores[0]), int(scores[1])),
        target=match.rules.target,
        rounds=tuple(round_views(record, match, seats)),
        seats=tuple(lines),
        practice=is_practice(record),
        rated=record.rated,
        counted=bool(result.get("counted", False)),
        version=record.version,
    )
