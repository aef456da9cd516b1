"""The expert's last deal, answered exactly, against its playouts, played from the same positions.

    python bench/last_deal.py --b baseline --positions 1500 --seed p1
    python bench/last_deal.py --b strong --positions 1500 --seed p1
    python bench/last_deal.py --b strong --positions 1500 --seed p1 --strong-like 2

With 2 players the last deal of a round is a game of perfect information
but for how the other seat plays (the stock is empty, so the other hand is
the cards a seat has not seen). The expert searches it exactly against a
model of the other seat read from its plays in the deals over
(``core.ai.answer``): the strong player's judgement, or a seat that searches
one play deep (see ``core.ai.expert``). How much that gains is too small to
see in an arena's match wins: a few hundred matches are noisy to several
points a round. So this plays only last deals. It deals matches of level B
against itself and keeps the position at the start of each round's last
deal, until it has ``--positions`` (so the deals over were played as B
plays, which is what the expert reads); from each, with A in each seat in
turn, it plays the deal to the round's end twice: the expert as it is, and
the expert with the exact search turned off (``exact=False``, the playouts
of the rest of the round), each against a fresh player of level B seeded
alike. ``--strong-like`` sets the expert's threshold (``STRONG_LIKE``; above
1 every seat is answered as a searching one). The figure is A's points
minus B's in the round (the majority included), and what counts is the
difference between the two on the same position and seat: its mean, with
its standard error, and how often the two ended differently. The expert's
last-deal decision times are printed too (wall time around ``choose``,
every decision with a choice).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.ai import all_levels, player
from core.ai.base import Player
from core.ai.expert import STRONG_LIKE, Expert
from core.arena import percentile
from core.match import Match
from core.rules import Rules


def last_deals(level: str, count: int, seed: str) -> list[dict[str, Any]]:
    """Records of matches of ``level`` against itself stopped at the start of
    a round's last deal."""
    positions: list[dict[str, Any]] = []
    index = 0
    while len(positions) < count:
        match = Match.new(2, Rules(), seed=f"{seed}:{index}", dealer=index % 2)
        bots = [player(level, seed=f"{seed}:{index}:{seat}") for seat in range(2)]
        while match.to_move is not None and len(positions) < count:
            if match.stock_count == 0 and all(len(match.hand(s)) == 4 for s in range(2)):
                positions.append(match.to_record())
            seat = match.to_move
            match.play(seat, *bots[seat].choose(match.view(seat)))
        index += 1
    return positions


def play_out(record: dict[str, Any], a: Player, b: Player, a_seat: int,
             times: list[float]) -> int:
    """Play the round of ``record`` to its end, A in ``a_seat``: A's points less B's."""
    match = Match.from_record(record)
    round_no = len(match.rounds)
    bots = {a_seat: a, 1 - a_seat: b}
    while match.to_move is not None and len(match.rounds) == round_no:
        seat = match.to_move
        view = match.view(seat)
        start = time.perf_counter()
        card, plan = bots[seat].choose(view)
        if seat == a_seat and len(view.hand) > 1:
            times.append(time.perf_counter() - start)
        match.play(seat, card, plan)
    summary = match.rounds[-1]
    return summary.points[a_seat] - summary.points[1 - a_seat]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--b", choices=sorted(all_levels()), default="baseline", help="the level it plays")
    parser.add_argument("--positions", type=int, default=1500)
    parser.add_argument("--seed", default="p1")
    parser.add_argument("--strong-like", type=float, default=STRONG_LIKE,
                        help="the expert's STRONG_LIKE (above 1: answer every seat as a searching one)")
    args = parser.parse_args(argv)
    if args.positions < 2:
        parser.error("--positions must be 2 or more")
    positions = last_deals(args.b, args.positions, args.seed)
    results: dict[bool, list[int]] = {True: [], False: []}
    times: dict[bool, list[float]] = {True: [], False: []}
    for i, record in enumerate(positions):
        for a_seat in (0, 1):
            for exact in (True, False):
                a = Expert(seed=f"{args.seed}:{i}:{a_seat}:a", exact=exact, strong_like=args.strong_like)
                b = player(args.b, seed=f"{args.seed}:{i}:{a_seat}:b")
                results[exact].append(play_out(record, a, b, a_seat, times[exact]))
    diffs = [x - y for x, y in zip(results[True], results[False], strict=True)]
    n = len(diffs)
    answered = ("every seat answered as searching" if args.strong_like > 1
                else f"STRONG_LIKE {args.strong_like:g}")
    print(f"expert ({answered}) against {args.b}: {args.positions} last deals (seed {args.seed}), "
          f"each played from both seats, {n} pairs")
    for exact, name in ((True, "the expert"), (False, "exact search off")):
        t = times[exact]
        print(f"  {name}: A's points less B's a round {statistics.mean(results[exact]):+.3f}; "
              f"decision time p50 {1000 * percentile(t, 0.5):.2f} ms, "
              f"p99 {1000 * percentile(t, 0.99):.2f} ms over {len(t)} decisions")
    mean = statistics.mean(diffs)
    error = statistics.stdev(diffs) / n ** 0.5
    changed = sum(d != 0 for d in diffs) / n
    print(f"  the expert less exact search off: {mean:+.3f} points a round (standard error {error:.3f}); "
          f"the two ended differently in {100 * changed:.1f}% of the pairs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
