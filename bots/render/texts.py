"""Rendering the table, the hands and the lobby: the messages a match is played through.

Public renderings (lobby, table) take only public views, which hold no hand
card; a hand is rendered only from a ``HandView`` meant for its owner.
"""

from __future__ import annotations

import math

from core.ai import LEVELS

from ..i18n import Translator, card_label
from ..i18n.words import cards_count, deals_left, level_name, points_count, team_name, turn_of, your_turn
from ..service.lobbies import COMPUTER_LEVELS
from ..service.notices import ClockWarning, YourTurn
from ..service.views import HandView, LobbyView, PlayDescription, Preview, TableView
from .actions import Action, Button
from .common import clock_text, floor_text, listed, run_of, scores_line, seat_name, side_name, variants_line
from .markup import Line, Span, Text
from .rendered import Rendered

CARDS_PER_ROW = 4
#: Plan buttons: five to a row, at most four rows (with Play and Back, five rows: all
#: Discord holds, and a keyboard that fits a phone). More plans are shown a page at a time.
PLANS_PER_ROW = 5
PLAN_SLOTS = 20


def available_levels() -> list[str]:
    """The computer levels ``core.ai`` offers now, weakest first."""
    return [level for level in COMPUTER_LEVELS if level in LEVELS]


# -- lobby ---------------------------------------------------------------------


def render_lobby(lobby: LobbyView, t: Translator) -> Rendered:
    """The lobby message: mode, seats by team, variants, clock; join/leave/team/computer/start/cancel."""
    title = {
        "1v1": t.gettext("Basra: new table, one against one"),
        "2v2": t.gettext("Basra: new table, two against two"),
        "practice": t.gettext("Basra: practice against the computer"),
    }[lobby.mode]
    lines = [Line.of(Span(title, bold=True))]
    if lobby.capacity == 4:
        for team in (0, 1):
            members = lobby.team(team)
            shown = listed(t, [seat_name(t, s) for s in members]) or "—"
            lines.append(Line.of(t.gettext("{team}: {players}", team=team_name(t, team), players=shown)))
    else:
        shown = listed(t, [seat_name(t, s) for s in lobby.seats]) or "—"
        lines.append(Line.of(t.gettext("Players: {players}", players=shown)))
    lines.append(
        Line.of(t.gettext("Seats taken: {taken} of {seats}", taken=len(lobby.seats), seats=lobby.capacity))
    )
    lines.append(Line.of(variants_line(t, lobby.rules)))
    lines.append(Line.of(t.gettext("Turn clock: {clock}", clock=clock_text(lobby.turn_seconds))))
    if lobby.status != "lobby":
        closed = {
            "running": t.gettext("The match has started."),
            "finished": t.gettext("The match has started."),
            "cancelled": t.gettext("This table was cancelled."),
            "expired": t.gettext("This table closed: nobody touched it for 15 minutes."),
        }.get(lobby.status, t.gettext("This table is closed."))
        lines.append(Line.of(Span(closed, bold=True)))
        return Rendered(Text.of(*lines))
    lines.append(Line.of(counting_line(t, lobby)))
    if lobby.mode == "practice" and not lobby.full:
        # A practice table is never "ready" with empty seats: it says what Start does with them.
        # TRANSLATORS: a practice lobby with free seats: Start fills them with computers.
        lines.append(Line.of(t.gettext(
            "Add a computer of the level you want, or press Start: computers take the free seats.")))
    elif lobby.can_start:
        lines.append(Line.of(t.gettext("Ready: the creator can start the match.")))
    else:
        lines.append(Line.of(t.gettext("Waiting for players…")))
    return Rendered(Text.of(*lines), lobby_buttons(t, lobby))


def counting_line(t: Translator, lobby: LobbyView) -> str:
    """What the match will count for, as seated now (a computer makes it practice)."""
    if lobby.rated:
        return t.gettext("Rated: the result moves both players' ratings.")
    if lobby.counted:
        return t.gettext("Counts in everyone's record; ratings move in one-against-one matches only.")
    return t.gettext("Practice: with the computer at the table, the result counts in nobody's record.")


