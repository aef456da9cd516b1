"""How much the expert's reading of the plays says about the hands that made them.

    python bench/reading.py --read baseline            # 2 players: a strong seat reads the baseline
    python bench/reading.py --read strong --matches 30
    python bench/reading.py --players 4 --read expert  # an expert pair against a strong pair

Matches are played out; at each decision of the reading seat (seat 1 with 2
players, seat 0 with 4), the reading of this deal's plays (``Reader``) weighs
the hand each other seat really holds and 300 hands drawn as the expert draws
its guesses before reading. The figure is the log of how many times likelier
the reading makes the true hand than those draws do on average, in nats, a
decision's mean: a proper score, so the reading that says most about the true
hands, and nothing false, has the highest. 0 is what no reading scores; below
0 the reading points away from the hands that were really held.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.ai import all_levels, player
from core.ai.inference import Reader
from core.ai.playout import Sampler
from core.cards import Card
from core.match import Match
from core.view import SeatView

DRAWS = 300
Case = tuple[SeatView, list[list[Card]]]


def cases(read: str, others: str, players: int, matches: int, seed: str) -> list[Case]:
    """Each decision of the reading seat: its view, and every seat's true hand."""
    reader = 1 if players == 2 else 0
    out: list[Case] = []
    for m in range(matches):
        match = Match.new(players, seed=f"{seed}:{m}", dealer=m % players)
        if players == 2:
            levels = [read if seat != reader else others for seat in range(players)]
        else:  # the reading seat's side plays the read level
            levels = [read if seat % 2 == 0 else others for seat in range(players)]
        bots = [player(levels[seat], seed=f"{seed}:{m}:{seat}") for seat in range(players)]
        while match.to_move is not None:
            seat = match.to_move
            view = match.view(seat)
            if seat == reader:
                out.append((view, [list(match.hand(s)) for s in range(players)]))
            card, plan = bots[seat].choose(view)
            match.play(seat, card, plan)
    return out


def score(views: list[Case], seed: int = 5) -> dict[int, tuple[float, int]]:
    """Per seat read: the mean score in nats and the decisions it was read at."""
    rng = random.Random(seed)
    totals: dict[int, list[float]] = {}
    for view, truth in views:
        reader = Reader(view)
        if not reader.reads:
            continue
        sampler = Sampler(view)
        draws = [sampler.hands_of(sampler.shuffled(rng)) for _ in range(DRAWS)]
        for seat in reader.seats:
            true_weight = reader.seat_weight(seat, truth[seat])
            weights = [reader.seat_weight(seat, hands[seat]) for hands in draws]
            top = max([*weights, true_weight])
            mean = top + math.log(sum(math.exp(w - top) for w in weights) / len(weights))
            totals.setdefault(seat, []).append(true_weight - mean)
    return {seat: (sum(v) / len(v), len(v)) for seat, v in sorted(totals.items())}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    levels = sorted(all_levels())
    parser.add_argument("--read", choices=levels, default="baseline",
                        help="the level whose plays are read (with 4 players: the reading seat's side)")
    parser.add_argument("--others", choices=levels, default="strong",
                        help="the reading seat (2 players) or the other side (4 players)")
    parser.add_argument("--players", type=int, choices=(2, 4), default=2)
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--seed", default="reading")
    args = parser.parse_args(argv)
    views = cases(args.read, args.others, args.players, args.matches, args.seed)
    names = {2: {0: args.read}, 4: {1: f"next ({args.others})", 2: f"partner ({args.read})",
                                      3: f"previous ({args.others})"}}[args.players]
    print(f"{args.matches} matches, {args.players} players, {len(views)} decisions of the reading seat")
    for seat, (mean, count) in score(views).items():
        print(f"reading {names.get(seat, seat)}: {mean:+.4f} nats a decision, over {count} decisions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
