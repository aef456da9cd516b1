"""What the other hands are worth: the expert told them, against a computer level.

    python bench/told.py --b baseline --matches 100 --seed 2026
    python bench/told.py --b strong --matches 100 --seed 2026 --always
    python bench/told.py --b baseline --matches 100 --seed 2026 --held 1

A measure of how much is left to gain by reading the hands, not a player:
the expert's search with the real hands of the other seats in every guess
(the stock still guessed), from the first play of a deal by the seat whose
hand it is (once there is something to read; with ``--always``, at every
decision; with ``--held``, only at the decisions where every other seat
holds one of the counts of cards given, the expert's own guesses at the
others, to see which decisions of a deal the hands are worth most at). The
matches are the arena's own (``core.arena.run``, with this player as A,
named ``told``, ``told always`` or ``told holding`` and the counts), on the
same decks and seeds, so the expert's own row of the arena on the same seed
and matches is the comparison, and the report is the arena's. It runs the
engine from its sources (a told expert is a subclass of the expert, which
the compiled engine does not allow), about half as fast as the arena.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

os.environ["BASRA_PURE_PYTHON"] = "1"  # before core is imported: see the module
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core.ai import all_levels, player
from core.ai.base import Player
from core.ai.expert import Expert
from core.ai.inference import Reader
from core.ai.playout import Sampler, World
from core.arena import run
from core.cards import Card
from core.match import Match
from core.view import SeatView

# The told expert's names in the arena's report.
TOLD = "told"
TOLD_ALWAYS = "told always"
TOLD_HOLDING = "told holding "  # followed by the counts, as "1,2"


class Told(Expert):
    """The expert, given every other seat's real hand from the match it plays."""

    def __init__(self, seed: object, match: Match, always: bool, held: frozenset[int] | None = None) -> None:
        super().__init__(seed=seed)
        self.match = match
        self.always = always
        self.held = held

    def _told(self, view: SeatView, reader: Reader) -> bool:
        """Whether this decision is told the other hands (see the module)."""
        if not (self.always or reader.reads):
            return False
        if self.held is None:
            return True
        return all(view.hand_sizes[seat] in self.held for seat in range(view.players) if seat != view.seat)

    def _guesses(self, sampler: Sampler, reader: Reader) -> list[World]:
        view = sampler.view
        if not self._told(view, reader):
            return super()._guesses(sampler, reader)
        # hands_of deals the other seats' unknown cards from the end of the
        # hidden cards, the first other seat's last: put the real ones there.
        dealt: list[Card] = []
        for seat in range(view.players):
            if seat != view.seat:
                dealt = [c for c in self.match.hand(seat) if c not in sampler.known[seat]] + dealt
        rest = [c for c in sampler.hidden if c not in dealt]
        self.rng.shuffle(rest)
        return [sampler.build(rest + dealt)]


def make(level: str, seed: object, match: Match) -> Player:
    """The arena's players, and the told expert by its names."""
    if level in (TOLD, TOLD_ALWAYS):
        return Told(seed, match, always=level == TOLD_ALWAYS)
    if level.startswith(TOLD_HOLDING):
        counts = frozenset(int(n) for n in level[len(TOLD_HOLDING) :].split(","))
        return Told(seed, match, always=False, held=counts)
    return player(level, seed=seed)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--b", choices=sorted(all_levels()), default="baseline", help="the level it plays")
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--players", type=int, choices=(2, 4), default=2)
    parser.add_argument("--seed", default="2026")
    parser.add_argument("--always", action="store_true", help="told at every decision")
    parser.add_argument(
        "--held",
        type=int,
        nargs="+",
        metavar="N",
        help="told only when every other seat holds one of these counts of cards",
    )
    args = parser.parse_args(argv)
    a = TOLD_ALWAYS if args.always else TOLD
    if args.held:
        a = TOLD_HOLDING + ",".join(str(n) for n in sorted(set(args.held)))
    report = run(a, args.b, args.matches, args.players, args.seed, make=make)
    print("\n".join(report.lines()))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
