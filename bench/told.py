"""What the other hands are worth: the expert told them, against a computer level.

    python bench/told.py --b baseline --matches 100 --seed 2026
    python bench/told.py --b strong --matches 100 --seed 2026 --always

A measure of how much is left to gain by reading the hands, not a player:
the expert's search with the real hands of the other seats in every guess
(the stock still guessed), from the first play of a deal by the seat whose
hand it is (once there is something to read; with ``--always``, at every
decision). Matches come in pairs on the same decks with the sides swapped,
seeded as ``python -m core.arena`` seeds them, so the expert's own row of the
arena on the same seed and matches is the comparison. It runs the engine
from its sources (a told expert is a subclass of the expert, which the
compiled engine does not allow), about half as fast as the arena.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ["BASRA_PURE_PYTHON"] = "1"  # before core is imported: see the module
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.ai import ALL_LEVELS, player
from core.ai.base import Player
from core.ai.expert import Expert
from core.ai.inference import Reader
from core.ai.playout import Sampler, World
from core.arena import wilson
from core.cards import Card
from core.match import Match


class Told(Expert):
    """The expert, given every seat's real hand by the loop that plays it."""

    def __init__(self, seed: object, always: bool) -> None:
        super().__init__(seed=seed)
        self.always = always
        self.hands: list[list[Card]] = []

    def _guesses(self, sampler: Sampler, reader: Reader) -> list[World]:
        if not (self.always or reader.reads):
            return [sampler.world(self.rng)]
        view = sampler.view
        # hands_of deals the other seats' unknown cards from the end of the
        # hidden cards, the first other seat's last: put the real ones there.
        dealt: list[Card] = []
        for seat in range(view.players):
            if seat != view.seat:
                dealt = [c for c in self.hands[seat] if c not in sampler.known[seat]] + dealt
        rest = [c for c in sampler.hidden if c not in dealt]
        self.rng.shuffle(rest)
        return [sampler.build(rest + dealt)]


def play(b: str, index: int, players: int, seed: str, always: bool) -> tuple[bool, int, int, int]:
    """Match ``index``: whether the told expert won, the rounds, and each side's points."""
    pair = index // 2
    a_side = index % 2
    match = Match.new(players, seed=f"{seed}:{pair}", dealer=pair % players)
    bots: list[Player] = [
        Told(f"{seed}:{index}:{seat}", always) if seat % 2 == a_side
        else player(b, seed=f"{seed}:{index}:{seat}")
        for seat in range(players)
    ]
    while match.to_move is not None:
        seat = match.to_move
        bot = bots[seat]
        if isinstance(bot, Told):
            bot.hands = [list(match.hand(s)) for s in range(players)]
        card, plan = bot.choose(match.view(seat))
        match.play(seat, card, plan)
    points = [0, 0]
    for summary in match.rounds:
        points[0] += summary.points[a_side]
        points[1] += summary.points[1 - a_side]
    return match.winner == a_side, len(match.rounds), points[0], points[1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--b", choices=sorted(ALL_LEVELS), default="baseline", help="the level it plays")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--players", type=int, choices=(2, 4), default=2)
    parser.add_argument("--seed", default="2026")
    parser.add_argument("--always", action="store_true", help="told at every decision")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    results = [play(args.b, i, args.players, args.seed, args.always) for i in range(args.matches)]
    wins = sum(r[0] for r in results)
    rounds = sum(r[1] for r in results)
    low, high = wilson(wins, len(results))
    told = "at every decision" if args.always else "once they have played this deal"
    print(f"the expert told the other hands {told} vs {args.b}: {args.matches} matches, "
          f"{args.players} players, seed {args.seed}, {time.perf_counter() - start:.0f} s")
    print(f"wins {wins}/{len(results)} = {100 * wins / len(results):.1f}% "
          f"(95% CI {100 * low:.1f}%-{100 * high:.1f}%)")
    print(f"points per round: told {sum(r[2] for r in results) / rounds:.1f}, "
          f"{args.b} {sum(r[3] for r in results) / rounds:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
