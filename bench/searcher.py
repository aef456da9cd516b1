"""Fit how a player who searches plays, for reading its hand (``inference.SEARCHER``).

    python bench/searcher.py                      # the expert's plays against strong, 40 matches
    python bench/searcher.py --level baseline --matches 30 --seed check

Matches of ``--level`` against the strong player are played out, 2 players.
Every play of the level in a deal that is over (where its whole hand is
known) becomes one choice among the moves of that hand, each move described
by the parts of the strong player's judgement (``judge.Parts``), as the
reading sees them. A conditional logit (each move's chance in proportion to
exp of the weights times its parts, plus a weight for the judgement's best
move) is fitted by Newton's method to the choices made, then the chance of a
stray play (any move alike) by the likelihood on a grid. It prints the
weights, ready for ``inference.SEARCHER``, and the mean log-likelihood of a
play in nats: under the fit, the fit as ``inference`` has it now, the rank's
chances fitted to the same plays, and every move alike.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.ai import player
from core.ai.inference import (
    RANK_PRIOR,
    SEARCHER,
    SEARCHER_BEST,
    SEARCHER_STRAY,
    past_moves,
    rank_of,
)
from core.ai.judge import Parts, value_of
from core.match import Match

# The parts fitted (``last`` is never read: a round's last play is never read).
FIELDS = ("gain", "reply", "follow", "sweeper", "basra", "taken", "lay")
STRAYS = (0.0, 0.005, 0.01, 0.02, 0.03, 0.05, 0.1)
Choice = tuple[int, list[list[float]]]


def choices(level: str, matches: int, seed: str) -> list[Choice]:
    """Each play of ``level`` in a deal that is over: which move it was, and
    every move's features (the parts, then 1 for the judgement's best)."""
    out: list[Choice] = []
    for m in range(matches):
        match = Match.new(2, seed=f"{seed}:{m}", dealer=m % 2)
        side = m % 2  # the seat ``level`` plays
        bots = [player(level if seat == side else "strong", seed=f"{seed}:{m}:{seat}") for seat in range(2)]
        rounds_read = 0
        while match.to_move is not None:
            seat = match.to_move
            view = match.view(seat)
            # At the other seat's first play of a round, the round before is over.
            if seat != side and view.round_no > rounds_read + 1:
                rounds_read = view.round_no - 1
                out.extend(features(past_moves(view)[side]))
            card, plan = bots[seat].choose(view)
            match.play(seat, card, plan)
    return out


def features(moves: list[tuple[int, list[Parts]]]) -> list[Choice]:
    out: list[Choice] = []
    for at, parts in moves:
        values = [value_of(x) for x in parts]
        best = max(values)
        rows = [[float(getattr(x, name)) for name in FIELDS] + [1.0 if v >= best - 1e-9 else 0.0]
                for x, v in zip(parts, values, strict=True)]
        out.append((at, rows))
    return out


def chances(w: list[float], rows: list[list[float]]) -> list[float]:
    scores = [sum(a * b for a, b in zip(w, row, strict=True)) for row in rows]
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]


def log_likelihood(w: list[float], data: list[Choice], stray: float = 0.0) -> float:
    total = 0.0
    for at, rows in data:
        p = chances(w, rows)[at]
        total += math.log((1.0 - stray) * p + stray / len(rows))
    return total / len(data)


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """x with a x = b (Gaussian elimination with partial pivoting)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for c in range(col, n + 1):
                m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def fit(data: list[Choice], ridge: float = 1e-3, steps: int = 30) -> list[float]:
    """The conditional logit's weights by Newton's method (a small ridge keeps
    a part that never varies at 0)."""
    k = len(data[0][1][0])
    w = [0.0] * k
    for _ in range(steps):
        grad = [-ridge * len(data) * x for x in w]
        hess = [[-ridge * len(data) if i == j else 0.0 for j in range(k)] for i in range(k)]
        for at, rows in data:
            p = chances(w, rows)
            mean = [sum(p[r] * rows[r][i] for r in range(len(rows))) for i in range(k)]
            for i in range(k):
                grad[i] += rows[at][i] - mean[i]
                for j in range(i, k):
                    cov = sum(p[r] * rows[r][i] * rows[r][j] for r in range(len(rows))) - mean[i] * mean[j]
                    hess[i][j] -= cov
                    if i != j:
                        hess[j][i] -= cov
        step = solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
        if max(abs(s) for s in step) < 1e-7:
            break
    return w


def rank_likelihood(data: list[Choice]) -> float:
    """The rank's chances fitted to the same plays (as ``inference`` fits a seat)."""
    counts = list(RANK_PRIOR)
    ranks = []
    for at, rows in data:
        parts = [Parts(*row[:-1], last=0.0) for row in rows]
        ranks.append(rank_of(at, parts))
    for above, _ in ranks:
        counts[min(above, len(counts) - 1)] += 1
    total = sum(counts)
    return sum(math.log(counts[min(above, 3)] / total / alike) for above, alike in ranks) / len(data)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--level", default="expert", help="the level whose plays are fitted")
    parser.add_argument("--matches", type=int, default=40)
    parser.add_argument("--seed", default="searcher")
    args = parser.parse_args(argv)
    data = choices(args.level, args.matches, args.seed)
    print(f"{args.matches} matches of {args.level} against strong: {len(data)} plays read")
    w = fit(data)
    stray = max(STRAYS, key=lambda s: log_likelihood(w, data, s))
    print("fitted: " + ", ".join(f"{name}={x:.3f}" for name, x in zip(FIELDS, w, strict=False))
          + f"; best={w[-1]:.3f}; stray={stray}")
    now = [float(getattr(SEARCHER, name)) for name in FIELDS] + [SEARCHER_BEST]
    uniform = sum(-math.log(len(rows)) for _, rows in data) / len(data)
    print(f"log-likelihood of a play, nats: the fit {log_likelihood(w, data, stray):+.4f}, "
          f"inference.SEARCHER {log_likelihood(now, data, SEARCHER_STRAY):+.4f}, "
          f"the rank's chances {rank_likelihood(data):+.4f}, every move alike {uniform:+.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
