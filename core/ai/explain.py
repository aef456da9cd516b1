"""Turning a chosen move into a reason a person can read (see ``reasons``)."""

from __future__ import annotations

from collections.abc import Iterable

from ..cards import Card
from ..plans import is_basra, plan_positions_for
from ..view import SeatView
from .moves import Move
from .reasons import Reason


def floor_after(floor: tuple[Card, ...], move: Move) -> tuple[Card, ...]:
    """The floor once ``move`` is played."""
    if not move.plan:
        return (*floor, move.card)
    taken = set(move.taken)
    return tuple(c for c in floor if c not in taken)


def sweepers_of(floor: tuple[Card, ...], cards: Iterable[Card], view: SeatView) -> list[Card]:
    """The cards among ``cards`` that would make a basra on ``floor``."""
    out = []
    whole = len(floor)
    for card in cards:
        plans = plan_positions_for(card, floor)
        if plans and len(plans[0]) == whole and is_basra(card, floor, view.rules):
            out.append(card)
    return out


def describe(view: SeatView, move: Move) -> Reason:
    """The reason for playing ``move`` from ``view``: what it takes, what it leaves."""
    card = move.card
    if move.plan:
        taken = (*move.taken, card)
        if move.basra:
            return Reason("basra", {"card": card, "taken": move.taken, "points": move.points + 10})
        left = floor_after(view.floor, move)
        if not left:
            return Reason("sweep", {"card": card, "taken": move.taken, "points": move.points})
        if len(left) == 1:
            if not move.points:
                return Reason("take_lone_plain", {"taken": move.taken, "left": left[0]})
            return Reason("take_lone", {"taken": move.taken, "points": move.points, "left": left[0]})
        if move.points:
            return Reason("take_clean", {"taken": move.taken, "points": move.points})
        if sweepers_of(view.floor, view.unknown(), view) and not sweepers_of(left, view.unknown(), view):
            return Reason("take_deny", {"taken": move.taken})
        return Reason("take_majority", {"taken": move.taken, "cards": len(taken)})
    if len(view.hand) == 1:
        return Reason("only_card", {"card": card})
    if not view.floor:
        return Reason("lay_empty", {"card": card})
    kept = [c for c in view.hand if c.is_sweeper and c is not card]
    if kept and not card.is_sweeper:
        return Reason("lay_keep_sweeper", {"card": card, "sweeper": kept[0]})
    if not sweepers_of(floor_after(view.floor, move), view.unknown(), view):
        return Reason("lay_safe", {"card": card})
    return Reason("lay_low", {"card": card})
