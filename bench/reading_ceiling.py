"""How much a searching player's play says about its hand, by its own policy.

    python bench/reading_ceiling.py                         # 150 plays of the baseline, 10 runs a hand
    python bench/reading_ceiling.py --plays 50 --runs 6 --hands 6
    python bench/reading_ceiling.py --simulations 20     # read by a search ten times cheaper

The upper bound for reading a player that searches (bench/README.md): the
baseline plays matches against the strong player, and at each of its plays
from a hand of two cards or more (with more than one move), the hand it
really held and ``--hands`` hands the other seat could suppose it held (the
card played, and the rest drawn from the cards that seat cannot see) are
each given to the baseline again, ``--runs`` times with other seeds. The
share of those runs that make the play it made (plus one half in one more
run, so that no share is 0) is the chance of the play under its own policy.
The figure is the log of how much likelier that makes the true hand than
the supposed ones on average, in nats a play: what a reader that knew how
the baseline chooses would learn from a play. With ``--simulations``, the
reader's model is the baseline's search at that many playouts (it plays at
200): how much of that a cheaper search would learn. Beside it, the same figure
for the strong player's rank, as ``inference`` reads a seat by it (the
chances of the best, second, third and lower move fixed at the baseline's:
72%, 17%, 8% and 3%).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.baseline import Baseline
from core.ai import player
from core.ai.knowledge import hidden_cards
from core.ai.moves import legal_moves
from core.ai.strong import ranked
from core.cards import Card
from core.match import Match
from core.view import SeatView

RANK_CHANCES = (0.72, 0.17, 0.08, 0.03)


def own_chance(view: SeatView, card: Card, plan: int, runs: int, simulations: int | None = None) -> float:
    """The share of the baseline's runs on ``view`` that play ``card`` by
    ``plan`` (with ``simulations``, runs of a baseline searching that many
    playouts instead of its own number)."""
    hits = 0
    for k in range(runs):
        searcher = Baseline(seed=f"ceiling:{k}", simulations=simulations)
        if searcher.choose(view) == (card, plan):
            hits += 1
    return (hits + 0.5) / (runs + 1)


def rank_chance(view: SeatView, card: Card, plan: int) -> float:
    """The chance of the play by its rank among the moves of ``view``'s hand."""
    scored = ranked(view, legal_moves(view))
    mine = next(score for score, move in scored if move.card == card and move.plan == plan)
    above = sum(1 for score, _ in scored if score > mine + 1e-9)
    alike = sum(1 for score, _ in scored if abs(score - mine) <= 1e-9)
    return RANK_CHANCES[min(above, len(RANK_CHANCES) - 1)] / alike


def measure(plays: int, runs: int, hands: int, seed: str,
            simulations: int | None = None) -> tuple[float, float, int]:
    """The mean information of a play, by the baseline's own policy (or one
    searching ``simulations`` playouts) and by the rank, over ``plays`` plays."""
    rng = random.Random(seed)
    own = rank = 0.0
    done = 0
    m = 0
    while done < plays:
        match = Match.new(2, seed=f"{seed}:{m}", dealer=m % 2)
        side = m % 2
        bots = [player("baseline" if s == side else "strong", seed=f"{seed}:{m}:{s}") for s in range(2)]
        m += 1
        while match.to_move is not None and done < plays:
            seat = match.to_move
            view = match.view(seat)
            card, plan = bots[seat].choose(view)
            if seat == side and len(view.hand) > 1 and len(legal_moves(view)) > 1:
                other = set(match.hand(1 - seat))
                unseen = [c for c in (*view.hand, *hidden_cards(view)) if c not in other and c != card]
                supposed = []
                for _ in range(hands):
                    hand = [card, *rng.sample(unseen, len(view.hand) - 1)]
                    rng.shuffle(hand)
                    supposed.append(dataclasses.replace(view, hand=tuple(hand)))
                own_mean = sum(own_chance(v, card, plan, runs, simulations) for v in supposed) / hands
                own += math.log(own_chance(view, card, plan, runs, simulations) / own_mean)
                rank_mean = sum(rank_chance(v, card, plan) for v in supposed) / hands
                rank += math.log(rank_chance(view, card, plan) / rank_mean)
                done += 1
            match.play(seat, card, plan)
    return own / done, rank / done, done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plays", type=int, default=150)
    parser.add_argument("--runs", type=int, default=10, help="the baseline's runs on each hand")
    parser.add_argument("--hands", type=int, default=10, help="hands supposed for each play")
    parser.add_argument("--seed", default="ceiling")
    parser.add_argument("--simulations", type=int, default=None,
                        help="read by a baseline searching this many playouts (default: its own, 200)")
    args = parser.parse_args(argv)
    own, rank, done = measure(args.plays, args.runs, args.hands, args.seed, args.simulations)
    print(f"{done} plays of the baseline, {args.runs} runs a hand, {args.hands} hands supposed a play")
    policy = "its own policy" if args.simulations is None else f"its search at {args.simulations} playouts"
    print(f"by {policy}: {own:+.3f} nats a play; by the strong player's rank: {rank:+.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
