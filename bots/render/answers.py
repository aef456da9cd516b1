"""Short answers: to a lobby press, for the presser alone (a Telegram toast, a Discord
ephemeral reply), to a card's press where the preview is its answer (``preview_answer``),
to ``/score`` while a match runs, and to ``/resign``.

The lobby message itself follows at the chat's pace (a group's table is
redrawn about every 3.4 s on Telegram), so the presser is told at once what the
press did, in words that name it: "You joined team A", "A computer (strong)
took seat 2". A player at a café table presses once and expects to hear
"you're in"; without it, he presses again, and a second press does something
else (Leave, another computer).
"""

from __future__ import annotations

from ..i18n import Translator, card_label
from ..i18n.words import deals_left, points_count, team_name
from ..service.views import HandView, LobbyView, TableView
from .common import run_of, scores_line, seat_name
from .markup import Line, Span, Text
from .rendered import Rendered
from .texts import _end_line


def lobby_answer(t: Translator, verb: str, view: LobbyView | TableView | None, player_id: str) -> str:
    """What the press of ``verb`` did, as the lobby (or the table it became) shows after it."""
    if verb == "start" or isinstance(view, TableView):
        # TRANSLATORS: toast after pressing Start in a lobby; the table follows in the chat.
        return t.gettext("The match is starting: the table comes in a moment.")
    if verb == "cancel" or view is None:
        # TRANSLATORS: toast after pressing Cancel in a lobby.
        return t.gettext("You cancelled this table.")
    if verb == "leave":
        # TRANSLATORS: toast after pressing Leave in a lobby.
        return t.gettext("You left the table.")
    if verb == "uncomputer":
        # TRANSLATORS: toast after pressing "Remove a computer" in a lobby.
        return t.gettext("A computer left the table.")
    if verb == "computer":
        computers = [s for s in view.seats if s.computer is not None]
        if not computers:
            return t.gettext("A computer left the table.")
        computer = computers[-1]
        if view.capacity == 4:
            # TRANSLATORS: toast after adding a computer to a 2-v-2 lobby; {name} is e.g.
            # "Computer (strong)", {team} "Team A".
            return t.gettext("{name} joined {team}.", name=seat_name(t, computer),
                             team=team_name(t, computer.team))
        # TRANSLATORS: toast after adding a computer to a lobby; {seat} is its seat's number.
        return t.gettext("{name} took seat {seat}.", name=seat_name(t, computer),
                         seat=view.seats.index(computer) + 1)
    seat = view.seat_of(player_id)
    if seat is None:
        return t.gettext("You left the table.")
    if view.capacity == 4:
        # TRANSLATORS: toast after joining (or changing team in) a 2-v-2 lobby.
        return t.gettext("You are in {team}.", team=team_name(t, seat.team))
    # TRANSLATORS: toast after joining a one-against-one lobby; {seat} of {seats}.
    return t.gettext("You are in: seat {seat} of {seats}.", seat=view.seats.index(seat) + 1,
                     seats=view.capacity)


def played_answer(card: str, t: Translator) -> str:
    """The answer to a press that played ``card``: the hand itself may wait a moment for the
    answer to the play to be drawn with it (practice, a group's 1-v-1).

    >>> from bots.i18n import translator
    >>> played_answer("7D", translator("en"))
    'You played \u20667♦\u2069.'
    """
    # TRANSLATORS: the answer to the press that played a card, e.g. "You played 7♦."
    return t.gettext("You played {card}.", card=card_label(card))


def preview_answer(hand: HandView, t: Translator) -> str | None:
    """A selected card's preview in a few words, for the answer to its press (a Telegram
    toast): what it would take (and a basra), or that it takes nothing; then that pressing it
    again plays it, or that it is not the presser's turn yet. None when the card offers a
    choice (several plans, or laying it instead of taking): that is chosen on the hand, a
    button a plan.

    >>> from bots.i18n import translator
    >>> from bots.service.views import PlanOption, Preview
    >>> class Hand:
    ...     your_turn = True
    ...     preview = Preview("7D", (PlanOption(1, ("5S", "2C"), (0, 1), True),), 1, False)
    >>> preview_answer(Hand(), translator("en"))
    '\\u20667♦\\u2069 takes \\u20665♠ 2♣\\u2069 · basra! Press \\u20667♦\\u2069 again to play it.'
    """
    preview = hand.preview
    if preview is None or len(preview.plans) > 1 or (preview.plans and preview.can_lay):
        return None
    card = card_label(preview.card)
    if preview.plans:
        plan = preview.plans[0]
        # TRANSLATORS: the answer to a card's press: what it would take, e.g. "7♦ takes 5♠ 2♣".
        said = t.gettext("{card} takes {cards}", card=card, cards=run_of(plan.taken))
        said += " · " + t.gettext("basra!") if plan.basra else "."
    else:
        said = t.gettext("{card} takes nothing: it stays on the floor.", card=card)
    if not hand.your_turn:
        then = t.gettext("Not your turn yet: you can look, not play.")
    else:
        # TRANSLATORS: after a card's preview in the answer to its press: a second press plays it.
        then = t.gettext("Press {card} again to play it.", card=card)
    return f"{said} {then}"


def render_score(table: TableView, t: Translator) -> Rendered:
    """The score of a running match, in a few lines and without buttons: a copy of the table
    would freeze at once (its "My hand" never follows), while the table itself is one message
    that stays live. Public: no hand card."""
    lines = [Line.of(Span(scores_line(t, table.seats, table.scores, table.rules.target), bold=True))]
    # TRANSLATORS: under the score of a running match: the round and the deals it still holds.
    lines.append(Line.of(t.gettext("Round {round} · {deals}", round=table.round_no,
                                   deals=deals_left(t, table.deals_left))))
    if table.carry:
        carried = t.gettext("Carried majority: {points} more", points=points_count(t, table.carry))
        lines.append(Line.of(carried))
    return Rendered(Text.of(*lines))


def render_resigned(table: TableView, t: Translator) -> Rendered:
    """The answer under ``/resign``: said there, where the player typed it, since the table
    message that shows the end may be far above (in a practice chat, above every hand)."""
    lines = [
        # TRANSLATORS: the reply to /resign; the match's end and its score follow.
        Line.of(Span(t.gettext("You resigned."), bold=True)),
        Line.of(_end_line(t, table)),
        Line.of(scores_line(t, table.seats, table.scores, table.rules.target)),
    ]
    return Rendered(Text.of(*lines))
