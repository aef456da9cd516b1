"""The terminal's boards: the shared renderings, with what a terminal says differently.

A board is ``render_hand`` or ``render_table``, edited line by line, so the
table reads the same as in the chats except where a terminal differs:

- the cards and basras each side took so far this round, under the match
  score (which only moves when a round is scored);
- the plays since the player's last turn (one per seat), where the chats show
  only the last, because a redrawn screen keeps no scrollback;
- at a round's end "its points are below", not "in the next message", the
  match-over line after the last round's points, not above them, and no
  seat's "0 cards" left in hand just above the cards each side took;
- plan choices labelled with what each plan takes (``5♣ + 2♥``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..i18n import Translator, card_face, isolate
from ..i18n.words import basras_count, cards_count, team_name
from ..render import (
    Action,
    Line,
    Span,
    Text,
    render_hand,
    render_match_result,
    render_round_result,
    render_table,
)
from ..render.common import listed, scores_line, seat_name
from ..render.texts import _end_line, describe_play
from ..service import HandView, MatchResultView, PlayDescription, RoundResultView, SeatInfo, TableView
from .texts import ROUND_SO_FAR, ROUND_TO_POINTS

#: The last line of a finished round's table in the chats (whose points come as a new message).
CHAT_ROUND_END = "End of the round: the points follow below."


@dataclass(frozen=True, slots=True)
class Choice:
    """A numbered choice: its label and the button it presses."""

    label: str
    action: Action


def _replace(text: Text, old: Line, new: Sequence[Line]) -> Text:
    """``text`` with its line ``old`` (if there) replaced by ``new``."""
    lines: list[Line] = []
    for line in text.lines:
        lines.extend(new if line == old else (line,))
    return Text(tuple(lines))


def _after(text: Text, anchor: Line, new: Line) -> Text:
    lines: list[Line] = []
    for line in text.lines:
        lines.append(line)
        if line == anchor:
            lines.append(new)
    return Text(tuple(lines))


def _side(t: Translator, table: TableView, team: int) -> str:
    """A side, short: the player's name in 1-v-1, the team's name in 2-v-2."""
    if table.players == 4:
        return team_name(t, team)
    return seat_name(t, table.seats_of_team(team)[0])


def _seat_line(t: Translator, table: TableView, seat: SeatInfo) -> Line:
    """A seat's line on a table that is not being played: "· Alice: 0 cards"."""
    label = seat_name(t, seat)
    if table.players == 4:
        label = t.gettext("{name} ({team})", name=label, team=team_name(t, seat.team))
    return Line.of("· " + t.gettext("{name}: {cards}", name=label, cards=cards_count(t, seat.cards)))


def round_so_far(t: Translator, table: TableView) -> str:
    """ "Taken this round: Alice 12 cards, 1 basra · Computer 8 cards"."""

    def taken(team: int) -> str:
        text = cards_count(t, table.captured[team])
        if table.round_basras[team]:
            text = listed(t, [text, basras_count(t, table.round_basras[team])])
        return text

    return t.gettext(
        ROUND_SO_FAR,
        first=_side(t, table, 0),
        first_taken=taken(0),
        second=_side(t, table, 1),
        second_taken=taken(1),
    )


def _table_edits(t: Translator, text: Text, table: TableView, plays: Sequence[PlayDescription]) -> Text:
    if table.last_play is not None:
        last = Line.of(describe_play(t, table, table.last_play))
        text = _replace(text, last, [Line.of(describe_play(t, table, play)) for play in plays])
    if table.running and table.round_close is None:
        score = Line.of(scores_line(t, table.seats, table.scores, table.rules.target))
        text = _after(text, score, Line.of(round_so_far(t, table)))
    to_points = [Line.of(Span(t.gettext(ROUND_TO_POINTS), bold=True))]
    text = _replace(text, Line.of(Span(t.gettext(CHAT_ROUND_END), bold=True)), to_points)
    if not table.running:
        # The match's result, shown below, says who won: after the last round's points.
        end = Line.of(Span(_end_line(t, table), bold=True))
        text = _replace(text, end, to_points if table.round_close is not None else [])
    return text


def plan_label(t: Translator, taken: Sequence[str], basra: bool) -> str:
    """What a plan takes, as a choice: ``5♣ + 2♥`` (isolated), with "basra!" when it is one."""
    label = isolate(" + ".join(card_face(card) for card in taken))
    return label + " · " + t.gettext("basra!") if basra else label


def hand_board(t: Translator, hand: HandView, plays: Sequence[PlayDescription]) -> tuple[Text, list[Choice]]:
    """The table and the player's hand; on their turn, the choices (numbered, shown under it)."""
    rendered = render_hand(hand, t)
    text = _table_edits(t, rendered.text, hand.table, plays)
    choices: list[Choice] = []
    if not hand.your_turn:
        return text, choices
    plans = {p.number: p for p in hand.preview.plans} if hand.preview is not None else {}
    for row in rendered.buttons:
        for button in row:
            action = button.action
            if action.verb == "hand":
                continue
            label = button.label
            plan = plans.get(action.plan or 0) if action.verb == "plan" else None
            if plan is not None and button.label == str(plan.number):  # not "Lay it", "More plans"
                label = plan_label(t, plan.taken, plan.basra)
            choices.append(Choice(label, action))
    if choices:
        numbered = "  ".join(f"[{number}] {choice.label}" for number, choice in enumerate(choices, 1))
        text = text + Text.of(Line.of(numbered))
    return text, choices


def round_board(
    t: Translator,
    closed: TableView,
    result: RoundResultView,
    plays: Sequence[PlayDescription],
    match: MatchResultView | None = None,
) -> Text:
    """A finished round: its last table, its points, and when it was the last, the match's result.

    The seats' "0 cards" (left in hand) are left out: just above "28 cards" taken in the
    points, they read as a contradiction."""
    table = _table_edits(t, render_table(closed, t).text, closed, plays)
    for seat in closed.seats:
        table = _replace(table, _seat_line(t, closed, seat), [])
    text = table + Text.of(Line.of("")) + render_round_result(result, t).text
    if match is not None:
        text = text + Text.of(Line.of("")) + render_match_result(match, t).text
    return text


def final_board(
    t: Translator, hand: HandView, plays: Sequence[PlayDescription], match: MatchResultView
) -> Text:
    """A match that ended between rounds (resigned, closed): the table, then the result."""
    text, _ = hand_board(t, hand, plays)
    return text + Text.of(Line.of("")) + render_match_result(match, t).text
