"""Events: every accepted play yields them, and folding them rebuilds the match."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from core import Card, Match, Rules, event_from_dict, to_dict
from core.errors import RecordError
from core.events import is_public

from .helpers import codes, new_match, random_chooser

QUIET = "KC KD KH KS"


def full_match(seed: int, players: int = 2, rules: Rules | None = None) -> tuple[Match, list[Any]]:
    """A finished match and all of its events, opening ones first."""
    match = Match.new(players, rules, seed=seed)
    events: list[Any] = match.opening_events()
    choose = random_chooser(random.Random(seed))
    while match.to_move is not None:
        card, plan = choose(match)
        events.extend(match.play(match.to_move, card, plan))
    return match, events


MATCH, EVENTS = full_match(7)


def test_a_match_opens_with_match_started_round_started_and_the_first_deal() -> None:
    assert [e.kind for e in EVENTS[:3]] == ["match_started", "round_started", "dealt"]
    started = EVENTS[0]
    assert (started.players, started.dealer, started.rules) == (2, 0, {})
    assert len(EVENTS[1].deck) == 52


def test_a_card_played_event_names_seat_card_and_plan() -> None:
    match = new_match([QUIET, "6C 2D 9D 5D"], "AH 2H 3S 4D")
    played = match.play(1, "6C", 2)[0]
    assert (played.kind, played.seat, played.card, played.plan) == ("card_played", 1, "6C", 2)
    laid = match.play(0, "KC")[0]
    assert (laid.kind, laid.plan) == ("card_played", 0)


def test_a_cards_taken_event_names_the_cards_and_the_side() -> None:
    match = new_match([QUIET, "6C 2D 9D 5D"], "AH 2H 3S 4D")
    taken = match.play(1, "6C", 2)[1]
    assert (taken.kind, taken.seat, taken.side, taken.cards, taken.last) == (
        "cards_taken", 1, 1, ("2H", "4D"), False
    )


def test_a_basra_event_follows_the_capture() -> None:
    match = new_match([QUIET, "10S 2S 3S 4S"], "2C 3D 4H AS")
    events = match.play(1, "10S")
    basra = events[2]
    assert (basra.kind, basra.seat, basra.side, basra.card) == ("basra", 1, 1, "10S")


def test_a_deal_event_comes_with_the_play_that_emptied_the_hands() -> None:
    deals = [e for e in EVENTS if e.kind == "dealt"]
    assert [d.deal_no for d in deals if d.round_no == 1] == [1, 2, 3, 4, 5, 6]
    assert all(len(h) == 4 for d in deals for h in d.hands)
    assert all(d.floor == () for d in deals if d.deal_no > 1)
    assert all(len(d.floor) == 4 for d in deals if d.deal_no == 1)


def test_a_round_scored_event_gives_the_breakdown() -> None:
    scored = [e for e in EVENTS if e.kind == "round_scored"]
    assert len(scored) == len(MATCH.rounds)
    for event, summary in zip(scored, MATCH.rounds, strict=True):
        assert event.cards == summary.cards
        assert event.basras == summary.basras
        assert event.points == summary.points
        assert event.breakdown == (summary.breakdown[0].to_dict(), summary.breakdown[1].to_dict())
        assert set(event.breakdown[0]) == {"majority", "aces", "jacks", "two_clubs", "ten_diamonds", "basras"}
        assert (event.carry_in, event.carry_out) == (summary.carry_in, summary.carry_out)
    assert scored[-1].scores == MATCH.scores


def test_a_match_won_event_ends_the_match() -> None:
    assert EVENTS[-1].kind == "match_won"
    assert EVENTS[-1].side == MATCH.winner
    assert EVENTS[-1].scores == MATCH.scores
    assert [e.kind for e in EVENTS].count("match_won") == 1


def test_leftovers_at_the_end_of_a_round_are_a_cards_taken_event_marked_last() -> None:
    last = [e for e in EVENTS if e.kind == "cards_taken" and e.last]
    assert last
    assert all(e.seat == -1 for e in last)


@pytest.mark.parametrize("players", [2, 4])
def test_every_event_round_trips_through_json(players: int) -> None:
    events = [e for seed in (3, 4) for e in full_match(seed, players, Rules(target=100))[1]]
    kinds = set()
    for event in events:
        text = json.dumps(to_dict(event))
        assert event_from_dict(json.loads(text)) == event
        kinds.add(event.kind)
    assert kinds == {"match_started", "round_started", "dealt", "card_played", "cards_taken", "basra",
                     "round_scored", "match_won"}


@pytest.mark.parametrize("data", [{}, {"kind": "nothing"}, {"kind": "basra", "round_no": 1}, [], None])
def test_what_is_not_an_event_is_refused(data: Any) -> None:
    with pytest.raises(ValueError):
        event_from_dict(data)


def same_match(a: Match, b: Match) -> None:
    assert a.to_record() == b.to_record()
    assert (a.scores, a.winner, a.round_no, a.carry, a.to_move, a.rounds) == (
        b.scores, b.winner, b.round_no, b.carry, b.to_move, b.rounds
    )
    for seat in range(a.players):
        assert a.view(seat) == b.view(seat)


@pytest.mark.parametrize(("seed", "players"), [(7, 2), (4, 4)])
def test_folding_the_events_of_a_match_reproduces_it(seed: int, players: int) -> None:
    match, events = full_match(seed, players)
    same_match(Match.from_events(events), match)
    same_match(Match.from_events([json.loads(json.dumps(to_dict(e))) for e in events]), match)


def test_folding_the_events_of_a_match_in_progress_reproduces_it() -> None:
    match, events = full_match(5)
    cut = next(i for i, e in enumerate(events) if e.kind == "round_scored") + 10
    while events[cut].kind != "card_played":
        cut += 1
    partial = Match.from_events(events[:cut])
    assert partial.round_no == 2
    assert partial.to_move is not None
    record = partial.to_record()
    assert record["plays"] == match.to_record()["plays"][: len(record["plays"])]


def test_events_that_do_not_follow_from_the_rules_are_refused() -> None:
    match = new_match([QUIET, "6C 2D 9D 5D"], "AH 2H 3S 4D")
    events = match.opening_events() + match.play(1, "6C", 2)
    forged = list(events)
    taken = forged[-1]
    forged[-1] = taken._replace(cards=("AH", "3S"))
    with pytest.raises(RecordError):
        Match.from_events(forged)
    with pytest.raises(RecordError):
        Match.from_events(events[1:])


def test_only_round_started_and_dealt_events_are_secret() -> None:
    kinds = {e.kind for e in EVENTS if not is_public(e)}
    assert kinds == {"round_started", "dealt"}


def test_public_events_carry_no_hidden_card() -> None:
    """A public event names only the card just played and cards that lay on the floor."""
    for seed, players in ((11, 2), (12, 4)):
        match = Match.new(players, Rules(optional_capture=True), seed=seed)
        choose = random_chooser(random.Random(seed))
        while match.to_move is not None:
            seen = set(codes(match.floor))
            card, plan = choose(match)
            seen.add(card.code)
            for event in match.play(match.to_move, card, plan):
                if not is_public(event):
                    continue
                named = {c for c in strings(to_dict(event)) if is_card(c)}
                assert named <= seen, (event.kind, named - seen)


def test_secret_events_carry_the_hidden_cards() -> None:
    started = EVENTS[1]
    assert sorted(started.deck) == sorted(c.code for c in Card.deck())
    first_deal = EVENTS[2]
    assert all(len(hand) == 4 for hand in first_deal.hands)


def strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in strings(v)]
    if isinstance(value, (list, tuple)):
        return [s for v in value for s in strings(v)]
    return []


def is_card(text: str) -> bool:
    try:
        Card.parse(text)
    except ValueError:
        return False
    return True
