"""Bad input to the engine's public API: whatever it is, a BasraError comes out,
with a short one-line message, and the same class compiled and from source.

The random values come from hypothesis; the extreme ones (a number too long
to write out, a list nested ten thousand deep, two megabytes of text, an
object whose repr fails) are tried on every entry point by name.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import core
from core import (
    BadArgument,
    BasraError,
    Card,
    IllegalPlay,
    Match,
    RecordError,
    Rules,
    capture_plans,
    event_from_dict,
    to_dict,
)
from core import compiled as compiled_engine
from core.ai import player
from core.cards import format_cards, parse_cards
from core.errors import shown
from core.events import EVENT_TYPES, SHAPES

MESSAGE_LIMIT = 200
BASRA_ERRORS = (
    "BasraError", "BadArgument", "IllegalPlay", "RecordError",
    "MatchIsOver", "MustTake", "NoSuchPlan", "NotInHand", "NotTheirTurn",
)


def played(seed: int = 4, plays: int = 12) -> Match:
    match = Match.new(2, seed=seed)
    for _ in range(plays):
        assert match.to_move is not None
        seat = match.to_move
        card = match.hand(seat)[-1]
        plans = match.plans(card)
        match.play(seat, card, len(plans) if plans else None)
    return match


MATCH = played()
RECORD = MATCH.to_record()
EVENT_DICTS = [to_dict(e) for e in MATCH.opening_events()]
_replay = Match.new(2, decks=RECORD["decks"])
for _play in RECORD["plays"]:
    _text, _, _plan = _play.partition("/")
    assert _replay.to_move is not None
    EVENT_DICTS += [to_dict(e) for e in _replay.play(_replay.to_move, _text, int(_plan) if _plan else None)]
DECK = list(Card.deck())
FLOOR = [Card.parse(c) for c in ("AH", "2H", "3S", "4D")]
CARD = Card.parse("6C")


def fresh() -> Match:
    return Match.from_record(RECORD)


class Unshowable:
    """An argument whose repr and str fail."""

    def __repr__(self) -> str:
        raise RuntimeError("no repr")

    __str__ = __repr__


def nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


HUGE = 10**5000  # Python will not write it out: more than 4,300 digits
EXTREMES: dict[str, object] = {
    "huge number": HUGE,
    "huge negative number": -HUGE,
    "deep list": nested(10_000),
    "deep dict": {"kind": nested(10_000)},
    "2 MB of text": "5S" * 1_000_000,
    "2 MB of bytes": b"\xff" * 2_000_000,
    "unshowable": Unshowable(),
    "list of unshowables": [Unshowable()] * 52,
    "nan": float("nan"),
    "a type": int,
    "a function": len,
    "a set": {1, 2},
    "a match": MATCH,
}


# Every public entry point, given one bad value where an argument goes.
def _record_with(key: str) -> Callable[[object], object]:
    return lambda v: Match.from_record({**RECORD, key: v})


def _event_with(kind_index: int, field: str) -> Callable[[object], object]:
    base = next(e for e in EVENT_DICTS if e["kind"] == list(EVENT_TYPES)[kind_index])
    return lambda v: event_from_dict({**base, field: v})


ENTRY_POINTS: dict[str, Callable[[object], object]] = {
    "Match.new players": lambda v: Match.new(v),
    "Match.new rules": lambda v: Match.new(2, v),
    "Match.new seed": lambda v: Match.new(2, seed=v),
    "Match.new decks": lambda v: Match.new(2, decks=v),
    "Match.new a deck": lambda v: Match.new(2, decks=[v]),
    "Match.new a deck's card": lambda v: Match.new(4, decks=[[*DECK[:51], v]]),
    "Match.new dealer": lambda v: Match.new(2, dealer=v),
    "Rules target": lambda v: Rules(target=v),  # type: ignore[arg-type]
    "Rules majority_points": lambda v: Rules(majority_points=v),  # type: ignore[arg-type]
    "Rules majority_tie": lambda v: Rules(majority_tie=v),  # type: ignore[arg-type]
    "Rules optional_capture": lambda v: Rules(optional_capture=v),  # type: ignore[arg-type]
    "Rules seven_diamonds_basra": lambda v: Rules(seven_diamonds_basra=v),  # type: ignore[arg-type]
    "Rules.from_dict": lambda v: Rules.from_dict(v),
    "Rules.from_dict a field": lambda v: Rules.from_dict({"target": v}),
    "Rules.from_dict a name": lambda v: Rules.from_dict({v: 1} if _hashable(v) else {"x": v}),
    "Rules.preset": lambda v: Rules.preset(v),
    "Rules.with_changes": lambda v: Rules().with_changes(majority_tie=v),
    "Card.parse": lambda v: Card.parse(v),
    "Card.of": lambda v: Card.of(v),
    "parse_cards": lambda v: parse_cards(v),
    "parse_cards an item": lambda v: parse_cards(["5S", v]),
    "format_cards": lambda v: format_cards(v),  # type: ignore[arg-type]
    "format_cards an item": lambda v: format_cards([CARD, v]),  # type: ignore[list-item]
    "capture_plans card": lambda v: capture_plans(v, FLOOR),
    "capture_plans floor": lambda v: capture_plans(CARD, v),
    "capture_plans a floor card": lambda v: capture_plans(CARD, [*FLOOR, v]),
    "capture_plans rules": lambda v: capture_plans(CARD, FLOOR, v),
    "event_from_dict": lambda v: event_from_dict(v),
    "event_from_dict kind": lambda v: event_from_dict({**EVENT_DICTS[-1], "kind": v}),
    **{
        f"event_from_dict {kind}.{field}": _event_with(i, field)
        for i, (kind, cls) in enumerate(EVENT_TYPES.items())
        for field in cls.fields
        if any(e["kind"] == kind for e in EVENT_DICTS)
    },
    "to_dict": lambda v: to_dict(v),
    "Match.from_record": lambda v: Match.from_record(v),
    **{
        f"Match.from_record {key}": _record_with(key)
        for key in ("format", "players", "dealer", "decks", "plays", "rules", "seed")
    },
    "Match.from_record a play": lambda v: Match.from_record({**RECORD, "plays": [*RECORD["plays"][:3], v]}),
    "Match.from_record a deck": lambda v: Match.from_record({**RECORD, "decks": [v]}),
    "Match.from_events": lambda v: Match.from_events(v),
    "Match.from_events an event": lambda v: Match.from_events([*EVENT_DICTS[:5], v]),
    "Match.from_events a field": lambda v: Match.from_events(
        [*EVENT_DICTS[:3], {**EVENT_DICTS[3], "card": v}, *EVENT_DICTS[4:]]
    ),
    "Match.hand": lambda v: fresh().hand(v),
    "Match.plans": lambda v: fresh().plans(v),
    "Match.view": lambda v: fresh().view(v),
    "Match.play seat": lambda v: fresh().play(v, "5S"),
    "Match.play card": lambda v: (lambda m: m.play(m.to_move, v))(fresh()),
    "Match.play plan": lambda v: (lambda m: m.play(m.to_move, m.hand(m.to_move)[0], v))(fresh()),
    "SeatView.plans": lambda v: fresh().view(0).plans(v),  # type: ignore[arg-type]
    "ai.player": lambda v: player(v),
}


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def call(entry: str, value: object) -> BasraError | None:
    """Call an entry point; anything but a BasraError fails the test."""
    try:
        ENTRY_POINTS[entry](value)
    except BasraError as exc:
        message = str(exc)
        assert "\n" not in message and len(message) <= MESSAGE_LIMIT, (entry, message)
        return exc
    return None


# -- the named cases ---------------------------------------------------------


@pytest.mark.parametrize("extreme", sorted(EXTREMES))
def test_an_extreme_value_anywhere_is_a_basra_error_with_a_short_message(extreme: str) -> None:
    for entry in ENTRY_POINTS:
        call(entry, EXTREMES[extreme])


# What each bad input named in the issue now raises, compiled and from source.
KNOWN: dict[str, tuple[type[BasraError], str]] = {
    "Match.new(rules=5)": (BadArgument, "rules must be a Rules, not 5"),
    "Match.new(rules='default')": (BadArgument, "rules must be a Rules, not 'default'"),
    "Match.new(2, decks=5)": (BadArgument, "decks must be a list of decks of 52 cards, not 5"),
    "Match.new(2, decks='5S')": (BadArgument, "decks must be a list of decks of 52 cards, not '5S'"),
    "Match.new(2, decks=[5])": (BadArgument, "deck 1: must be a list of 52 cards, not 5"),
    "Match.new(2, decks=[DECK[:51]])": (
        BadArgument, "deck 1: must hold each of the 52 cards once (it holds 51)"
    ),
    "Match.new(2, decks=[[5] * 52])": (BadArgument, "deck 1: not a card: 5"),
    "Match.new(2, seed=[])": (
        BadArgument, "seed must be a string or a number of up to 100 digits, not []"
    ),
    "Match.new(2, seed=10**5000)": (
        BadArgument, "seed must be a string or a number of up to 100 digits, not <a 16610-bit number>"
    ),
    "Match.new(3)": (BadArgument, "a match has 2 or 4 players, not 3"),
    "Match.new(2, dealer=2)": (BadArgument, "dealer must be a seat from 0 to 1, not 2"),
    "Rules.preset([])": (BadArgument, "unknown rules preset []"),
    "Rules.preset('jokers')": (BadArgument, "unknown rules preset 'jokers'"),
    "Rules.from_dict({1: 0})": (BadArgument, "bad rules: unknown field 1"),
    "Rules.from_dict({1: 0, 'target': 5})": (BadArgument, "bad rules: unknown field 1"),
    "Rules.from_dict([])": (BadArgument, "bad rules: expected an object, got []"),
    "Rules(target=10**5000)": (
        BadArgument, "bad rules: target must be a whole number from 1 to 1,000,000, not <a 16610-bit number>"
    ),
    "Rules().with_changes(jokers=True)": (BadArgument, "bad rules: unknown field 'jokers'"),
    "Match.from_events(None)": (RecordError, "events must be a list of events, not None"),
    "Match.from_events([None])": (RecordError, "event 1: not an event: None"),
    "Match.from_events([{'kind': 'dealt'}])": (RecordError, "event 1: bad dealt event: no 'round_no'"),
    "Match.from_record([])": (RecordError, "a record must be a JSON object"),
    "Match.from_record(None)": (RecordError, "a record must be a JSON object"),
    "Match.from_record({**RECORD, 'plays': ['5S/' + '9' * 5000]})": (
        RecordError, "play 1 '5S/99999999999999…999999999999999999': no such plan (5,000 digits)"
    ),
    "capture_plans(5, [])": (BadArgument, "not a card: 5"),
    "capture_plans(CARD, [CARD, 5])": (BadArgument, "floor: not a card: 5"),
    "capture_plans(CARD, FLOOR * 2)": (BadArgument, "floor: the same card twice"),
    "capture_plans(CARD, FLOOR, 'default')": (BadArgument, "rules must be a Rules, not 'default'"),
    "Card.parse(5)": (BadArgument, "not a card: 5"),
    "Card.parse('11D')": (BadArgument, "not a card: '11D'"),
    "event_from_dict([])": (RecordError, "not an event: []"),
    "event_from_dict({'kind': 'basra', 'round_no': 1, 'seat': 0, 'side': 0, 'card': 5})": (
        RecordError, "bad basra event: 'card' cannot be 5"
    ),
    "to_dict(5)": (BadArgument, "not an event: 5"),
    "fresh().play(0, 'ZZ')": (IllegalPlay, "illegal play 'ZZ': not a card"),
    "fresh().play(1, '2H', 10**5000)": (
        core.NoSuchPlan, "illegal play '2H/<a 16610-bit number>': no such plan (it has 0)"
    ),
    "fresh().hand(10**5000)": (IllegalPlay, "no seat <a 16610-bit number> in a 2-player match"),
    "player([])": (BadArgument, "unknown computer level [] (one of beginner, strong, expert)"),
}


def outcome(run: Callable[[object], object], value: object) -> list[str]:
    try:
        run(value)
    except Exception as exc:
        return [type(exc).__name__, str(exc)]
    return ["nothing", ""]


def known_outcomes() -> dict[str, list[str]]:
    """What each known case raises here: its class and message."""
    namespace = {**globals(), "core": core}
    return {case: outcome(lambda text: eval(str(text), namespace), case) for case in KNOWN}


def random_json(rng: random.Random, depth: int = 0) -> object:
    """A JSON value, often near what the engine expects."""
    pick = rng.randrange(12 if depth < 3 else 8)
    if pick == 0:
        return None
    if pick == 1:
        return rng.random() < 0.5
    if pick == 2:
        return rng.randrange(-5, 60)
    if pick == 3:
        return rng.choice([10**30, -1, 2.5, float("inf")])
    if pick == 4:
        return rng.choice(CODES) + rng.choice(["", "", "/1", "/0", "/7", "/x"])
    if pick == 5:
        return rng.choice(NAMES)
    if pick == 6:
        return "".join(rng.choice("5S/ 1♦x") for _ in range(rng.randrange(4)))
    if pick == 7:
        return rng.choice([RECORD["plays"], RECORD["decks"], EVENT_DICTS[rng.randrange(len(EVENT_DICTS))]])
    if pick in (8, 9):
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(5))]
    return {rng.choice(NAMES): random_json(rng, depth + 1) for _ in range(rng.randrange(5))}


def sampled_outcomes(count: int = 600) -> list[list[str]]:
    """Random JSON values at random entry points, the same in every process."""
    rng = random.Random(2026)
    entries = sorted(ENTRY_POINTS)
    out = []
    for _ in range(count):
        entry, value = rng.choice(entries), random_json(rng)
        out.append([entry, *outcome(ENTRY_POINTS[entry], value)])
    return out


@pytest.mark.parametrize("case", list(KNOWN))
def test_each_known_bad_input_raises_its_basra_error(case: str) -> None:
    cls, message = KNOWN[case]
    with pytest.raises(cls) as caught:
        eval(case, {**globals(), "core": core})
    assert type(caught.value) is cls
    assert str(caught.value) == message


ENGINE = """
import json, sys
sys.path.insert(0, {tests!r})
from engine import test_faults
from core.compiled import is_compiled
print(json.dumps({{
    "compiled": is_compiled(),
    "outcomes": test_faults.known_outcomes(),
    "sampled": test_faults.sampled_outcomes(),
}}))
"""


def run_engine(pure: bool) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "BASRA_PURE_PYTHON"}
    if pure:
        env["BASRA_PURE_PYTHON"] = "1"
    tests = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    done = subprocess.run(
        [sys.executable, "-c", ENGINE.format(tests=tests)],
        env=env, capture_output=True, text=True, check=True, timeout=120,
        cwd=os.path.dirname(tests),
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_the_compiled_engine_and_its_sources_raise_the_same_errors() -> None:
    pure = run_engine(pure=True)
    assert pure["compiled"] is False
    assert pure["outcomes"] == {case: [cls.__name__, message] for case, (cls, message) in KNOWN.items()}
    escaped = [o for o in pure["sampled"] if o[1] not in ("nothing", *BASRA_ERRORS)]
    assert not escaped
    if not compiled_engine.compiled_files():
        pytest.skip("the engine is not compiled here (installed with BASRA_PURE_PYTHON=1)")
    chosen = run_engine(pure=False)
    assert chosen["compiled"] is True, "the compiled engine is out of date: pip install -e . again"
    assert chosen["outcomes"] == pure["outcomes"]
    assert chosen["sampled"] == pure["sampled"]


# -- random values -------------------------------------------------------------

CODES = [c.code for c in Card.deck()]
NAMES = sorted(
    {"kind", "format", "players", "dealer", "decks", "plays", "rules", "seed", "target", "majority_points",
     "majority_tie", "optional_capture", "seven_diamonds_basra", "carry", "split", "sum", "count"}
    | {field for cls in EVENT_TYPES.values() for field in cls.fields}
    | set(EVENT_TYPES)
)
scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-3, max_value=60)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(CODES + NAMES + ["10♦", " 5s ", "5S/1", "5S/0", "", "default", "basra-record/1"])
)
extras = (
    st.binary(max_size=8)
    | st.builds(Unshowable)
    | st.sampled_from(
        [Card.parse("5S"), Rules(), Rules(optional_capture=True), object(), int, len, MATCH,
         complex(1, 2), frozenset({1}), MATCH.opening_events()[0]]
    )
)
values = st.recursive(
    scalars | extras,
    lambda inner: st.lists(inner, max_size=6)
    | st.lists(inner, max_size=6).map(tuple)
    | st.dictionaries(st.sampled_from(NAMES) | st.text(max_size=6), inner, max_size=5),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(sorted(ENTRY_POINTS)), values)
def test_any_value_at_any_entry_point_is_accepted_or_a_basra_error(entry: str, value: object) -> None:
    call(entry, value)


def mutate(data: st.DataObject, value: Any, depth: int = 0) -> Any:
    """``value`` with one part somewhere in it replaced, removed or added to."""
    if isinstance(value, (list, dict)) and value and depth < 4 and data.draw(st.booleans()):
        keys = list(range(len(value))) if isinstance(value, list) else list(value)
        key = data.draw(st.sampled_from(keys))
        copy = list(value) if isinstance(value, list) else dict(value)
        copy[key] = mutate(data, value[key], depth + 1)
        return copy
    how = data.draw(st.sampled_from(["replace", "drop", "grow", "near"]))
    if how == "drop" and isinstance(value, (list, dict)) and value:
        copy = list(value) if isinstance(value, list) else dict(value)
        keys = list(range(len(value))) if isinstance(value, list) else list(value)
        del copy[data.draw(st.sampled_from(keys))]
        return copy
    if how == "grow" and isinstance(value, list):
        return [*value, data.draw(values)]
    if how == "grow" and isinstance(value, dict):
        return {**value, data.draw(st.sampled_from(NAMES)): data.draw(values)}
    if how == "near" and isinstance(value, int) and not isinstance(value, bool):
        return value + data.draw(st.integers(min_value=-3, max_value=3))
    if how == "near" and isinstance(value, str):
        plan = data.draw(st.integers(min_value=0, max_value=10**30) | st.integers(min_value=0, max_value=5))
        return data.draw(st.sampled_from([f"{value}/{plan}", value.lower(), value[:-1], f"{value}/", "/1"]))
    return data.draw(values)


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_a_record_changed_anywhere_replays_or_is_a_record_error(data: st.DataObject) -> None:
    record = mutate(data, RECORD)
    try:
        Match.from_record(record)
    except RecordError as exc:
        assert "\n" not in str(exc) and len(str(exc)) <= MESSAGE_LIMIT


@settings(max_examples=80, deadline=None)
@given(st.data())
def test_events_changed_anywhere_fold_or_are_a_record_error(data: st.DataObject) -> None:
    events = mutate(data, EVENT_DICTS)
    if isinstance(events, list) and data.draw(st.booleans()):
        # Some as Event objects, as the engine made them.
        events = [
            event_from_dict(e) if isinstance(e, dict) and _is_event(e) and data.draw(st.booleans()) else e
            for e in events
        ]
    try:
        Match.from_events(events)
    except RecordError as exc:
        assert "\n" not in str(exc) and len(str(exc)) <= MESSAGE_LIMIT


def _is_event(data: dict[str, Any]) -> bool:
    try:
        event_from_dict(data)
    except RecordError:
        return False
    return True


def test_every_kind_of_event_has_a_shape_for_each_field() -> None:
    assert set(SHAPES) == set(EVENT_TYPES)
    for kind, cls in EVENT_TYPES.items():
        assert len(SHAPES[kind]) == len(cls.fields)


def test_a_shown_value_is_short_and_one_line_whatever_it_is() -> None:
    for value in [*EXTREMES.values(), "a\nb" * 100, "\u2028" * 5]:
        text = shown(value)
        assert len(text) <= 60 and text.isprintable()
    assert shown("5S") == "'5S'" and shown(52) == "52" and shown([1, 2]) == "[1, 2]"
