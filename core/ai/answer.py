"""The best answer to a seat whose way of playing is known, in a 2-player round's last deal.

With 2 players the stock is empty in a round's last deal, so every hand is
known: the other hand is the cards this seat has not seen. What is left is
not a guess at the cards but a guess at how the other seat will play them.
``Answer`` searches the rest of the round exactly for this side, every card
and every capture plan, with the other seat playing as a model of it says:

- ``STRONG``: the strong player's judgement, its best play (``World.policy``).
- ``SEARCHER``: a player that searches one play deep, as the baseline and
  most computer players do: of the judgement's best ``SHORTLIST`` plays, the
  one whose playout, the strong player in both seats to the round's end,
  does best for it.

Where a model's plays tie (the same judgement, or the same playout), the
hand's order decides, and that order is not seen: each of the tied plays is
taken as equally likely, in the model's playouts too. The result is this
side's on the round's real scoring, and whether the round ends the match
(``MATCH_POINTS``: a won match outweighs any points); the model's own
playouts count points, as a searching seat's do.

Against a seat that plays as its model this is the best there is. It takes
what the model misses, which exact play against a perfect player gives up
(the minimax the expert used before, ``core/ai/endgame.py`` at commit
c931c60): a searching seat looks one play deep and the strong player
judges one play, and neither sees the whole deal (see bench/README.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..view import SeatView
from .judge import DEFAULT_WEIGHTS, Weights, judge
from .odds import BASRA_POINTS
from .playout import PlayChoice, World
from .values import MAJORITY

# What deciding the match is worth, against any number of points.
MATCH_POINTS: Final = 1000.0
STRONG: Final = "strong"
SEARCHER: Final = "searcher"
MODELS: Final = (STRONG, SEARCHER)
# How many of the judgement's best plays a searching seat tries.
SHORTLIST: Final = 6
# Judgements and playouts closer than this are tied.
_TIE: Final = 1e-9

_Key = tuple[int, int, int, int, int, int, int, int]


def round_points(view: SeatView) -> tuple[int, int]:
    """The points each side has taken this round so far: card points and basras."""
    points = [0, 0]
    for play in view.round_history:
        if play.taken:
            side = play.seat % 2
            points[side] += play.card.points + sum(c.points for c in play.taken)
            if play.basra:
                points[side] += BASRA_POINTS
    return points[0], points[1]


def match_base(view: SeatView) -> tuple[int, int]:
    """Each side's match score if the round ended now with nothing more taken."""
    taken = round_points(view)
    return view.scores[0] + taken[0], view.scores[1] + taken[1]


