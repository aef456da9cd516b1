"""A light copy of a round for the expert's simulations: lists of cards, no events.

A ``World`` is one guess at the hidden cards, consistent with everything a
seat knows (see ``knowledge``). Plays follow the rules of ``core.match``
exactly, but skip what a simulation does not need: events, history, checks.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from core.ai.judge import DEFAULT_WEIGHTS, Situation, Weights, judge
from core.ai.knowledge import buried_placement, hidden_cards
from core.ai.odds import BASRA_POINTS, HAND_SIZE, floor_key, floor_options, reply
from core.ai.values import KIND_OF, MAJORITY, MAJORITY_SHARE, kind_counts
from core.cards import Card
from core.plans import is_basra, plan_positions_for
from core.rules import Rules
from core.view import SeatView

PlayChoice = tuple[Card, tuple[int, ...] | None]


class World:
    """The state of a round in one simulation. ``points`` and ``captured`` are per side."""

    __slots__ = (
        "captured",
        "dealer",
        "floor",
        "hands",
        "hidden",
        "last_capture",
        "players",
        "points",
        "rules",
        "stock",
        "to_move",
        "worth",
    )

    players: int
    rules: Rules
    worth: int
    dealer: int
    to_move: int
    hands: list[list[Card]]
    floor: list[Card]
    stock: list[Card]  # top card last
    captured: list[int]
    points: list[int]  # card points and basras taken since the simulation began
    last_capture: int | None
    hidden: list[int]  # kind counts of every card in a hand or the stock

    def copy(self) -> World:
        other = World.__new__(World)
        other.players = self.players
        other.rules = self.rules
        other.worth = self.worth
        other.dealer = self.dealer
        other.to_move = self.to_move
        other.hands = [list(h) for h in self.hands]
        other.floor = list(self.floor)
        other.stock = list(self.stock)
        other.captured = list(self.captured)
        other.points = list(self.points)
        other.last_capture = self.last_capture
        other.hidden = list(self.hidden)
        return other

    # -- playing ------------------------------------------------------------

    def play(self, card: Card, positions: Sequence[int] | None) -> bool:
        """Play for the seat to move; True when the deal (or the round) is over."""
        seat = self.to_move
        hands = self.hands
        hands[seat].remove(card)
        self.hidden[KIND_OF[card.index]] -= 1
        floor = self.floor
        if positions is not None:
            side = seat % 2
            points = card.points
            if len(positions) == len(floor):
                if is_basra(card, floor, self.rules):
                    points += BASRA_POINTS
                for c in floor:
                    points += c.points
                self.floor = []
            else:
                drop = set(positions)
                kept = []
                for i, c in enumerate(floor):
                    if i in drop:
                        points += c.points
                    else:
                        kept.append(c)
                self.floor = kept
            self.points[side] += points
            self.captured[side] += len(positions) + 1
            self.last_capture = side
        else:
            floor.append(card)
        self.to_move = (seat + 1) % self.players
        if hands[self.to_move]:
            return False
        for hand in hands:
            if hand:
                return False
        if not self.stock:
            self._end_round()
        return True

    def _end_round(self) -> None:
        if self.floor:
            side = self.last_capture if self.last_capture is not None else self.dealer % 2
            self.captured[side] += len(self.floor)
            self.points[side] += sum(c.points for c in self.floor)
            self.floor = []

    @property
    def round_over(self) -> bool:
        return not self.stock and not any(self.hands)

    # -- judging --------------------------------------------------------------

    def moves(self) -> list[PlayChoice]:
        hand = self.hands[self.to_move]
        floor = self.floor
        optional = self.rules.optional_capture
        out: list[PlayChoice] = []
        for card in hand:
            options = plan_positions_for(card, floor)
            for positions in options:
                out.append((card, positions))
            if not options or optional:
                out.append((card, None))
        return out

    def situation(self) -> Situation:
        """The judgement's inputs for the seat to move, from what that seat could know."""
        seat = self.to_move
        players = self.players
        hand = self.hands[seat]
        pool = list(self.hidden)
        for card in hand:
            pool[KIND_OF[card.index]] -= 1
        side = seat % 2
        deal_left = 4 if self.stock else 0
        nxt = (seat + 1) % players
        partner_cards = 0
        if players == 4:
            partner_cards = len(self.hands[(seat + 2) % 4]) or deal_left
        last_side = self.last_capture if self.last_capture is not None else self.dealer % 2
        return Situation(
            hand=hand,
            floor=self.floor,
            floor_key=floor_key(self.floor, self.rules),
            rules=self.rules,
            mine=self.captured[side],
            theirs=self.captured[1 - side],
            worth=self.worth,
            pool=pool,
            pool_size=sum(pool),
            next_known=(),
            next_cards=len(self.hands[nxt]) or deal_left,
            partner_known=(),
            partner_cards=partner_cards,
            last_play=not self.stock and len(hand) == 1 and sum(len(h) for h in self.hands) == 1,
            last_capture_mine=last_side == side,
        )

    def policy(self, weights: Weights = DEFAULT_WEIGHTS) -> PlayChoice:
        """The strong player's choice for the seat to move."""
        moves = self.moves()
        if len(moves) == 1:
            return moves[0]
        s = self.situation()
        best = moves[0]
        best_score = -1e9
        for card, positions in moves:
            score = judge(s, card, positions, weights)
            if score > best_score:
                best, best_score = (card, positions), score
        return best

    def finish(self, weights: Weights = DEFAULT_WEIGHTS) -> None:
        """Play the strong player for every seat to the end of the deal (or round).

        Going on into the next deal was tried: the longer playouts are noisier
        and cost twice as much, and the expert won fewer matches with them.
        """
        while not self.play(*self.policy(weights)):
            pass

    def value(self, side: int) -> float:
        """How good the world is for ``side`` at the end of a deal, in points:
        what was taken since the simulation began, the majority (settled, or
        expected from the cards taken so far), and the first shot at the floor
        that the next deal's first player gets."""
        other = 1 - side
        score = float(self.points[side] - self.points[other])
        mine, theirs = self.captured[side], self.captured[other]
        if self.round_over:
            if mine >= MAJORITY:
                score += self.worth
            elif theirs >= MAJORITY:
                score -= self.worth
            return score
        score += self.worth * MAJORITY_SHARE[mine][theirs]
        if self.floor:
            first = (self.dealer + 1) % self.players
            first_side = first % 2
            taker, rest = (mine, theirs) if first_side == side else (theirs, mine)
            options = floor_options(self.floor, self.rules)
            stock = kind_counts(self.stock)
            shot, _ = reply(options, self.worth, taker, rest, stock, len(self.stock), (), HAND_SIZE)
            score += shot if first_side == side else -shot
        return score


