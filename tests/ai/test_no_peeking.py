"""A computer player decides from its seat's view alone: it cannot reach another
seat's hand or the order of the stock."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from bench.baseline import Baseline
from core import Card, Match, SeatView
from core.ai import Player, player
from core.ai.expert import Expert

from .positions import deck_with

# Dealer 1, so seat 0 gets the 1st, 3rd, 5th and 7th cards, seat 1 the others,
# then four floor cards (no jack or 7D among them).
SEAT_0 = ["5H", "9C", "KD", "2S"]
FLOOR = ["4C", "6D", "QS", "AH"]


def deck(seat_1: list[str], shift: int) -> list[Card]:
    top = [c for pair in zip(SEAT_0, seat_1, strict=True) for c in pair] + FLOOR
    return deck_with(" ".join(top), shift)


def twins() -> tuple[Match, Match]:
    """Two matches that seat 0 cannot tell apart: the same hand, floor and history,
    but another hand for seat 1 and another stock order."""
    a = Match.new(2, decks=[deck(["3H", "8S", "10C", "QH"], 0)], dealer=1)
    b = Match.new(2, decks=[deck(["JD", "7D", "10D", "AS"], 17)], dealer=1)
    return a, b


def test_the_twins_differ_only_where_seat_0_cannot_see() -> None:
    a, b = twins()
    assert a.view(0) == b.view(0)
    assert a.hand(1) != b.hand(1)


def searcher(level: str, seed: int) -> Player:
    """The level's player, with a small budget for the searching ones."""
    if level == "expert":
        return Expert(seed=seed, simulations=40)
    if level == "baseline":
        return Baseline(seed=seed, simulations=40)
    return player(level, seed=seed)


@pytest.mark.parametrize("level", ["beginner", "strong", "expert", "baseline"])
def test_the_choice_depends_only_on_the_view(level: str) -> None:
    a, b = twins()
    for seed in range(3):
        assert searcher(level, seed).choose(a.view(0)) == searcher(level, seed).choose(b.view(0))


def reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through references, not entering
    classes or modules (a class reaches every card through its registry)."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, type) or type(obj).__name__ == "module":
            continue
        seen[id(obj)] = obj
        todo.extend(gc.get_referents(obj))
    return list(seen.values())


def test_a_view_holds_no_reference_to_the_match() -> None:
    a, _ = twins()
    objects = reachable(a.view(0))
    assert not any(isinstance(o, Match) for o in objects)


def test_every_card_a_view_holds_was_seen_by_its_seat() -> None:
    a, _ = twins()
    bots = [player("strong"), player("strong")]
    for _ in range(11):
        seat = a.to_move
        assert seat is not None
        a.play(seat, *bots[seat].choose(a.view(seat)))
    view: SeatView = a.view(0)
    held = {o for o in reachable(view) if isinstance(o, Card)}
    seen: set[Any] = set(view.hand) | set(view.floor) | set(view.buried)
    for play in view.history:
        seen.add(play.card)
        seen.update(play.taken)
    assert held <= seen
    assert not held & set(a.hand(1))