class Answer:
    """The rest of the last deal of ``world`` (its stock empty, every hand
    known), this side (the side to move) answering as well as it can a seat
    that plays as ``model``. ``base``: each side's match score so far, this
    round's points included (``match_base``), so that a round that
    ends the match is valued as doing so; None to count points only. Values
    are for this side, in points."""

    def __init__(self, world: World, model: str, base: tuple[int, int] | None = None,
                 weights: Weights = DEFAULT_WEIGHTS) -> None:
        if world.stock:
            raise ValueError("an answer needs a last deal: the stock must be empty")
        if world.players != 2:
            raise ValueError("an answer needs 2 players")
        if model not in MODELS:
            raise ValueError(f"unknown model {model!r} (one of {', '.join(MODELS)})")
        self.world = world
        self.side = world.to_move % 2
        self.model = model
        self.base = base
        self.weights = weights
        self.target = world.rules.target
        self.split = world.rules.majority_tie == "split"
        self.table: dict[_Key, float] = {}
        self.played: dict[tuple[_Key, int], float] = {}

    def values(self, choices: Sequence[PlayChoice]) -> list[float]:
        """The worth of each of ``choices`` for this side."""
        return [self._after(choice) for choice in choices]

    def best(self, choices: Sequence[PlayChoice]) -> tuple[int, float]:
        """The first of ``choices`` with the best worth for this side, and that
        worth: a later choice must do strictly better to be picked."""
        best = 0
        best_value = -MATCH_POINTS * 10
        for i, choice in enumerate(choices):
            value = self._after(choice)
            if value > best_value + _TIE:
                best, best_value = i, value
        return best, best_value

    # -- the search ------------------------------------------------------------

    def _after(self, choice: PlayChoice) -> float:
        """The worth for this side of making ``choice`` now."""
        trial = self.world.copy()
        return self._end(trial) if trial.play(*choice) else self._value(trial)

    def _value(self, world: World) -> float:
        """The worth for this side of ``world``, whoever is to move."""
        key = _key(world)
        known = self.table.get(key)
        if known is not None:
            return known
        if world.to_move % 2 == self.side:
            value = -MATCH_POINTS * 10
            for card, positions in world.moves():
                trial = world.copy()
                worth = self._end(trial) if trial.play(card, positions) else self._value(trial)
                if worth > value:
                    value = worth
        else:
            replies = self.replies(world)
            value = 0.0
            for card, positions in replies:
                trial = world.copy()
                value += self._end(trial) if trial.play(card, positions) else self._value(trial)
            value /= len(replies)
        self.table[key] = value
        return value

    def replies(self, world: World) -> list[PlayChoice]:
        """The plays the model makes for the seat to move in ``world``, each
        equally likely (several when they tie)."""
        if self.model == STRONG:
            return _judged_best(world, self.weights)
        side = world.to_move % 2
        scored: list[tuple[float, PlayChoice]] = []
        for card, positions in world.choices(self.weights, SHORTLIST):
            trial = world.copy()
            worth = trial.value(side) if trial.play(card, positions) else self._played_out(trial, side)
            scored.append((worth, (card, positions)))
        top = max(worth for worth, _ in scored)
        return [choice for worth, choice in scored if worth >= top - _TIE]

    def _played_out(self, world: World, side: int) -> float:
        """The strong player's playout of ``world`` in both seats, for
        ``side`` in points, its tied plays equally likely."""
        key = (_key(world), side)
        known = self.played.get(key)
        if known is not None:
            return known
        plays = _judged_best(world, self.weights)
        value = 0.0
        for card, positions in plays:
            trial = world.copy()
            value += trial.value(side) if trial.play(card, positions) else self._played_out(trial, side)
        value /= len(plays)
        self.played[key] = value
        return value

    def _end(self, world: World) -> float:
        """The worth for this side of the round's end."""
        side = self.side
        score = world.value(side)
        base = self.base
        if base is None:
            return score
        a = base[0] + world.points[0]
        b = base[1] + world.points[1]
        worth = world.worth
        if world.captured[0] >= MAJORITY:
            a += worth
        elif world.captured[1] >= MAJORITY:
            b += worth
        elif self.split:
            a += worth
            b += worth
        if (a >= self.target or b >= self.target) and a != b:
            score += MATCH_POINTS if (a > b) == (side == 0) else -MATCH_POINTS
        return score


def _judged_best(world: World, weights: Weights) -> list[PlayChoice]:
    """The plays the strong player's judgement ranks best for the seat to move (several when tied)."""
    moves = world.moves()
    if len(moves) == 1:
        return moves
    situation = world.situation()
    scores = [judge(situation, card, positions, weights) for card, positions in moves]
    top = max(scores)
    return [move for move, score in zip(moves, scores, strict=True) if score >= top - _TIE]


def _key(world: World) -> _Key:
    """What the rest of the deal depends on: the cards of each hand and of the
    floor (not their order), the cards and points taken, the last capture and
    the seat to move."""
    hands = [0, 0]
    for seat in (0, 1):
        for card in world.hands[seat]:
            hands[seat] |= 1 << card.index
    floor = 0
    for card in world.floor:
        floor |= 1 << card.index
    last = -1 if world.last_capture is None else world.last_capture
    return (hands[0], hands[1], floor, world.captured[0], world.points[0], world.points[1],
            last, world.to_move)
