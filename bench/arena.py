"""The standard comparisons of the computer players, with their targets.

    python bench/arena.py                 # 400 matches each, as in bench/README.md
    python bench/arena.py --matches 40    # a quick look

Each comparison is ``python -m core.arena`` with the same settings; see that
module for how matches are paired and timed.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.arena import Report, percentile, run

# (A, B, players, what A must reach: match win rate, and p99 decision time in ms)
COMPARISONS: list[tuple[str, str, int, float | None, float | None]] = [
    ("strong", "beginner", 2, 0.75, None),
    ("expert", "strong", 2, 0.80, 150.0),
    ("expert", "baseline", 2, 0.60, 150.0),
    ("expert", "strong", 4, 0.80, 150.0),
    ("strong", "beginner", 4, None, None),
]


def verdicts(report: Report, win_target: float | None, p99_target: float | None) -> list[str]:
    out = []
    if win_target is not None:
        met = report.win_rate >= win_target
        out.append(f"target: A wins >= {100 * win_target:.0f}%: {'met' if met else 'NOT met'}")
    if p99_target is not None:
        p99 = 1000 * percentile(report.times[0], 0.99)
        met = p99 <= p99_target
        verdict = "met" if met else "NOT met"
        out.append(f"target: A decides in <= {p99_target:.0f} ms at p99 (wall): {verdict}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=400)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    for a, b, players, win_target, p99_target in COMPARISONS:
        command = (f"python -m core.arena --a {a} --b {b} --matches {args.matches} "
                   f"--players {players} --seed {args.seed} --workers {args.workers}")
        print(f"$ {command}")
        report = run(a, b, args.matches, players, args.seed, workers=args.workers)
        print("\n".join(report.lines() + verdicts(report, win_target, p99_target)))
        print(flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
