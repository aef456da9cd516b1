"""Exact search of the rest of a deal when every hand is known.

In a 2-player round's last deal (the stock empty) the other hand is exactly
the cards this seat has not seen: the rest of the round is a game of perfect
information, a few plays deep (at most 4 + 4 cards), and can be solved
outright. ``Deal`` does that by minimax with alpha-beta pruning and a table
of the positions already solved, over every card and every capture plan, on
the round's real scoring: the points taken, the basras, the cards left on the
floor going to the last side to capture, the majority, and, when the round
can end the match, whether it does (a won match outweighs any points).

The two sides alternate every play, with 2 players and with 4, so one
negamax serves both; in 2-v-2 partners are one side. A deal that does not
end the round is valued at its end as the playouts value it
(``World.value``: the majority as expected from the cards taken, and the
first shot at the floor left).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ..cards import Card
from ..plans import is_basra, plan_positions_for
from ..rules import Rules
from ..view import SeatView
from .odds import BASRA_POINTS, HAND_SIZE, floor_options, reply
from .playout import PlayChoice, World
from .values import KIND_OF, MAJORITY, MAJORITY_SHARE, kind_counts

# What deciding the match is worth, against any number of points.
MATCH_POINTS: Final = 1000.0
_EXACT: Final = 0
_LOWER: Final = 1
_UPPER: Final = 2
_INFINITY: Final = 1e18


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


class Deal:
    """The rest of one deal of a ``World`` whose hands are all known, searched
    exactly. ``base``: each side's match score so far (this round's points
    included), so that a round that ends the match is valued as doing so;
    None to count points only. Values are for side 0, in points."""

    def __init__(self, world: World, base: tuple[int, int] | None = None) -> None:
        self.players = world.players
        self.rules: Rules = world.rules
        self.worth = world.worth
        self.dealer = world.dealer
        self.hands = [list(h) for h in world.hands]
        self.floor = list(world.floor)
        self.to_move = world.to_move
        self.captured = list(world.captured)
        self.points = [0, 0]
        self.last = world.last_capture if world.last_capture is not None else world.dealer % 2
        self.round_ends = not world.stock
        self.stock_counts = kind_counts(world.stock)
        self.stock_size = len(world.stock)
        self.base = base
        self.target = world.rules.target
        self.optional = world.rules.optional_capture
        remaining = 0
        for hand in self.hands:
            for card in hand:
                remaining |= 1 << card.index
        self.remaining = remaining
        floor_mask = 0
        for card in self.floor:
            floor_mask |= 1 << card.index
        self.floor_mask = floor_mask
        self.table: dict[tuple[int, int, int, int, int, int], tuple[float, int]] = {}
        self.nodes = 0
        self._undos: list[_Undo] = []

    # -- the search -------------------------------------------------------------

    def values(self, choices: Sequence[PlayChoice]) -> list[float]:
        """The exact worth of each of ``choices`` for the side to move."""
        out: list[float] = []
        for card, positions in choices:
            self._play(card, positions)
            out.append(-self._search(-_INFINITY, _INFINITY))
            self._undo()
        return out

    def best(self, choices: Sequence[PlayChoice]) -> tuple[int, float]:
        """The first of ``choices`` with the best worth for the side to move,
        and that worth: a later choice must do strictly better to be picked."""
        best = 0
        best_value = -_INFINITY
        for i, (card, positions) in enumerate(choices):
            self._play(card, positions)
            value = -self._search(-_INFINITY, -best_value)
            self._undo()
            if value > best_value + 1e-9:
                best, best_value = i, value
        return best, best_value

    def _search(self, alpha: float, beta: float) -> float:
        self.nodes += 1
        seat = self.to_move
        hand = self.hands[seat]
        if not hand:
            value = self._deal_end()
            return value if seat % 2 == 0 else -value
        key = (self.remaining, self.floor_mask, self.captured[0], self.last,
               self.points[0], self.points[1])
        entry = self.table.get(key)
        if entry is not None:
            stored, flag = entry
            if flag == _EXACT:
                return stored
            if flag == _LOWER:
                if stored >= beta:
                    return stored
                if stored > alpha:
                    alpha = stored
            elif stored <= alpha:
                return stored
            elif stored < beta:
                beta = stored
        start = alpha
        best = -_INFINITY
        for card, positions in self._choices(hand):
            self._play(card, positions)
            value = -self._search(-beta, -alpha)
            self._undo()
            if value > best:
                best = value
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = _UPPER if best <= start else _LOWER if best >= beta else _EXACT
        self.table[key] = (best, flag)
        return best

    def _choices(self, hand: list[Card]) -> list[PlayChoice]:
        """Every play of ``hand``, one card of each kind (cards of a kind play
        alike), the likeliest best first: basras, then the biggest captures,
        then the cheapest lays."""
        floor = self.floor
        whole = len(floor)
        scored: list[tuple[int, int, PlayChoice]] = []
        kinds = 0
        for card in hand:
            kind = 1 << KIND_OF[card.index]
            if kinds & kind:
                continue
            kinds |= kind
            options = plan_positions_for(card, floor)
            for positions in options:
                worth = card.points + len(positions)
                for i in positions:
                    worth += floor[i].points
                if len(positions) == whole and is_basra(card, floor, self.rules):
                    worth += 100
                scored.append((-worth - 1000, len(scored), (card, positions)))
            if not options or self.optional:
                scored.append((card.points * 10 + (50 if card.is_sweeper else 0), len(scored), (card, None)))
        scored.sort()
        return [choice for _, _, choice in scored]

    # -- playing and taking back -----------------------------------------------------

    def _play(self, card: Card, positions: Sequence[int] | None) -> None:
        seat = self.to_move
        hand = self.hands[seat]
        at = hand.index(card)
        del hand[at]
        undo = _Undo(seat, at, card, self.floor, self.floor_mask, self.last)
        self.remaining ^= 1 << card.index
        floor = self.floor
        if positions is not None:
            side = seat % 2
            points = card.points
            taken = len(positions)
            if taken == len(floor):
                if is_basra(card, floor, self.rules):
                    points += BASRA_POINTS
                for c in floor:
                    points += c.points
                self.floor = []
                self.floor_mask = 0
            else:
                drop = set(positions)
                kept: list[Card] = []
                mask = self.floor_mask
                for i, c in enumerate(floor):
                    if i in drop:
                        points += c.points
                        mask ^= 1 << c.index
                    else:
                        kept.append(c)
                self.floor = kept
                self.floor_mask = mask
            undo.side = side
            undo.points = points
            undo.taken = taken + 1
            self.points[side] += points
            self.captured[side] += taken + 1
            self.last = side
        else:
            self.floor = [*floor, card]
            self.floor_mask |= 1 << card.index
        self.to_move = (seat + 1) % self.players
        self._undos.append(undo)

    def _undo(self) -> None:
        undo = self._undos.pop()
        self.to_move = undo.seat
        self.hands[undo.seat].insert(undo.at, undo.card)
        self.remaining |= 1 << undo.card.index
        self.floor = undo.floor
        self.floor_mask = undo.floor_mask
        self.last = undo.last
        if undo.taken:
            self.points[undo.side] -= undo.points
            self.captured[undo.side] -= undo.taken

    # -- the end of the deal ----------------------------------------------------

    def _deal_end(self) -> float:
        """The worth of the deal's end for side 0."""
        points = self.points
        captured = self.captured
        worth = self.worth
        if self.round_ends:
            p0, p1 = points[0], points[1]
            c0, c1 = captured[0], captured[1]
            if self.floor:
                left = len(self.floor)
                left_points = sum(c.points for c in self.floor)
                if self.last == 0:
                    c0 += left
                    p0 += left_points
                else:
                    c1 += left
                    p1 += left_points
            if c0 >= MAJORITY:
                p0 += worth
            elif c1 >= MAJORITY:
                p1 += worth
            elif self.rules.majority_tie == "split":
                p0 += worth
                p1 += worth
            score = float(p0 - p1)
            if self.base is not None:
                a = self.base[0] + p0
                b = self.base[1] + p1
                if (a >= self.target or b >= self.target) and a != b:
                    score += MATCH_POINTS if a > b else -MATCH_POINTS
            return score
        score = float(points[0] - points[1]) + worth * MAJORITY_SHARE[captured[0]][captured[1]]
        if self.floor:
            first_side = (self.dealer + 1) % self.players % 2
            mine, theirs = captured[first_side], captured[1 - first_side]
            shot, _ = reply(floor_options(self.floor, self.rules), worth, mine, theirs,
                            self.stock_counts, self.stock_size, (), HAND_SIZE)
            score += shot if first_side == 0 else -shot
        return score


class _Undo:
    """What one play changed, to take it back."""

    __slots__ = ("at", "card", "floor", "floor_mask", "last", "points", "seat", "side", "taken")

    def __init__(self, seat: int, at: int, card: Card, floor: list[Card], floor_mask: int,
                 last: int) -> None:
        self.seat = seat
        self.at = at
        self.card = card
        self.floor = floor
        self.floor_mask = floor_mask
        self.last = last
        self.side = 0
        self.points = 0
        self.taken = 0
