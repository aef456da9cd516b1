"""``python -m core.arena``: computer players against each other, with figures.

Matches come in pairs on the same decks with the sides swapped, and the
first dealer moves round from pair to pair, so neither player is favoured by
the cards or the seat. In a 4-player match A holds seats 0 and 2 (or 1 and 3
in the swapped match of the pair). Decision time is measured here, around
``choose``, as wall time and as the deciding thread's CPU time (the second is
what the player costs even when other work shares the machine); the players
themselves never read a clock. Besides the levels offered to players, the
arena knows the levels installed beside them (``core.ai.all_levels``): in a
checkout, ``baseline`` (``bench/baseline``), the expert as first released, kept
fixed so that progress is measured against something that does not move.

    python -m core.arena --a expert --b strong --matches 400 --players 2 --seed 1
    python -m core.arena --a expert --b baseline --matches 400 --players 2 --seed 1
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from .ai import Player, all_levels, player
from .match import Match
from .rules import PRESETS, Rules


@dataclass
class MatchResult:
    """One match, from A's side."""

    a_won: bool
    rounds: int
    points: tuple[int, int]  # (A, B) over the whole match
    basras: tuple[int, int]
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    cpu: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))


# Makes the player of a level, with its seed, for a seat of the match.
Maker = Callable[[str, object, Match], Player]


def level_player(level: str, seed: object, match: Match) -> Player:
    """The computer player of ``level`` (``core.ai.player``): the arena's own."""
    return player(level, seed=seed)


def play_match(a: str, b: str, index: int, players: int, seed: object, rules: Rules,
               make: Maker = level_player) -> MatchResult:
    """Match ``index`` of a run: pair ``index // 2`` shares its decks, A takes side ``index % 2``.
    ``make`` makes each seat's player (a benchmark may give players the
    levels do not have; ``bench/told.py``)."""
    pair = index // 2
    a_side = index % 2
    match = Match.new(players, rules, seed=f"{seed}:{pair}", dealer=pair % players)
    bots = [
        make(a if seat % 2 == a_side else b, f"{seed}:{index}:{seat}", match)
        for seat in range(players)
    ]
    times: tuple[list[float], list[float]] = ([], [])
    cpu: tuple[list[float], list[float]] = ([], [])
    clock = time.perf_counter
    cpu_clock = time.thread_time
    while match.to_move is not None:
        seat = match.to_move
        view = match.view(seat)
        start, start_cpu = clock(), cpu_clock()
        card, plan = bots[seat].choose(view)
        who = 0 if seat % 2 == a_side else 1
        cpu[who].append(cpu_clock() - start_cpu)
        times[who].append(clock() - start)
        match.play(seat, card, plan)
    b_side = 1 - a_side
    points = [0, 0]
    basras = [0, 0]
    for summary in match.rounds:
        points[0] += summary.points[a_side]
        points[1] += summary.points[b_side]
        basras[0] += summary.basras[a_side]
        basras[1] += summary.basras[b_side]
    return MatchResult(
        a_won=match.winner == a_side,
        rounds=len(match.rounds),
        points=(points[0], points[1]),
        basras=(basras[0], basras[1]),
        times=times,
        cpu=cpu,
    )


def _play(job: tuple[str, str, int, int, object, Rules, Maker]) -> MatchResult:
    return play_match(*job)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0..1) by the nearest-rank method."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q * len(ordered)))
    return ordered[rank - 1]


@dataclass
class Report:
    a: str
    b: str
    players: int
    matches: int
    wins: int
    rounds: int
    points: tuple[int, int]
    basras: tuple[int, int]
    times: tuple[list[float], list[float]]
    cpu: tuple[list[float], list[float]]
    seconds: float

    @property
    def win_rate(self) -> float:
        return self.wins / self.matches if self.matches else 0.0

    def lines(self) -> list[str]:
        low, high = wilson(self.wins, self.matches)
        per_round = max(1, self.rounds)
        out = [
            f"A={self.a} vs B={self.b}: {self.matches} matches, {self.players} players, "
            f"{self.rounds} rounds, {self.seconds:.1f} s",
            f"A wins {self.wins}/{self.matches} = {100 * self.win_rate:.1f}% "
            f"(95% CI {100 * low:.1f}%-{100 * high:.1f}%)",
            f"points per round: A {self.points[0] / per_round:.1f}, B {self.points[1] / per_round:.1f}",
            f"basras per round: A {self.basras[0] / per_round:.2f}, B {self.basras[1] / per_round:.2f}",
        ]
        for i, (name, level) in enumerate((("A", self.a), ("B", self.b))):
            wall, cpu = self.times[i], self.cpu[i]
            out.append(
                f"decision time {name} ({level}): p50 {_ms(percentile(wall, 0.5))}, "
                f"p99 {_ms(percentile(wall, 0.99))}, max {_ms(max(wall, default=0))} "
                f"(cpu p50 {_ms(percentile(cpu, 0.5))}, p99 {_ms(percentile(cpu, 0.99))}) "
                f"over {len(wall)} decisions"
            )
        return out


def _ms(seconds: float) -> str:
    return f"{1000 * seconds:.2f} ms"


def run(a: str, b: str, matches: int, players: int = 2, seed: object = 1,
        rules: Rules | None = None, workers: int = 1, make: Maker = level_player) -> Report:
    """Play ``matches`` matches of A against B and gather the figures
    (``make``: as for ``play_match``; with ``workers``, a module's function)."""
    rules = rules if rules is not None else Rules()
    jobs = [(a, b, i, players, seed, rules, make) for i in range(matches)]
    start = time.perf_counter()
    if workers > 1:
        with multiprocessing.Pool(workers) as pool:
            results = pool.map(_play, jobs, chunksize=1)
    else:
        results = [_play(job) for job in jobs]
    seconds = time.perf_counter() - start
    times: tuple[list[float], list[float]] = ([], [])
    cpu: tuple[list[float], list[float]] = ([], [])
    for r in results:
        for i in (0, 1):
            times[i].extend(r.times[i])
            cpu[i].extend(r.cpu[i])
    return Report(
        a=a,
        b=b,
        players=players,
        matches=matches,
        wins=sum(r.a_won for r in results),
        rounds=sum(r.rounds for r in results),
        points=(sum(r.points[0] for r in results), sum(r.points[1] for r in results)),
        basras=(sum(r.basras[0] for r in results), sum(r.basras[1] for r in results)),
        times=times,
        cpu=cpu,
        seconds=seconds,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m core.arena", description=__doc__.splitlines()[0])
    parser.add_argument("--a", default="expert", choices=sorted(all_levels()), help="player A's level")
    parser.add_argument("--b", default="strong", choices=sorted(all_levels()), help="player B's level")
    parser.add_argument("--matches", type=int, default=100, help="how many matches (pairs of two)")
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument("--seed", default="1", help="seed of the decks and the players")
    parser.add_argument("--target", type=int, default=None, help="points that win a match (default 121)")
    parser.add_argument("--rules", default="default", choices=sorted(PRESETS),
                        help="a variant of RULES.md section 8 (default: the standard rules)")
    parser.add_argument("--workers", type=int, default=1, help="processes to play in (one core each)")
    args = parser.parse_args(argv)
    if args.matches < 1:
        parser.error("--matches must be 1 or more")
    rules = Rules.preset(args.rules)
    if args.target:
        rules = rules.with_changes(target=args.target)
    report = run(args.a, args.b, args.matches, args.players, args.seed, rules, max(1, args.workers))
    print("\n".join(report.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
