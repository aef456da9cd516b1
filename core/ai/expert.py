"""The expert: card counting, reading the other hands, and search by determinization.

For each guess at the hidden cards (a ``World`` sampled from what this seat
knows, and once other seats have played this deal, drawn from several such
guesses by how well their hands fit those plays: see ``inference``), every
candidate play is played out to the end of the deal with the strong player
in every seat, and the candidate with the best average result wins. The
result is the side's: in 2-v-2 a partner's capture counts as this seat's
own. All candidates meet the same guesses, so their differences are not
drowned in the luck of the sampling, and a candidate
that falls clearly behind the leader on the guesses so far (the mean of the
paired differences more than ``margin`` standard errors below) is dropped:
the budget goes to the close calls. The budget is a number of simulated
plays, so a seed reproduces every choice exactly, and a decision near the
end of a deal, whose playouts are short, meets many more guesses.
"""

from __future__ import annotations

import math

from ..view import SeatView
from .base import Player
from .inference import Reader, resample
from .judge import DEFAULT_WEIGHTS, Weights
from .moves import Move, without_wasted_points
from .playout import Sampler, World
from .strong import ranked

# Simulated plays per decision. A 2-v-2 playout is about twice as long, so at
# the 2-player budget a decision early in a deal would meet fewer guesses than
# FIRST_ROUND: 2-v-2 gets more plays, and won more matches with them. Both
# decide in well under 150 ms at the 99th percentile on a small 2-core machine
# (see bench/README.md).
DEFAULT_PLAYS = {2: 2000, 4: 2800}
# Under optional capture every capturing card may also be laid, so each
# play weighs about twice the moves: fewer plays keep the same pace.
OPTIONAL_CAPTURE_PLAYS = {2: 1200, 4: 850}
DEFAULT_CANDIDATES = 8
# Guesses every candidate meets before any is dropped, and how often the
# candidates are compared after that.
FIRST_ROUND = 16
BATCH = 8
# Never more guesses than this, however short the playouts.
MOST_WORLDS = 1200
# Guesses drawn at once when this deal's plays are read, and how many are
# proposed for each one drawn.
RESAMPLED = 8
PROPOSALS = 3
# Standard errors of the paired differences that put a candidate out.
DEFAULT_MARGIN = 2.5


class Expert(Player):
    """``plays``: simulated plays per decision, shared among the candidates
    (the strong player's best ``candidates`` plays); None for the default of
    the match's size and rules. ``simulations``, when given, caps the number
    of playouts instead. ``temperature`` sets how much the other seats' plays
    this deal say about their hands (None: as closely as each seat has played
    by the strong player's judgement so far; 0: nothing, every hand equally
    likely); ``margin`` how far behind a candidate is dropped (0: never)."""

    level = "expert"

    def __init__(self, seed: object = None, simulations: int | None = None,
                 candidates: int = DEFAULT_CANDIDATES, weights: Weights = DEFAULT_WEIGHTS,
                 plays: int | None = None, temperature: float | None = None,
                 margin: float = DEFAULT_MARGIN, proposals: int = PROPOSALS) -> None:
        super().__init__(seed)
        if (simulations is not None and simulations < 1) or candidates < 1 or (
                plays is not None and plays < 1):
            raise ValueError("an expert needs at least one simulation and one candidate")
        self.simulations = simulations
        self.candidates = candidates
        self.weights = weights
        self.plays = plays
        self.temperature = temperature
        self.margin = margin
        self.proposals = proposals

    def choose_move(self, view: SeatView, moves: list[Move]) -> Move:
        # A play that a card of the same rank does better is no candidate:
        # simulations would spend their budget on it, and their noise could pick it.
        moves = without_wasted_points(moves, view.hand)
        if len(moves) == 1:
            return moves[0]
        shortlist = [m for _, m in ranked(view, moves, self.weights)[: self.candidates]]
        n = len(shortlist)
        sampler = Sampler(view)
        reader = Reader(view, self.temperature, self.weights)
        queue: list[World] = []
        if self.simulations is not None:
            plays_left = 1 << 30
            worlds_left = max(1, self.simulations // n)
        else:
            plays_left = self.plays or (
                OPTIONAL_CAPTURE_PLAYS if view.rules.optional_capture else DEFAULT_PLAYS
            )[view.players]
            worlds_left = MOST_WORLDS
        results: list[list[float]] = [[] for _ in range(n)]
        alive = list(range(n))
        side = view.side
        worlds = 0
        next_check = FIRST_ROUND
        while worlds_left > 0 and plays_left > 0 and len(alive) > 1:
            if not queue:
                queue = self._guesses(sampler, reader)
            world = queue.pop()
            for i in alive:
                value, plays = self._simulate(world, shortlist[i], side)
                results[i].append(value)
                plays_left -= plays
            worlds += 1
            worlds_left -= 1
            if worlds >= next_check and self.margin > 0:
                next_check += BATCH
                alive = self._survivors(alive, results)
        best = max(alive, key=lambda i: (sum(results[i]), -i))
        return shortlist[best]

    def _guesses(self, sampler: Sampler, reader: Reader) -> list[World]:
        """The next guesses to play out: straight from the sampler when this
        deal's plays say nothing, else drawn from ``proposals`` times as many
        in proportion to how well they fit those plays."""
        if not reader.reads:
            return [sampler.world(self.rng)]
        # Only the hands are weighed: a world is built for the guesses picked.
        proposals = [sampler.shuffled(self.rng) for _ in range(self.proposals * RESAMPLED)]
        weights = [reader.log_weight(sampler.hands_of(hidden)) for hidden in proposals]
        picked = resample(weights, RESAMPLED, self.rng.random())
        picked.reverse()  # popped from the end: the first picked is played first
        return [sampler.build(proposals[i]) for i in picked]

    def _survivors(self, alive: list[int], results: list[list[float]]) -> list[int]:
        """The candidates not clearly behind the leader on the guesses so far."""
        leader = max(alive, key=lambda i: (sum(results[i]), -i))
        best = results[leader]
        count = len(best)
        kept = []
        for i in alive:
            if i == leader:
                kept.append(i)
                continue
            mine = results[i]
            total = 0.0
            squares = 0.0
            for k in range(count):
                d = best[k] - mine[k]
                total += d
                squares += d * d
            mean = total / count
            variance = max(0.0, squares / count - mean * mean)
            if mean <= self.margin * math.sqrt(variance / (count - 1)) + 1e-9:
                kept.append(i)
        return kept

    def _simulate(self, world: World, move: Move, side: int) -> tuple[float, int]:
        """Play ``move`` in a copy of ``world``, then the strong player everywhere
        to the horizon; the result for ``side`` and the plays that took."""
        trial = world.copy()
        plays = 1
        if not trial.play(move.card, move.positions if move.plan else None):
            plays += trial.finish(self.weights)
        return trial.value(side), plays
