"""Rendering round and match results, with the points breakdown (RULES.md §5-7)."""

from __future__ import annotations

from ..i18n import Translator, card_label, facing_scores
from ..i18n.words import basras_count, cards_count, points_count, term
from ..service.ids import is_pool_chat
from ..service.views import MatchResultView, RoundResultView, SeatResult, SidePoints
from .actions import Action, Button
from .common import score_side, seat_name, side_name
from .markup import Line, Span, Text
from .pool import stranger_result_buttons
from .rendered import Rendered


def _breakdown(t: Translator, side: SidePoints) -> str:
    items = []
    if side.majority:
        items.append(t.gettext("majority {n}", n=side.majority))
    if side.aces:
        items.append(t.gettext("aces {n}", n=side.aces))
    if side.jacks:
        items.append(t.gettext("jacks {n}", n=side.jacks))
    for card, points in (("2C", side.two_clubs), ("10D", side.ten_diamonds)):
        if points:
            # TRANSLATORS: a card worth points in a round's breakdown and its points, e.g. "2♣ 2".
            items.append(t.gettext("{card} {n}", card=card_label(card), n=points))
    if side.basra_points:
        items.append(t.gettext("basras {n}", n=side.basra_points))
    shown = " · ".join(items) if items else "—"
    return t.gettext("{items} = {points}", items=shown, points=points_count(t, side.points))


def render_round_result(result: RoundResultView, t: Translator) -> Rendered:
    """A round's points breakdown per side and the totals."""
    lines = [Line.of(Span(t.gettext("Round {round} is over", round=result.round_no), bold=True))]
    for side in result.sides:
        name = side_name(t, result.seats, side.team)
        taken = cards_count(t, side.cards)
        if side.basras:
            taken += " · " + basras_count(t, side.basras)
        lines.append(Line.of(Span(t.gettext("{side}: {taken}", side=name, taken=taken), bold=True)))
        lines.append(Line.of("  " + _breakdown(t, side)))
    if result.carry_out:
        lines.append(
            Line.of(
                t.gettext(
                    "26 cards each: nobody takes the {majority}; {points} carry to the next round.",
                    majority=term(t, "majority"),
                    points=points_count(t, result.carry_out),
                )
            )
        )
    lines.append(
        Line.of(
            t.gettext(
                "Score: {first} {score} {second}",
                first=score_side(t, result.seats, 0),
                score=facing_scores(*result.scores),
                second=score_side(t, result.seats, 1),
            )
        )
    )
    return Rendered(Text.of(*lines))


def _seat_line(t: Translator, result: MatchResultView, seat: SeatResult) -> str:
    outcome = {"win": t.gettext("win"), "draw": t.gettext("draw"), "loss": t.gettext("loss")}[seat.outcome]
    # TRANSLATORS: one player's line in a match result, e.g. "Alice: win".
    text = t.gettext("{name}: {outcome}", name=seat_name(t, seat), outcome=outcome)
    if result.counted and seat.player_id is not None:
        text += " · " + t.ngettext(
            "+{n} profile point", "+{n} profile points", seat.profile_points
        )
    if seat.rating_before is not None and seat.rating_after is not None:
        text += " · " + t.gettext(
            "rating {before} → {after}", before=seat.rating_before, after=seat.rating_after
        )
    return text


def render_match_result(result: MatchResultView, t: Translator) -> Rendered:
    """Who won and why, final scores, profile points and rating moves; Rematch and Record
    under it, or, under a stranger match the pool seated (it has no chat), a new search and
    Block."""
    seats = result.seats
    lines = [Line.of(Span(t.gettext("The match is over"), bold=True))]
    if result.winner is not None:
        lines.append(
            Line.of(Span(t.gettext("{side} won!", side=side_name(t, seats, result.winner)), bold=True))
        )
    resigned = next((s for s in seats if s.seat == result.resigned_seat), None)
    if result.reason == "resigned" and resigned is not None:
        lines.append(Line.of(t.gettext("{name} resigned.", name=seat_name(t, resigned))))
    elif result.reason == "timeout" and resigned is not None:
        lines.append(Line.of(t.gettext("{name} ran out of time.", name=seat_name(t, resigned))))
    elif result.reason == "expired":
        lines.append(Line.of(t.gettext("Practice match closed after a day without play.")))
    lines.append(Line.of(t.gettext(
        "Final score: {first} {score} {second} (to {target})",
        first=score_side(t, seats, 0),
        score=facing_scores(*result.scores),
        second=score_side(t, seats, 1),
        target=result.target,
    )))
    lines.append(Line.of(t.ngettext("{n} round played", "{n} rounds played", len(result.rounds))))
    for seat in seats:
        lines.append(Line.of("· " + _seat_line(t, result, seat)))
    if result.practice:
        lines.append(Line.of(t.gettext("Practice against the computer: nothing counted.")))
    if result.reason == "expired":  # closed for sitting idle: not finished, no record
        return Rendered(Text.of(*lines))
    if is_pool_chat(result.chat_id):
        return Rendered(Text.of(*lines), stranger_result_buttons(result, t))
    # TRANSLATORS: the button under a match result that sends the match's record as a file.
    record = Button(t.gettext("📄 Record"), Action("record", result.table_id, result.version))
    # TRANSLATORS: the button under a match result: the same players again, the same sides.
    rematch = Button(t.gettext("🔁 Rematch"), Action("rematch", result.table_id, result.version), "primary")
    return Rendered(Text.of(*lines), ((rematch, record),))
