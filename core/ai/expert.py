"""The expert: card counting and search by determinization.

For each guess at the hidden cards (a ``World`` sampled from what this seat
knows), every candidate play is played out to the end of the deal with the
strong player in every seat, and the candidate with the best average result
wins. All candidates meet the same guesses, so their differences are not
drowned in the luck of the sampling. The budget is a number of simulations,
so a seed reproduces every choice exactly.
"""

from __future__ import annotations

from ..view import SeatView
from .base import Player
from .judge import DEFAULT_WEIGHTS, Weights
from .moves import Move
from .playout import sample_world
from .strong import ranked

DEFAULT_SIMULATIONS = 120
DEFAULT_CANDIDATES = 6


class Expert(Player):
    level = "expert"

    def __init__(self, seed: object = None, simulations: int = DEFAULT_SIMULATIONS,
                 candidates: int = DEFAULT_CANDIDATES, weights: Weights = DEFAULT_WEIGHTS,
                 deals: int = 0) -> None:
        super().__init__(seed)
        if simulations < 1 or candidates < 1:
            raise ValueError("an expert needs at least one simulation and one candidate")
        self.simulations = simulations
        self.candidates = candidates
        self.weights = weights
        self.deals = deals

    def choose_move(self, view: SeatView, moves: list[Move]) -> Move:
        if len(moves) == 1:
            return moves[0]
        shortlist = [m for _, m in ranked(view, moves, self.weights)[: self.candidates]]
        worlds = max(1, self.simulations // len(shortlist))
        totals = [0.0] * len(shortlist)
        side = view.side
        weights = self.weights
        rng = self.rng
        for _ in range(worlds):
            world = sample_world(view, rng)
            for i, move in enumerate(shortlist):
                trial = world.copy()
                over = trial.play(move.card, move.positions if move.plan else None)
                if not over:
                    trial.finish(weights, self.deals)
                elif self.deals and trial.stock:
                    trial.deal()
                    trial.finish(weights, self.deals - 1)
                totals[i] += trial.value(side)
        best = max(range(len(shortlist)), key=lambda i: (totals[i], -i))
        return shortlist[best]