def lobby_buttons(t: Translator, lobby: LobbyView) -> tuple[tuple[Button, ...], ...]:
    """Join (while someone may still sit down) and Leave; the teams; one row per computer
    level, whose labels are long on a phone; Start and Cancel."""
    tid = lobby.table_id
    rows: list[tuple[Button, ...]] = []
    people = [Button(t.gettext("Leave"), Action("leave", tid))]
    if lobby.joinable:
        people.insert(0, Button(t.gettext("Join"), Action("join", tid), "primary"))
    rows.append(tuple(people))
    if lobby.capacity == 4:
        rows.append(tuple(Button(team_name(t, team), Action("team", tid, arg=str(team))) for team in (0, 1)))
    if not lobby.full:
        rows.extend(
            (Button(t.gettext("Add computer ({level})", level=level_name(t, level)),
                    Action("computer", tid, arg=level)),)
            for level in available_levels()
        )
    if lobby.has_computer:
        rows.append((Button(t.gettext("Remove a computer"), Action("uncomputer", tid)),))
    last = [Button(t.gettext("Cancel"), Action("cancel", tid), "danger")]
    if lobby.can_start:
        last.insert(0, Button(t.gettext("Start"), Action("start", tid), "success"))
    rows.append(tuple(last))
    return tuple(rows)


# -- the table -------------------------------------------------------------------


def describe_play(t: Translator, table: TableView, play: PlayDescription, viewer: int | None = None) -> str:
    """ "Alice played 10♦ and took 4♠ 6♥: basra!" / "… which stays on the floor". A play the
    clock made is marked so; in the ``viewer``'s own hand it was played for *you*."""
    who = seat_name(t, table.seats[play.seat])
    card = card_label(play.card)
    if not play.taken:
        text = t.gettext("{name} played {card}; it stays on the floor.", name=who, card=card)
    elif play.basra:
        text = t.gettext(
            "{name} played {card} and took {cards}: basra!", name=who, card=card, cards=run_of(play.taken)
        )
    else:
        text = t.gettext(
            "{name} played {card} and took {cards}.", name=who, card=card, cards=run_of(play.taken)
        )
    if play.auto and viewer is not None and play.seat == viewer:
        # TRANSLATORS: in a player's own hand, after the turn clock played for them.
        text += " " + t.gettext("(played for you: time ran out)")
    elif play.auto:
        # TRANSLATORS: after a play made by the turn clock for a player who did not play in time.
        text += " " + t.gettext("(played for them: time ran out)")
    return text


def _turn_line(
    t: Translator, table: TableView, viewer: int | None, now: float | None, live: bool = False
) -> Line | None:
    if table.to_move is None:
        return None
    if table.to_move == viewer:
        line = your_turn(t)
    else:
        seat = table.seats[table.to_move]
        line = (
            turn_of(t, seat.name or "?")
            if seat.computer is None
            else t.gettext("{name} is thinking…", name=seat_name(t, seat))
        )
    left = table.seconds_left
    if table.deadline is not None and now is not None:
        left = max(0, int(table.deadline - now + 0.999))
    if left is None:
        return Line.of(Span(line, bold=True))
    if live and table.deadline is not None:
        # A moment the client counts down by itself ("in 2 minutes"), in its own language.
        # TRANSLATORS: {when} becomes a live countdown, such as "in 2 minutes".
        before, _, after = t.gettext("time is up {when}", when="\x00").partition("\x00")
        return Line.of(
            Span(f"{line} · {before}", bold=True),
            Span(clock_text(left), bold=True, stamp=math.ceil(table.deadline)),
            Span(after, bold=True),
        )
    return Line.of(Span(line + " · " + t.gettext("{clock} left", clock=clock_text(left)), bold=True))


def _end_line(t: Translator, table: TableView) -> str:
    if table.status == "expired":
        return t.gettext("Practice match closed after a day without play.")
    if table.winner is None:
        return t.gettext("The match is over.")
    return t.gettext("The match is over: {side} won.", side=side_name(t, table.seats, table.winner))


