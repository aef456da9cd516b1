"""The expert: card counting and search by determinization.

For each guess at the hidden cards (a ``World`` sampled from what this seat
knows), every candidate play is played out to the end of the deal with the
strong player in every seat, and the candidate with the best average result
wins. All candidates meet the same guesses, so their differences are not
drowned in the luck of the sampling. The budget is a number of simulations,
so a seed reproduces every choice exactly.
"""

from __future__ import annotations

import math

from ..view import SeatView
from .base import Player
from .judge import DEFAULT_WEIGHTS, Weights
from .moves import Move
from .playout import Sampler, World
from .strong import ranked

DEFAULT_SIMULATIONS = 120
DEFAULT_CANDIDATES = 6


class Expert(Player):
    level = "expert"

    def __init__(self, seed: object = None, simulations: int = DEFAULT_SIMULATIONS,
                 candidates: int = DEFAULT_CANDIDATES, weights: Weights = DEFAULT_WEIGHTS,
                 deals: int = 0, halving: bool = False) -> None:
        super().__init__(seed)
        if simulations < 1 or candidates < 1:
            raise ValueError("an expert needs at least one simulation and one candidate")
        self.simulations = simulations
        self.candidates = candidates
        self.weights = weights
        self.deals = deals
        self.halving = halving

    def choose_move(self, view: SeatView, moves: list[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        shortlist = [m for _, m in ranked(view, moves, self.weights)[: self.candidates]]
        n = len(shortlist)
        totals = [0.0] * n
        alive = list(range(n))
        sampler = Sampler(view)
        stages = max(1, math.ceil(math.log2(n))) if self.halving else 1
        per_stage = self.simulations // stages
        for stage in range(stages):
            for _ in range(max(1, per_stage // len(alive))):
                world = sampler.world(self.rng)
                for i in alive:
                    totals[i] += self._simulate(world, shortlist[i], view.side)
            if stage < stages - 1:
                # every candidate still in has met the same worlds: keep the better half
                alive.sort(key=lambda i: (-totals[i], i))
                alive = sorted(alive[: max(2, math.ceil(len(alive) / 2))])
        best = max(alive, key=lambda i: (totals[i], -i))
        return shortlist[best]

    def _simulate(self, world: World, move: Move, side: int) -> float:
        """Play ``move`` in a copy of ``world``, then the strong player everywhere
        to the horizon; the result for ``side``."""
        trial = world.copy()
        over = trial.play(move.card, move.positions if move.plan else None)
        if not over:
            trial.finish(self.weights, self.deals)
        elif self.deals and trial.stock:
            trial.deal()
            trial.finish(self.weights, self.deals - 1)
        return trial.value(side)
