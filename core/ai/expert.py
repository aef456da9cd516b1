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

This seat's next play is not left to the strong player alone. A playout
goes on as the strong player to this seat's next turn in the deal, then
plays each of the strong player's ``second`` best choices there to the
horizon. The guesses that reach that turn by the same plays (the same
cards, taking the same cards: all this seat will have seen) are one
position to this seat, whatever hands they give the others, so which of
those choices it will make there is decided by them together: each guess
counts the choice that did best on the other guesses of its position (its
own result left out, so that the choice is not fitted to the luck it is
then judged on), and the strong player's choice while fewer than ``least``
others have been there. So a candidate is judged with the next play that
the plays in between will tell this seat to make, drawn from the hands the
reading expects, which a one-move judgement of the cards unseen cannot see;
it never looks at what one guess alone would show. This is done with 2
players; in 2-v-2 the budget goes to more guesses instead (see ``SECOND``).

In a 2-player round's last deal the stock is empty, so the other hand is
exactly the cards this seat has not seen, and nothing is left to guess but
how the other seat will play them. The rest of the round is then searched
exactly (``answer``: every card and plan of this seat, on the round's real
scoring, and whether the round ends the match) against a model of the other
seat read from its plays in the deals over: one that played the strong
player's best often enough (``STRONG_LIKE``) is answered as the strong
player, any other as a seat that searches one play deep with the strong
player's playouts, as the baseline and most computer players do. Played
from the same last deals, that takes about 0.3 points a round more than the
playouts against the strong player, and about 0.9 more against the baseline,
0.3 of it over solving the deal against a perfect player (see
bench/README.md).
"""

from __future__ import annotations

import math

from ..view import SeatView
from .answer import SEARCHER, STRONG, Answer, match_base
from .base import Player
from .inference import Reader, fitted_ranks, resample
from .judge import DEFAULT_WEIGHTS, Weights
from .moves import Move, without_wasted_points
from .playout import Sampler, Seen, World
from .strong import ranked

# What a seat sees of the others' plays between two of its own (None: the deal
# ended first).
Path = tuple[Seen, ...] | None

# Simulated plays per decision. With 2 players a guess plays out up to three
# of this seat's next plays (see SECOND), so it takes more plays; a 2-v-2
# playout is about twice as long, so at fewer plays a decision early in a
# deal would meet few guesses more than FIRST_ROUND. Both decide in well
# under 150 ms at the 99th percentile on a small 2-core machine (see
# bench/README.md).
DEFAULT_PLAYS = {2: 6000, 4: 4200}
# Under optional capture every capturing card may also be laid, so each
# play weighs about twice the moves: fewer plays keep the same pace.
OPTIONAL_CAPTURE_PLAYS = {2: 3600, 4: 2800}
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
# The strong player's best choices tried at this seat's next turn, and the
# other guesses that must reach it by the same plays before they choose. In
# 2-v-2 three plays come between two of a seat's own, so the guesses split
# among many more ways there, and the same budget spent on more guesses of
# the strong player's next play won as much (see bench/README.md).
SECOND = {2: 3, 4: 1}
LEAST = 4
# In a 2-player round's last deal the other seat is answered as the strong
# player when its fitted chance of playing the strong player's best is at
# least this, else as a seat that searches (see the module).
STRONG_LIKE = 0.8


class Expert(Player):
    """``plays``: simulated plays per decision, shared among the candidates
    (the strong player's best ``candidates`` plays); None for the default of
    the match's size and rules. ``simulations``, when given, caps the number
    of playouts instead. ``read``: whether the other seats' plays this deal
    say anything about their hands (False: every hand equally likely; see
    ``inference``); ``margin`` how far behind a candidate is dropped (0: never);
    ``second`` how many of the strong player's choices at this seat's next
    turn each playout tries (1: the strong player's alone; None: the default
    of the match's size), and ``least`` how many other guesses must reach
    that turn by the same plays before they choose among them (see the
    module); ``exact`` whether a 2-player round's last deal is searched
    exactly against a model of the other seat (``answer``) rather than by
    playouts, and ``strong_like`` from what fitted chance of the other seat
    playing the strong player's best that model is the strong player's
    rather than a searching seat's (see the module; above 1, never)."""

    level = "expert"

    def __init__(self, seed: object = None, simulations: int | None = None,
                 candidates: int = DEFAULT_CANDIDATES, weights: Weights = DEFAULT_WEIGHTS,
                 plays: int | None = None, read: bool = True,
                 margin: float = DEFAULT_MARGIN, proposals: int = PROPOSALS,
                 second: int | None = None, least: int = LEAST, exact: bool = True,
                 strong_like: float = STRONG_LIKE) -> None:
        super().__init__(seed)
        if (simulations is not None and simulations < 1) or candidates < 1 or (
                second is not None and second < 1) or (
                plays is not None and plays < 1):
            raise ValueError("an expert needs at least one simulation, one candidate and one next choice")
        self.simulations = simulations
        self.candidates = candidates
        self.weights = weights
        self.plays = plays
        self.read = read
        self.margin = margin
        self.proposals = proposals
        self.second = second
        self.least = least
        self.exact = exact
        self.strong_like = strong_like

    def choose_move(self, view: SeatView, moves: list[Move]) -> Move:
        # A play that a card of the same rank does better is no candidate:
        # simulations would spend their budget on it, and their noise could pick it.
        moves = without_wasted_points(moves, view.hand)
        if len(moves) == 1:
            return moves[0]
        order = [m for _, m in ranked(view, moves, self.weights)]
        sampler = Sampler(view)
        if self.exact and view.players == 2 and view.stock_count == 0:
            world = sampler.world(self.rng)
            # Every card not seen is in the other hand (a view made up with
            # more unseen cards than that, as some tests make, is searched
            # by playouts like the rest of the round).
            if not world.stock:
                return self._answered(view, world, order)
        shortlist = order[: self.candidates]
        n = len(shortlist)
        reader = Reader(view, self.read, self.weights)
        queue: list[World] = []
        if self.simulations is not None:
            plays_left = 1 << 30
            worlds_left = max(1, self.simulations // n)
        else:
            plays_left = self.plays or (
                OPTIONAL_CAPTURE_PLAYS if view.rules.optional_capture else DEFAULT_PLAYS
            )[view.players]
            worlds_left = MOST_WORLDS
        second = self.second or SECOND[view.players]
        results: list[list[float]] = [[] for _ in range(n)]
        # With ``second``: each guess's results for this seat's next play, by
        # what it will have seen by then (see ``_simulate_on``).
        raw: list[list[tuple[Path, list[float]]]] = [[] for _ in range(n)]
        nodes: dict[tuple[int, Path], list[float]] = {}
        alive = list(range(n))
        side = view.side
        worlds = 0
        next_check = FIRST_ROUND
        while worlds_left > 0 and plays_left > 0 and len(alive) > 1:
            if not queue:
                queue = self._guesses(sampler, reader)
            world = queue.pop()
            for i in alive:
                if second > 1:
                    seen, values, plays = self._simulate_on(world, shortlist[i], side, second)
                    raw[i].append((seen, values))
                    if seen is not None:
                        node = nodes.get((i, seen))
                        if node is None:
                            nodes[(i, seen)] = node = [0.0] * (len(values) + 1)
                        for j, v in enumerate(values):
                            node[j] += v
                        node[-1] += 1
                    results[i].append(values[0])
                else:
                    value, plays = self._simulate(world, shortlist[i], side)
                    results[i].append(value)
                plays_left -= plays
            worlds += 1
            worlds_left -= 1
            if worlds >= next_check and self.margin > 0:
                next_check += BATCH
                if nodes:
                    self._settle(alive, raw, nodes, results)
                alive = self._survivors(alive, results)
        if nodes:
            self._settle(alive, raw, nodes, results)
        best = max(alive, key=lambda i: (sum(results[i]), -i))
        return shortlist[best]

    def _model(self, view: SeatView) -> str:
        """How the other seat is taken to play the last deal: as the strong
        player when its plays in the deals over were the strong player's
        best often enough (``strong_like``), else as a seat that searches."""
        strong = fitted_ranks(view, self.weights)[1 - view.seat][0] >= self.strong_like
        return STRONG if strong else SEARCHER

    def _answered(self, view: SeatView, world: World, order: list[Move]) -> Move:
        """The last deal of a 2-player round, ``world`` holding every hand:
        the other hand is the cards not yet seen, so the rest of the round is
        searched exactly against the model of the other seat (``answer``).
        Of plays equally good, the one the strong player likes best."""
        answer = Answer(world, self._model(view), match_base(view), self.weights)
        best, _ = answer.best([(m.card, m.positions if m.plan else None) for m in order])
        return order[best]

    def _settle(self, alive: list[int], raw: list[list[tuple[Path, list[float]]]],
                nodes: dict[tuple[int, Path], list[float]], results: list[list[float]]) -> None:
        """Each guess's result with this seat's next play chosen by the other
        guesses that reach the same position (leaving the guess itself out, so
        that the choice is not fitted to the luck it is judged on); the strong
        player's choice until ``least`` others have been there."""
        for i in alive:
            out = results[i]
            for k, (seen, values) in enumerate(raw[i]):
                if seen is None:
                    continue
                node = nodes[(i, seen)]
                count = node[-1] - 1
                pick = 0
                if count >= self.least:
                    top = node[0] - values[0]
                    for j in range(1, len(values)):
                        other = node[j] - values[j]
                        if other > top:
                            top, pick = other, j
                out[k] = values[pick]

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

    def _simulate_on(self, world: World, move: Move, side: int,
                     second: int) -> tuple[Path, list[float], int]:
        """Play ``move`` in a copy of ``world``, the others as the strong player
        until this seat's next turn, then each of the strong player's ``second``
        best plays there, and on to the horizon: what this seat will have seen
        by then (None when the deal ends first), the result of each, and the
        plays all that took."""
        trial = world.copy()
        seat = trial.to_move
        if trial.play(move.card, move.positions if move.plan else None):
            return None, [trial.value(side)], 1
        seen = trial.play_to(seat, self.weights)
        if seen is None:
            played = sum(len(h) for h in world.hands) - sum(len(h) for h in trial.hands)
            return None, [trial.value(side)], played
        plays = len(seen) + 1
        values: list[float] = []
        for card, positions in trial.choices(self.weights, second):
            after = trial.copy()
            plays += 1
            if not after.play(card, positions):
                plays += after.finish(self.weights)
            values.append(after.value(side))
        return tuple(seen), values, plays

    def _simulate(self, world: World, move: Move, side: int) -> tuple[float, int]:
        """Play ``move`` in a copy of ``world``, then the strong player everywhere
        to the horizon; the result for ``side`` and the plays that took."""
        trial = world.copy()
        plays = 1
        if not trial.play(move.card, move.positions if move.plan else None):
            plays += trial.finish(self.weights)
        return trial.value(side), plays
