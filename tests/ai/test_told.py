"""bench/told.py: the expert told the other hands really plays with them, in
the arena's matches, and the arena reports them."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from .bench import BENCH


def test_the_told_expert_plays_whole_matches_and_reports_them() -> None:
    # It runs the engine from its sources (a subclass of the compiled expert
    # cannot be made), so it runs in a process of its own.
    command = [sys.executable, str(BENCH / "told.py"), "--b", "strong", "--matches", "2", "--seed", "check"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("A=told vs B=strong: 2 matches, 2 players")
    wins = re.fullmatch(r"A wins (\d)/2 = .*", lines[1])
    assert wins is not None
    points = re.fullmatch(r"points per round: A ([\d.]+), B ([\d.]+)", lines[2])
    assert points is not None
    # Told the other hand, the expert outplays the strong player by far.
    assert int(wins.group(1)) == 2 and float(points.group(1)) > 2 * float(points.group(2))


# Run in a process of its own, for the reason above: seat 0's guesses at two
# decisions of a deal, once the other seat holds 1 card and once 3, by an
# expert told only when it holds 1.
_HELD_CHECK = """
import sys
sys.path.insert(0, sys.argv[1])
import told
from core.ai.inference import Reader
from core.ai.playout import Sampler
from core.ai.strong import Strong
from core.match import Match
from core.rules import Rules

match = Match.new(2, Rules(), seed="held", dealer=1)
strong = Strong()
found = {}
while match.to_move is not None and len(found) < 2:
    seat = match.to_move
    view = match.view(seat)
    other = match.hand(1)
    if seat == 0 and view.stock_count and len(other) in (1, 3) and len(other) not in found:
        expert = told.Told(seed=1, match=match, always=False, held=frozenset({1}))
        sampler = Sampler(view)
        guesses = expert._guesses(sampler, Reader(view))
        found[len(other)] = sum(set(w.hands[1]) == set(other) for w in guesses), len(guesses)
    card, plan = strong.choose(view)
    match.play(seat, card, plan)
print(found[1][0], found[1][1], found[3][0], found[3][1])
"""


def test_told_only_at_the_counts_held() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _HELD_CHECK, str(BENCH)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
        env={**os.environ, "BASRA_PURE_PYTHON": "1"},
    )
    real_1, of_1, real_3, of_3 = (int(n) for n in done.stdout.split())
    # Holding 1 card, the real one is in every guess; holding 3, the guesses
    # are the expert's own, which are not all the real hand.
    assert real_1 == of_1 >= 1
    assert of_3 >= 1 and real_3 < of_3


def test_the_expert_told_at_some_counts_is_named_so() -> None:
    # The player the name makes plays one whole match, which on this seed is
    # over in two rounds (the expert runs from its sources here, and slowly).
    command = [
        sys.executable,
        str(BENCH / "told.py"),
        "--b",
        "strong",
        "--matches",
        "1",
        "--seed",
        "d",
        "--held",
        "2",
        "1",
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, check=True)
    assert done.stdout.splitlines()[0].startswith("A=told holding 1,2 vs B=strong: 1 matches, 2 players")