def _table_lines(
    t: Translator, table: TableView, viewer: int | None, now: float | None, live: bool = False,
    *, turn: bool = True,
) -> list[Line]:
    lines = [
        Line.of(
            Span(t.gettext("Basra · round {round}", round=table.round_no), bold=True),
        ),
        Line.of(scores_line(t, table.seats, table.scores, table.rules.target)),
        Line.of(Span(t.gettext("Floor: {cards}", cards=floor_text(t, table.floor)), bold=True)),
    ]
    for seat in table.seats:
        marker = "▶ " if table.to_move == seat.seat and table.running else "· "
        label = seat_name(t, seat)
        if table.players == 4 and viewer is not None and seat.seat == (viewer + 2) % 4:
            label = t.gettext("{name} (your partner)", name=label)
        elif table.players == 4:
            label = t.gettext("{name} ({team})", name=label, team=team_name(t, seat.team))
        lines.append(
            Line.of(marker + t.gettext("{name}: {cards}", name=label, cards=cards_count(t, seat.cards)))
        )
    close = table.round_close
    if table.running and close is None:
        stock = t.gettext("Stock: {cards}", cards=cards_count(t, table.stock))
        lines.append(Line.of(f"{stock} · {deals_left(t, table.deals_left)}"))
    if table.carry:
        carried = t.gettext("Carried majority: {points} more", points=points_count(t, table.carry))
        lines.append(Line.of(carried))
    if table.last_play is not None:
        lines.append(Line.of(describe_play(t, table, table.last_play, viewer)))
    if close is not None and close.leftovers and close.team is not None:
        # TRANSLATORS: at a round's end; {side} is a player's name or "Team A — Alice & Carla".
        leftovers = t.gettext(
            "{side} takes the cards left on the floor: {cards}.",
            side=side_name(t, table.seats, close.team),
            cards=run_of(close.leftovers),
        )
        lines.append(Line.of(leftovers))
    if not table.running:
        lines.append(Line.of(Span(_end_line(t, table), bold=True)))
    elif close is not None:
        # TRANSLATORS: the last line of a finished round's table; its points come in the next message.
        lines.append(Line.of(Span(t.gettext("End of the round: the points follow below."), bold=True)))
    elif turn and (told := _turn_line(t, table, viewer, now, live)) is not None:
        lines.append(told)
    return lines


def render_table(
    table: TableView, t: Translator, *, now: float | None = None, live: bool = False
) -> Rendered:
    """The public table message (no hand card): floor, seats with card counts, turn and
    time left (from ``now`` when given; ``live``: as a moment Discord counts down), deals
    left, scores, carried majority, last play;
    a "my hand" button. A finished round's last picture says where the leftovers went
    and has no button (the next round's message has it)."""
    buttons: tuple[tuple[Button, ...], ...] = ()
    if table.running and table.round_close is None:
        buttons = ((Button(t.gettext("My hand"), Action("hand", table.table_id, table.version), "primary"),),)
    mention: tuple[str, ...] = ()
    if table.running and table.to_move is not None and table.seats[table.to_move].player_id:
        mention = (table.seats[table.to_move].player_id or "",)
    return Rendered(Text.of(*_table_lines(t, table, None, now, live)), buttons, mention)


def render_round_start(table: TableView, t: Translator) -> Rendered:
    """A round's message where each hand shows the floor (a practice match in a private
    chat): which round it is, the score and who plays, and no floor, which the hand below
    shows and keeps up to date. So the message says nothing that the round's plays make
    untrue, and need not change until the round ends; "My hand" brings the hand back."""
    lines = [
        Line.of(Span(t.gettext("Basra · round {round}", round=table.round_no), bold=True)),
        Line.of(scores_line(t, table.seats, table.scores, table.rules.target)),
    ]
    if table.players == 4:
        lines.extend(Line.of(side_name(t, table.seats, team)) for team in (0, 1))
    # TRANSLATORS: on a practice round's message, above the player's hand message.
    lines.append(Line.of(t.gettext("Your hand below shows the floor and follows the game.")))
    buttons: tuple[tuple[Button, ...], ...] = ()
    if table.running and table.round_close is None:
        buttons = ((Button(t.gettext("My hand"), Action("hand", table.table_id, table.version), "primary"),),)
    return Rendered(Text.of(*lines), buttons)


# -- a hand ----------------------------------------------------------------------


