"""Invariants of the engine under random legal play (hypothesis)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest
from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from core import Card, IllegalPlay, Match, Rules
from core.view import PublicPlay

from .helpers import legal_plays

DEFAULT = Rules()
SMALL = Rules(majority_points=3, majority_tie="split")
OPTIONAL = Rules(optional_capture=True)
VARIANTS = [DEFAULT, Rules(target=100), SMALL, OPTIONAL, Rules(seven_diamonds_basra="count")]

players_st = st.sampled_from([2, 4])
rules_st = st.sampled_from(VARIANTS)


def random_play(match: Match, rng: random.Random) -> list[Any]:
    card, plan = rng.choice(legal_plays(match))
    assert match.to_move is not None
    return match.play(match.to_move, card, plan)


def start(players: int, rules: Rules, rng: random.Random) -> Match:
    return Match.new(players, rules, seed=rng.randrange(1 << 30), dealer=rng.randrange(players))


def stock_cards(match: Match) -> set[Card]:
    """Every card not in a hand, on the floor or in a pile: the stock."""
    known = set(match.floor)
    for seat in range(match.players):
        known.update(match.hand(seat))
    for pile in match.piles:
        known.update(pile)
    return set(Card.deck()) - known


def check_52_cards(match: Match) -> None:
    held = [c for seat in range(match.players) for c in match.hand(seat)]
    piles = [c for pile in match.piles for c in pile]
    everywhere = held + list(match.floor) + piles
    assert len(set(everywhere)) == len(everywhere)
    assert len(everywhere) + match.stock_count == 52


@settings(max_examples=25, deadline=None)
@given(players_st, rules_st, st.randoms(use_true_random=False))
def test_the_52_cards_are_always_all_accounted_for(players: int, rules: Rules, rng: random.Random) -> None:
    match = start(players, rules, rng)
    check_52_cards(match)
    for _ in range(rng.randrange(48, 150)):
        if match.to_move is None:
            break
        random_play(match, rng)
        check_52_cards(match)


@settings(max_examples=20, deadline=None)
@given(players_st, st.sampled_from([r for r in VARIANTS if r.majority_points == 30]),
       st.randoms(use_true_random=False))
def test_every_round_hands_out_43_points_plus_10_per_basra_plus_the_carried_majority(
    players: int, rules: Rules, rng: random.Random
) -> None:
    match = start(players, rules, rng)
    while match.to_move is not None and len(match.rounds) < 3:
        random_play(match, rng)
    carry = 0
    for r in match.rounds:
        assert r.carry_in == carry
        assert sum(r.points) + r.carry_out == 43 + 10 * sum(r.basras) + r.carry_in
        assert sum(r.cards) == 52
        carry = r.carry_out


@settings(max_examples=15, deadline=None)
@given(players_st, st.randoms(use_true_random=False))
def test_with_small_majority_every_round_hands_out_16_points_plus_10_per_basra_3_more_on_a_tie(
    players: int, rng: random.Random
) -> None:
    match = start(players, SMALL, rng)
    while match.to_move is not None and len(match.rounds) < 3:
        random_play(match, rng)
    for r in match.rounds:
        tie = r.cards == (26, 26)
        assert sum(r.points) == 16 + (3 if tie else 0) + 10 * sum(r.basras)
        assert r.carry_in == r.carry_out == 0


def same_state(live: Match, replayed: Match) -> None:
    assert replayed.to_record() == live.to_record()
    assert (replayed.scores, replayed.floor, replayed.to_move, replayed.round_no, replayed.carry,
            replayed.winner, replayed.stock_count, replayed.piles, replayed.rounds) == (
        live.scores, live.floor, live.to_move, live.round_no, live.carry,
        live.winner, live.stock_count, live.piles, live.rounds)
    for seat in range(live.players):
        assert replayed.hand(seat) == live.hand(seat)
        assert replayed.view(seat) == live.view(seat)


def replay_property(players: int, rules: Rules, rng: random.Random) -> None:
    match = start(players, rules, rng)
    for _ in range(rng.randrange(1, 200)):
        if match.to_move is None:
            break
        random_play(match, rng)
    same_state(match, Match.from_record(match.to_record()))


@settings(max_examples=25, deadline=None)
@given(players_st, st.sampled_from([r for r in VARIANTS if not r.optional_capture]),
       st.randoms(use_true_random=False))
def test_a_replayed_record_equals_the_live_match(players: int, rules: Rules, rng: random.Random) -> None:
    replay_property(players, rules, rng)


@settings(max_examples=25, deadline=None, derandomize=True, phases=[Phase.generate])
@given(players_st, st.randoms(use_true_random=False))
def test_a_replayed_record_equals_the_live_match_with_optional_capture(
    players: int, rng: random.Random
) -> None:
    replay_property(players, OPTIONAL, rng)


@settings(max_examples=20, deadline=None)
@given(players_st, rules_st, st.randoms(use_true_random=False))
def test_folded_events_equal_the_live_match(players: int, rules: Rules, rng: random.Random) -> None:
    match = start(players, rules, rng)
    events = match.opening_events()
    for _ in range(rng.randrange(1, 200)):
        if match.to_move is None:
            break
        events.extend(random_play(match, rng))
    same_state(match, Match.from_events(events))


def snapshot(match: Match) -> tuple[Any, ...]:
    return (
        match.to_record(),
        [match.view(seat) for seat in range(match.players)],
        [match.hand(seat) for seat in range(match.players)],
        match.floor,
        match.piles,
        match.to_move,
        match.stock_count,
    )


def illegal_attempts(match: Match, rng: random.Random) -> list[tuple[Any, Any, Any]]:
    seat = match.to_move
    attempts: list[tuple[Any, Any, Any]] = []
    if seat is None:
        return [(s, rng.choice(Card.deck()), None) for s in range(match.players)]
    hand = match.hand(seat)
    others = [c for c in Card.deck() if c not in hand]
    attempts.append(((seat + 1) % match.players, rng.choice(hand), None))  # not this seat's turn
    attempts.append((seat, rng.choice(others), None))  # not in hand
    attempts.append((seat, "11X", None))  # not a card
    attempts.append((match.players, rng.choice(hand), None))  # no such seat
    card = rng.choice(hand)
    plans = match.plans(card)
    attempts.append((seat, card, len(plans) + 1))  # no such plan
    attempts.append((seat, card, -1))
    if plans and not match.rules.optional_capture:
        attempts.append((seat, card, 0))  # forced capture refused
    return attempts


@settings(max_examples=25, deadline=None)
@given(players_st, rules_st, st.randoms(use_true_random=False))
def test_a_refused_play_changes_nothing(players: int, rules: Rules, rng: random.Random) -> None:
    match = start(players, rules, rng)
    for _ in range(rng.randrange(0, 300)):
        if match.to_move is None:
            break
        random_play(match, rng)
    before = snapshot(match)
    for seat, card, plan in illegal_attempts(match, rng):
        with pytest.raises(IllegalPlay):
            match.play(seat, card, plan)
        assert snapshot(match) == before
    if match.to_move is not None:
        random_play(match, rng)  # and the match goes on


def cards_in(value: Any, current_round: int) -> set[Card]:
    """Every card reachable from a view's attributes, skipping plays of earlier rounds
    (those cards have been shuffled into this round's deck)."""
    if isinstance(value, Card):
        return {value}
    if isinstance(value, PublicPlay) and value.round_no < current_round:
        return set()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = dataclasses.fields(value)
        return set().union(*(cards_in(getattr(value, f.name), current_round) for f in fields))
    if isinstance(value, dict):
        return set().union(*(cards_in(v, current_round) for v in value.values()), set())
    if isinstance(value, (tuple, list, set, frozenset)):
        return set().union(*(cards_in(v, current_round) for v in value), set())
    return set()


def leaked(match: Match, seat: int, view: Any) -> set[Card]:
    """Cards in ``view`` that sit in another seat's hand or in the stock."""
    seen = cards_in(view, match.round_no)
    hidden = stock_cards(match)
    for other in range(match.players):
        if other != seat:
            hidden.update(match.hand(other))
    # The jacks and 7D turned up at the deal and put under the stock were seen
    # by everyone; they are no secret of the seat that later gets them.
    return (seen & hidden) - set(view.buried)


def check_views(match: Match) -> None:
    for seat in range(match.players):
        view = match.view(seat)
        assert not leaked(match, seat, view)
        assert view.hand == match.hand(seat)


def test_the_view_check_finds_a_card_of_another_hand() -> None:
    match = Match.new(2, seed=1)
    view = match.view(0)
    assert leaked(match, 0, dataclasses.replace(view, hand=match.hand(1)))
    peek = PublicPlay(1, 1, match.hand(1)[0], (), False)
    assert leaked(match, 0, dataclasses.replace(view, history=(peek,)))
    assert not leaked(match, 0, view)


@settings(max_examples=15, deadline=None)
@given(players_st, rules_st, st.randoms(use_true_random=False))
def test_a_view_never_holds_another_seats_card_or_the_stock(
    players: int, rules: Rules, rng: random.Random
) -> None:
    match = start(players, rules, rng)
    check_views(match)
    for _ in range(rng.randrange(10, 120)):
        if match.to_move is None:
            break
        random_play(match, rng)
        check_views(match)


@settings(max_examples=30, deadline=None)
@given(players_st, rules_st, st.randoms(use_true_random=False))
def test_random_legal_plays_never_crash_and_matches_finish(
    players: int, rules: Rules, rng: random.Random
) -> None:
    match = start(players, rules, rng)
    plays = 0
    while match.to_move is not None:
        assert plays < 48 * 60, "the match does not end"
        seat = match.to_move
        events = random_play(match, rng)
        assert events and events[0].kind == "card_played" and events[0].seat == seat
        plays += 1
    assert match.winner in (0, 1)
    assert plays == 48 * len(match.rounds)
    a, b = match.scores
    assert max(a, b) >= rules.target and a != b
    assert match.winner == (0 if a > b else 1)
