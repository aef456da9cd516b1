"""What a searching seat's plays say of its last cards, read by a search of its own kind.

    python bench/last_card.py --matches 12 --seed rc
    python bench/last_card.py --matches 12 --seed rc --by-held 4:12,3:24,2:96

The expert reading by the rank (``exact`` 0) plays the baseline in the arena's matches;
at each decision where the baseline has played this deal and holds at most
``--exact`` cards unplaced, every hand it may hold is weighed as the expert
with ``exact`` weighs them (``Expert._table``: a search of the baseline's
own kind from each hand, ``--guesses`` a candidate, or ``--by-held`` by the
cards held at the play). It prints how much likelier the weights make the
kinds of the hand really held than the ways of dealing them alone (a mean
log ratio, in nats), how often that hand is the likeliest, and what being
told it would say (the mean log of the ways of dealing it, against all). The weights
do not change the plays, so every reading meets the same decisions.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.ai import player
from core.ai.base import Player
from core.ai.expert import Expert
from core.ai.playout import Sampler
from core.ai.values import KIND_OF
from core.arena import run
from core.cards import Card
from core.match import Match
from core.view import SeatView


class Reading:
    """The expert's plays, with the weights of ``reader`` at every decision it
    builds them scored against the hand really held."""

    def __init__(self, seed: object, match: Match, reader: Expert, gains: list[float],
                 tops: list[bool], told: list[float]) -> None:
        self.expert = Expert(seed=seed, exact=0)
        self.match = match
        self.reader = reader
        self.gains = gains
        self.tops = tops
        self.told = told

    def choose(self, view: SeatView) -> tuple[Card, int]:
        sampler = Sampler(view)
        table = self.reader._table(view, sampler)
        if table is not None:
            logs, hands, by_kind = table
            other = 1 - view.seat
            true = sorted(KIND_OF[c.index] for c in self.match.hand(other)
                          if c not in sampler.known[other])
            top = max(logs)
            posterior = [math.exp(w - top) for w in logs]
            prior = [math.prod(math.comb(len(by_kind[k]), hand.count(k)) for k in set(hand))
                     for hand in hands]
            i = hands.index(true)
            self.gains.append(math.log(posterior[i] / sum(posterior) / (prior[i] / sum(prior))))
            self.tops.append(max(range(len(logs)), key=lambda j: posterior[j]) == i)
            self.told.append(-math.log(prior[i] / sum(prior)))
        return self.expert.choose(view)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=12)
    parser.add_argument("--seed", default="rc")
    parser.add_argument("--exact", type=int, default=1)
    parser.add_argument("--guesses", type=int, default=16)
    parser.add_argument("--by-held", default="",
                        help="guesses by the cards held at the play, as 4:12,3:24,2:96")
    args = parser.parse_args(argv)
    by_held = {int(a): int(b) for a, b in (x.split(":") for x in args.by_held.split(",") if x)}
    gains: list[float] = []
    tops: list[bool] = []
    told: list[float] = []
    reader = Expert(seed=0, exact=args.exact, guesses=args.guesses, by_held=by_held)

    def make(level: str, seed: object, match: Match) -> Player:
        if level == "expert":
            return Reading(seed, match, reader, gains, tops, told)  # type: ignore[return-value]
        return player(level, seed=seed)

    run("expert", "baseline", args.matches, 2, args.seed, make=make)
    print(f"{len(gains)} decisions: the hand held {statistics.mean(gains):+.3f} nats likelier "
          f"than by the ways of dealing it (sd {statistics.stdev(gains):.2f}); "
          f"the likeliest {sum(tops) / len(tops):.1%} of the time; told it, "
          f"{statistics.mean(told):+.3f} nats")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
