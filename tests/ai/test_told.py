"""bench/told.py: the expert told the other hands really plays with them, in
the arena's matches, and the arena reports them."""

from __future__ import annotations

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