class Sampler:
    """Deals the hidden cards of one view again and again: each ``world`` is one
    guess consistent with the view. The other hands get their known buried
    cards and the rest at random; the stock gets the remainder, with the buried
    cards still in it at the bottom."""

    def __init__(self, view: SeatView) -> None:
        self.view = view
        in_stock, in_hands = buried_placement(view)
        self.hidden = hidden_cards(view)
        self.in_stock = in_stock
        self.known = [list(in_hands.get(seat, ())) for seat in range(view.players)]
        self.need = [0 if seat == view.seat else view.hand_sizes[seat] - len(self.known[seat])
                     for seat in range(view.players)]
        counts = kind_counts(self.hidden)
        for cards in (in_stock, view.hand, *self.known):
            for card in cards:
                counts[KIND_OF[card.index]] += 1
        self.counts = counts

    def world(self, rng: random.Random) -> World:
        view = self.view
        hidden = list(self.hidden)
        rng.shuffle(hidden)
        hands: list[list[Card]] = []
        for seat in range(view.players):
            if seat == view.seat:
                hands.append(list(view.hand))
                continue
            need = self.need[seat]
            hand = self.known[seat] + hidden[len(hidden) - need:] if need > 0 else list(self.known[seat])
            if need > 0:
                del hidden[len(hidden) - need:]
            hands.append(hand)
        world = World.__new__(World)
        world.players = view.players
        world.rules = view.rules
        world.worth = view.rules.majority_points + view.carry
        world.dealer = view.dealer
        world.to_move = view.seat
        world.hands = hands
        world.floor = list(view.floor)
        world.stock = self.in_stock + hidden
        world.captured = list(view.captured)
        world.points = [0, 0]
        world.last_capture = view.last_capture_side
        world.hidden = list(self.counts)
        return world


def sample_world(view: SeatView, rng: random.Random) -> World:
    """One guess at the hidden cards consistent with ``view`` (see ``Sampler``)."""
    return Sampler(view).world(rng)
