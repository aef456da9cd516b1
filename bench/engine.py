"""Engine benchmark: random-play rounds per second, and capture-plan search time.

    python bench/engine.py [--seconds 3] [--floors 3000]

1. Rounds per second: 2-player matches of random legal plays through the
   public API (Match.new, to_move, hand, play), on one core, counting rounds. Several timed runs; the median
   is printed with every run.
2. capture_plans on floors of up to 20 number cards: random floors plus
   floors of small cards (the hardest for the sum search). Each floor is timed
   cold, with the plan caches cleared, best of 3 tries to keep the machine's
   noise out; the worst, the 99th percentile and the median are printed.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core import Card, Match, capture_plans
from core import plans as plan_search
from core.compiled import is_compiled, stale_reason


def rounds_per_second(seconds: float, seed: int) -> float:
    """Whole matches of random legal plays; every finished round counts."""
    rng = random.Random(seed)
    done = 0
    start = time.perf_counter()
    while True:
        match = Match.new(2, seed=rng.random())
        while (seat := match.to_move) is not None:
            hand = match.hand(seat)
            # rng.choice, without its Python-level bookkeeping (half a play's cost here).
            match.play(seat, hand[int(rng.random() * len(hand))])
        done += len(match.rounds)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


def floors(count: int, seed: int) -> list[tuple[Card, list[Card]]]:
    rng = random.Random(seed)
    numbers = [c for c in Card.deck() if c.is_number]
    small = [c for c in numbers if c.value <= 5]
    out = []
    for i in range(count):
        pool = small if i % 4 == 0 else numbers
        floor = rng.sample(pool, rng.randint(12, 20) if i % 2 else rng.randint(1, 20))
        card = rng.choice([c for c in numbers if c not in floor])
        out.append((card, floor))
    return out


def time_plans(cases: list[tuple[Card, list[Card]]]) -> list[float]:
    times = []
    gc.disable()
    try:
        for card, floor in cases:
            best = float("inf")
            for _ in range(3):
                plan_search.clear_caches()
                start = time.perf_counter()
                capture_plans(card, floor)
                best = min(best, time.perf_counter() - start)
            times.append(best)
    finally:
        gc.enable()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each rounds-per-second run")
    parser.add_argument("--runs", type=int, default=5, help="rounds-per-second runs")
    parser.add_argument("--floors", type=int, default=3000, help="floors for the capture-plan timing")
    args = parser.parse_args()

    why = stale_reason() or "not compiled"
    engine = "compiled with mypyc" if is_compiled() else f"from its sources ({why})"
    print(f"engine: {engine}")
    rates = [rounds_per_second(args.seconds, seed) for seed in range(args.runs)]
    print(
        "random-play 2-player rounds per second (one core): median "
        f"{statistics.median(rates):,.0f}  runs {', '.join(f'{r:,.0f}' for r in rates)}  (target 5,000)"
    )

    cases = floors(args.floors, seed=1)
    times = sorted(time_plans(cases))
    worst = times[-1]
    p99 = times[int(0.99 * (len(times) - 1))]
    print(
        f"capture_plans, cold, {len(cases)} floors of 1-20 number cards: "
        f"worst {worst * 1e3:.3f} ms  p99 {p99 * 1e3:.3f} ms  median {statistics.median(times) * 1e6:.0f} us"
        "  (target: worst under 1 ms)"
    )
    slowest = max(zip(time_plans(cases), cases, strict=True), key=lambda pair: pair[0])
    card, floor = slowest[1]
    print(f"  slowest: {card} on {' '.join(map(str, floor))} ({len(capture_plans(card, floor))} plans)")


if __name__ == "__main__":
    main()
