"""Views as the page's JSON frames: every word translated here, cards as their codes.

A seat's frame (``hand_frame``) is made from that seat's ``HandView`` and the
service's previews of each card in its hand; a watcher's (``watch_frame``) from
the public ``TableView`` alone, so it cannot hold a hand card. The page draws
cards from their codes (``10D``) and shows the texts as given: runs of cards in
them are already in left-to-right isolates (``bots.i18n``), so Arabic text
around them cannot reorder them. The floor and the hand are lists in floor
order and hand order, the same in both languages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..i18n import Translator, card_label, cards_text
from ..i18n.words import card_name, cards_count, deals_left, points_count, team_name, turn_of, your_turn
from ..render import render_match_result, render_round_result
from ..render.common import scores_line, seat_name, side_name
from ..render.markup import Text
from ..render.texts import describe_play
from ..service import HandView, MatchResultView, Preview, RoundResultView, TableView

Frame = dict[str, Any]
Result = RoundResultView | MatchResultView


def page_texts(t: Translator) -> dict[str, str]:
    """The page's own words, in the reader's language (the page has none of its own)."""
    return {
        # TRANSLATORS: the web page's title, and the Mini App's name in Telegram.
        "title": t.gettext("Basra table"),
        # TRANSLATORS: heading of the cards on the table, on the web page.
        "floor": t.gettext("The floor"),
        # TRANSLATORS: heading of the player's own cards, on the web page.
        "hand": t.gettext("Your cards"),
        # TRANSLATORS: on the web page, after a card is lifted.
        "again": t.gettext("Touch it again, or touch the floor, to play it."),
        # TRANSLATORS: on the web page, when a lifted card has several capture plans.
        "choose": t.gettext("Choose what it takes:"),
        "not_turn": t.gettext("Not your turn yet: you can look, not play."),
        # TRANSLATORS: on the web page while it connects again to the server.
        "reconnecting": t.gettext("Connecting again…"),
        # TRANSLATORS: on the watching page: the public table, nobody's cards.
        "watching": t.gettext("Watching the table: nobody's cards are shown."),
        # TRANSLATORS: closes a round's or match's result on the web page.
        "ok": t.gettext("OK"),
        # TRANSLATORS: on the web page, the turn clock; {clock} is like 1:05.
        "clock": t.gettext("{clock} left", clock="{clock}"),
        # TRANSLATORS: what a screen reader says of a floor card the lifted card would take.
        "taken": t.gettext("would be taken"),
        # TRANSLATORS: what a screen reader says of a lifted card in the hand.
        "lifted": t.gettext("lifted"),
        # TRANSLATORS: button on the web page that plays the lifted card without taking.
        "lay": t.gettext("Lay it"),
        # TRANSLATORS: on the web page, a floor with no card on it.
        "empty": t.pgettext("floor", "empty"),
        "gone": t.gettext("This link is not valid any more. Open the table again from your hand."),
    }


def _seats(t: Translator, table: TableView, viewer: int | None) -> list[Frame]:
    seats = []
    for seat in table.seats:
        name = seat_name(t, seat)
        if table.players == 4 and viewer is not None and seat.seat == (viewer + 2) % 4:
            label = t.gettext("{name} (your partner)", name=name)
        elif table.players == 4:
            label = t.gettext("{name} ({team})", name=name, team=team_name(t, seat.team))
        else:
            label = name
        seats.append({
            "seat": seat.seat,
            "name": label,
            "cards": seat.cards,
            "count": t.gettext("{name}: {cards}", name=label, cards=cards_count(t, seat.cards)),
            "turn": table.running and table.to_move == seat.seat and table.round_close is None,
            "you": seat.seat == viewer,
        })
    return seats


def _turn(t: Translator, table: TableView, viewer: int | None) -> str:
    if not table.running or table.to_move is None or table.round_close is not None:
        return ""
    if table.to_move == viewer:
        return your_turn(t)
    seat = table.seats[table.to_move]
    if seat.computer is not None:
        return t.gettext("{name} is thinking…", name=seat_name(t, seat))
    return turn_of(t, seat.name or "?")


def _status(t: Translator, table: TableView) -> list[str]:
    """The bar above the floor: round, deals left, carried majority, scores."""
    items = [t.gettext("Basra · round {round}", round=table.round_no)]
    if table.running and table.round_close is None:
        items.append(deals_left(t, table.deals_left))
    if table.carry:
        items.append(t.gettext("Carried majority: {points} more", points=points_count(t, table.carry)))
    items.append(scores_line(t, table.seats, table.scores, table.rules.target))
    return items


def _lines(text: Text) -> list[Frame]:
    return [{"text": line.plain(), "bold": any(s.bold for s in line.spans)} for line in text.lines]


def result_frame(t: Translator, results: Sequence[Result]) -> Frame | None:
    """The last round's result (and the match's, when it ended with it), to show over the
    table until dismissed."""
    if not results:
        return None
    lines: list[Frame] = []
    for result in results:
        if lines:
            lines.append({"text": "", "bold": False})
        if isinstance(result, MatchResultView):
            lines += _lines(render_match_result(result, t).text)
        else:
            lines += _lines(render_round_result(result, t).text)
    last = results[-1]
    key = f"m{last.version}" if isinstance(last, MatchResultView) else f"r{last.round_no}"
    return {"id": f"{last.table_id}:{key}", "lines": lines}


def table_frame(t: Translator, table: TableView, viewer: int | None, now: float,
                result: Sequence[Result]) -> Frame:
    """What every page of the table shows, public: floor, seats, bar, last play, turn."""
    last = describe_play(t, table, table.last_play) if table.last_play is not None else ""
    end = ""
    if not table.running:
        if table.status == "expired":
            end = t.gettext("Practice match closed after a day without play.")
        elif table.winner is None:
            end = t.gettext("The match is over.")
        else:
            end = t.gettext("The match is over: {side} won.", side=side_name(t, table.seats, table.winner))
    return {
        "lang": t.lang,
        "dir": "rtl" if t.rtl else "ltr",
        "texts": page_texts(t),
        "table": table.table_id,
        "version": table.version,
        "running": table.running,
        "floor": list(table.floor),
        "names": {c: card_name(t, c) for c in table.floor},
        "seats": _seats(t, table, viewer),
        "status": _status(t, table),
        "turn": _turn(t, table, viewer),
        "deadline": table.deadline if table.running else None,
        "now": now,
        "last": last,
        "end": end,
        "result": result_frame(t, result),
    }


def _preview(t: Translator, preview: Preview) -> Frame:
    card = card_label(preview.card)
    plans = []
    for plan in preview.plans:
        text = t.gettext("{number}) takes {cards}", number=plan.number, cards=cards_text(plan.taken))
        if plan.basra:
            text += " · " + t.gettext("basra!")
        plans.append({"n": plan.number, "pos": list(plan.positions), "basra": plan.basra, "text": text})
    return {
        "plans": plans,
        "selected": preview.selected,
        "lay": preview.can_lay,
        "nothing": t.gettext("{card} takes nothing: it stays on the floor.", card=card) if not plans else "",
        "play": t.gettext("Play {card}", card=card),
    }


def hand_frame(t: Translator, hand: HandView, previews: Mapping[str, Preview], now: float,
               result: Sequence[Result]) -> Frame:
    """One seat's page: the public table, its own hand, and what each of its cards would take."""
    frame = table_frame(t, hand.table, hand.seat, now, result)
    frame["seat"] = hand.seat
    frame["your_turn"] = hand.your_turn and hand.table.round_close is None
    frame["hand"] = list(hand.hand)
    frame["names"].update({c: card_name(t, c) for c in hand.hand})
    frame["previews"] = {card: _preview(t, preview) for card, preview in previews.items()}
    return frame


def watch_frame(t: Translator, table: TableView, now: float, result: Sequence[Result]) -> Frame:
    """The public table for a watcher: no hand, no preview."""
    frame = table_frame(t, table, None, now, result)
    frame["watching"] = True
    return frame


def error_frame(text: str) -> Frame:
    return {"type": "refused", "text": text}