def render_hand(
    hand: HandView, t: Translator, *, now: float | None = None, live: bool = False, turn: bool = True
) -> Rendered:
    """A private hand: floor, the hand as card buttons, scores and turn (and a hint
    button on your turn in a practice match); with a preview, the selected card's plans
    (numbered buttons when several), basra or "takes nothing", confirm and back. Without
    ``turn``, whose turn it is is left out (a notice above the hand says it already)."""
    table = hand.table
    lines = _table_lines(t, table, hand.seat, now, live, turn=turn)
    preview = hand.preview
    tid, version = table.table_id, table.version
    rows: list[tuple[Button, ...]] = []
    if table.running and hand.hand:  # an empty hand waits for the deal: nothing to list
        lines.append(Line.of(Span(t.gettext("Your hand: {cards}", cards=run_of(hand.hand)), bold=True)))
    if preview is None or not table.running:
        cards = [Button(card_label(c), Action("card", tid, version, card=c)) for c in hand.hand]
        rows.extend(tuple(cards[i : i + CARDS_PER_ROW]) for i in range(0, len(cards), CARDS_PER_ROW))
        if table.practice and hand.your_turn:
            # TRANSLATORS: button on a practice hand: what the computer would play here.
            rows.append((Button(t.gettext("Hint"), Action("hint", tid, version)),))
        return Rendered(Text.of(*lines), tuple(rows))
    card = card_label(preview.card)
    choice = preview.choice
    marked = choice.positions if choice is not None else ()
    lines.append(Line.of(""))
    lines.append(Line.of(Span(t.gettext("Selected: {card}", card=card), bold=True)))
    lines.append(Line.of(t.gettext("Floor: {cards}", cards=floor_text(t, table.floor, marked))))
    if not preview.plans:
        lines.append(Line.of(t.gettext("{card} takes nothing: it stays on the floor.", card=card)))
    else:
        for plan in preview.plans:
            mark = "▶ " if plan.number == preview.selected else "  "
            text = t.gettext("{number}) takes {cards}", number=plan.number, cards=run_of(plan.taken))
            if plan.basra:
                text += " · " + t.gettext("basra!")
            lines.append(Line.of(mark + text))
        if preview.selected == 0:
            lines.append(Line.of(t.gettext("{card} is laid on the floor without taking.", card=card)))
    if not hand.your_turn:
        lines.append(Line.of(t.gettext("Not your turn yet: you can look, not play.")))
    if len(preview.plans) > 1 or preview.can_lay:
        rows.extend(_plan_rows(t, preview, tid, version))
    rows.append(
        (
            Button(
                t.gettext("Play {card}", card=card),
                Action("play", tid, version, card=preview.card, plan=preview.selected),
                "success",
            ),
            Button(t.gettext("Back"), Action("back", tid, version)),
        )
    )
    return Rendered(Text.of(*lines), tuple(rows))


def _plan_rows(t: Translator, preview: Preview, tid: str, version: int) -> list[tuple[Button, ...]]:
    """A button per plan (and "Lay it"), the chosen one highlighted. When they outnumber
    ``PLAN_SLOTS``, the page holding the chosen plan, with buttons that choose the last plan
    of the page before or the first of the page after: every plan stays reachable."""

    def choose(number: int, label: str) -> Button:
        action = Action("plan", tid, version, card=preview.card, plan=number)
        return Button(label, action, "primary" if number == preview.selected else "secondary")

    numbers = [p.number for p in preview.plans] + ([0] if preview.can_lay else [])
    labels = {p.number: str(p.number) for p in preview.plans} | {0: t.gettext("Lay it")}
    shown: list[Button] = []
    if len(numbers) <= PLAN_SLOTS:
        shown = [choose(n, labels[n]) for n in numbers]
    else:
        size = PLAN_SLOTS - 2
        at = numbers.index(preview.selected) if preview.selected in numbers else 0
        first = at // size * size
        page = numbers[first : first + size]
        if first > 0:
            shown.append(choose(numbers[first - 1], t.gettext("Earlier plans")))
        shown.extend(choose(n, labels[n]) for n in page)
        if first + size < len(numbers):
            shown.append(choose(numbers[first + size], t.gettext("More plans")))
    return [tuple(shown[i : i + PLANS_PER_ROW]) for i in range(0, len(shown), PLANS_PER_ROW)]


def render_turn_notice(notice: YourTurn, t: Translator) -> Rendered:
    """The short "your turn" ping (the hand itself comes with ``render_hand``)."""
    table = notice.hand.table
    text = your_turn(t)
    if table.seconds_left is not None:
        text += " · " + t.gettext("{clock} left", clock=clock_text(table.seconds_left))
    button = Button(t.gettext("My hand"), Action("hand", table.table_id, table.version), "primary")
    return Rendered(Text.of(Line.of(Span(text, bold=True))), ((button,),), (notice.player_id,))


def render_warning(notice: ClockWarning, t: Translator) -> Rendered:
    """ "30 seconds left" for the player whose clock is running."""
    # TRANSLATORS: the turn-clock warning; {n} is seconds (30 by default).
    text = t.ngettext(
        "Hurry: {n} second left to play!", "Hurry: {n} seconds left to play!", notice.seconds_left
    )
    table = notice.hand.table
    button = Button(t.gettext("My hand"), Action("hand", table.table_id, table.version), "primary")
    return Rendered(Text.of(Line.of(Span(text, bold=True))), ((button,),), (notice.player_id,))
