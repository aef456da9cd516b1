"""The baseline: the expert as it was first released, frozen as a fixed level.

Its helpers are frozen copies beside it, so that changes to the expert's own
modules cannot move it; progress is measured against it.

The expert it copies: card counting and search by determinization.

For each guess at the hidden cards (a ``World`` sampled from what this seat
knows), every candidate play is played out to the end of the deal with the
strong player in every seat, and the candidate with the best average result
wins. All candidates meet the same guesses, so their differences are not
drowned in the luck of the sampling. The budget is a number of simulations,
so a seed reproduces every choice exactly.
"""

from __future__ import annotations

from core.ai.base import Player
from core.ai.judge import DEFAULT_WEIGHTS, Weights
from core.ai.moves import Move
from core.view import SeatView

from .moves import without_wasted_points
from .playout import Sampler, World
from .strong import ranked

# Simulations per decision. A 2-v-2 simulation plays twice as many cards to
# the end of the deal, so it gets fewer: both decide in well under 150 ms at
# the 99th percentile on a small 2-core machine (see bench/README.md).
DEFAULT_SIMULATIONS = {2: 200, 4: 80}
# Under optional capture every capturing card may also be laid, so each
# playout weighs about twice the moves: fewer simulations keep the same pace.
OPTIONAL_CAPTURE_SIMULATIONS = {2: 120, 4: 50}
DEFAULT_CANDIDATES = 6


class Baseline(Player):
    """``simulations``: playouts per decision, shared among the candidates (the
    strong player's best ``candidates`` plays); None for the default of the
    match's size and rules."""

    level = "baseline"

    def __init__(self, seed: object = None, simulations: int | None = None,
                 candidates: int = DEFAULT_CANDIDATES, weights: Weights = DEFAULT_WEIGHTS) -> None:
        super().__init__(seed)
        if (simulations is not None and simulations < 1) or candidates < 1:
            raise ValueError("a baseline needs at least one simulation and one candidate")
        self.simulations = simulations
        self.candidates = candidates
        self.weights = weights

    def choose_move(self, view: SeatView, moves: list[Move]) -> Move:
        # A play that a card of the same rank does better is no candidate:
        # simulations would spend their budget on it, and their noise could pick it.
        moves = without_wasted_points(moves, view.hand)
        if len(moves) == 1:
            return moves[0]
        shortlist = [m for _, m in ranked(view, moves, self.weights)[: self.candidates]]
        n = len(shortlist)
        totals = [0.0] * n
        sampler = Sampler(view)
        budget = self.simulations or (
            OPTIONAL_CAPTURE_SIMULATIONS if view.rules.optional_capture else DEFAULT_SIMULATIONS
        )[view.players]
        for _ in range(max(1, budget // n)):
            world = sampler.world(self.rng)
            for i in range(n):
                totals[i] += self._simulate(world, shortlist[i], view.side)
        best = max(range(n), key=lambda i: (totals[i], -i))
        return shortlist[best]

    def _simulate(self, world: World, move: Move, side: int) -> float:
        """Play ``move`` in a copy of ``world``, then the strong player everywhere
        to the horizon; the result for ``side``."""
        trial = world.copy()
        if not trial.play(move.card, move.positions if move.plan else None):
            trial.finish(self.weights)
        return trial.value(side)
