"""What the plays of this deal say about the hands that made them.

A player who laid a card, or took little, while another card would have
taken much more, probably did not hold that card. ``Reader`` weighs a guess
at the hidden hands (a ``World``) by how well each play of this deal fits
the hand the guess gives its player: each play is judged as the strong
player judges it, from what that player could see at the time, and ranked
among the moves of that hand (``rank``: how many of them the judgement puts
above it). A guess weighs, for each play, the chance that its player makes
the judgement's best move, its second, its third, or one lower (a stray,
as likely whichever it is), shared among the moves judged alike. Each seat's
chances are fitted to how it has played so far (``fitted_ranks``): in the
deals already over every hand is known, since a deal's cards are all played
in it. A player who always plays as the judgement says is read sharply (a
hand that would have played otherwise is nearly ruled out); one that thinks
further than one move, as the expert does, is read for what its plays say.

The rank, not how many points a play falls short of the best: a player who
searches passes up the judgement's best play about one time in four, and
then often by many points (of the baseline's plays, three in four are the
best, one in eleven more than 3 points short, one in a hundred 14 or more).
Weighed by the shortfall, with the mean shortfall as the scale, such a play
all but rules out the hand that really made it, and the reading made the
true hands less likely than no reading at all; by the rank it does not, and
the strong player is read more sharply too (see bench/README.md).

Only the plays since this deal's cards came count: a seat's earlier hands
are gone, and what those plays say is already in the cards seen. The reading
uses public plays only (``SeatView.history``).
"""

from __future__ import annotations

import math
from typing import Final

from ..cards import Card
from ..plans import plan_positions_for
from ..rules import Rules
from ..view import SeatView
from .judge import DEFAULT_WEIGHTS, Situation, Weights, judge
from .odds import floor_key
from .values import KIND_OF, KINDS, kind_counts

# The chances of a play being the judgement's best, second, third, or any
# lower move of its hand, before a seat's plays say how it plays: as many
# plays as these counts, added to those of the deals already over.
RANK_PRIOR: Final = (2.0, 1.0, 1.0, 1.0)
# Below this weight a guess is as good as ruled out.
LOWEST_LOG: Final = -30.0


class PastPlay:
    """One play of this deal by another seat, and what its player could see then."""

    __slots__ = ("card", "floor", "key", "last_capture_mine", "later", "mine", "next_cards",
                 "partner_cards", "pool", "positions", "seat", "theirs")

    seat: int
    card: Card
    positions: tuple[int, ...] | None  # of the floor as listed here; None for a lay
    floor: list[Card]  # before the play, in deck order (only the set matters to a judgement)
    key: int
    later: list[Card]  # the cards its player played this deal from this play on, this one included
    mine: int
    theirs: int
    pool: list[int]  # kind counts of the cards its player could not see, its hand not yet taken out
    next_cards: int
    partner_cards: int
    last_capture_mine: bool


class Reader:
    """Weighs guesses at the hidden hands by the plays of this deal (see the module)."""

    def __init__(self, view: SeatView, read: bool = True,
                 weights: Weights = DEFAULT_WEIGHTS) -> None:
        self.weights = weights
        self.rules = view.rules
        self.worth = view.rules.majority_points + view.carry
        self.plays: list[PastPlay] = []
        self.seats: list[int] = []  # the seats with plays to read
        # Per seat, the weights of the hands already judged, by their kinds.
        self.memo: list[dict[int, float]] = [{} for _ in range(view.players)]
        # Seen by all at the deal, so never in a pool, even from a hand.
        self.buried = frozenset(view.buried)
        if not read:
            self.chances: list[list[float]] = [[] for _ in range(view.players)]
            return
        self.chances = fitted_ranks(view, weights)
        players = view.players
        history = view.round_history
        count = len(history)
        start = count - count % (4 * players)
        if start == count:
            return
        deal_left = 4 if view.stock_count else 0
        # Walk back from now to the deal's first play: the floor, the piles
        # and the hands as they were before each play.
        floor: set[Card] = set(view.floor)
        captured = [view.captured[0], view.captured[1]]
        held = list(view.hand_sizes)
        later: list[list[Card]] = [[] for _ in range(players)]
        before: list[tuple[int, list[Card], list[int], list[int], list[Card]]] = []
        for j in range(count - 1, start - 1, -1):
            play = history[j]
            if play.taken:
                floor.update(play.taken)
                captured[play.seat % 2] -= len(play.taken) + 1
            else:
                floor.discard(play.card)
            held[play.seat] += 1
            later[play.seat].append(play.card)
            if play.seat != view.seat:
                before.append((j, sorted(floor, key=lambda c: c.index), list(captured), list(held),
                               list(later[play.seat])))
        seen_before: set[Card] = set(view.buried)
        last_side: list[int] = []  # the side of the last capture before each play of the round
        side = view.dealer % 2
        for play in history:
            last_side.append(side)
            if play.taken:
                side = play.seat % 2
        for j, past_floor, past_captured, past_held, its_later in reversed(before):
            play = history[j]
            seen = set(seen_before)
            for earlier in history[:j]:
                seen.add(earlier.card)
                seen.update(earlier.taken)
            seen.update(past_floor)
            p = PastPlay()
            p.seat = play.seat
            p.card = play.card
            p.floor = past_floor
            p.key = floor_key(past_floor, view.rules)
            if play.taken:
                taken = set(play.taken)
                p.positions = tuple(i for i, c in enumerate(past_floor) if c in taken)
            else:
                p.positions = None
            p.later = its_later
            my_side = play.seat % 2
            p.mine = past_captured[my_side]
            p.theirs = past_captured[1 - my_side]
            p.pool = kind_counts(c for c in Card.deck() if c not in seen)
            p.next_cards = past_held[(play.seat + 1) % players] or deal_left
            p.partner_cards = (past_held[(play.seat + 2) % 4] or deal_left) if players == 4 else 0
            p.last_capture_mine = last_side[j] == my_side
            self.plays.append(p)
        self.seats = sorted({p.seat for p in self.plays})

    @property
    def reads(self) -> bool:
        """Whether any play of this deal says something about a hidden hand."""
        return bool(self.plays)

    def log_weight(self, hands: list[list[Card]]) -> float:
        """How well the guess ``hands`` (every seat's hand now) fits the plays of this deal.

        Each seat's plays depend on its own hand alone, and a judgement on
        the kinds of its cards alone, so the weight is a sum over the seats
        that played, each kept by the kinds of the hand it is given: the
        guesses of one decision share a few hundred hands at most."""
        total = 0.0
        for seat in self.seats:
            total += self.seat_weight(seat, hands[seat])
            if total < LOWEST_LOG:
                return LOWEST_LOG
        return total

    def seat_weight(self, seat: int, hand: list[Card]) -> float:
        """How well ``hand`` as ``seat``'s hand now fits its plays this deal (a log)."""
        key = 0
        for kind in sorted([KIND_OF[c.index] for c in hand]):
            key = key * (KINDS + 1) + kind + 1
        known = self.memo[seat]
        value = known.get(key)
        if value is None:
            value = self._seat_weight(seat, hand)
            known[key] = value
        return value

    def _seat_weight(self, seat: int, hand: list[Card]) -> float:
        total = 0.0
        chances = self.chances[seat]
        for above, alike in self.ranks(seat, hand):
            total += math.log(chances[min(above, len(chances) - 1)] / alike)
        return max(LOWEST_LOG, total)

    def ranks(self, seat: int, hand: list[Card]) -> list[tuple[int, int]]:
        """Where each of ``seat``'s plays this deal stands among the moves it
        would have had with ``hand`` as its hand now (see ``rank``)."""
        out: list[tuple[int, int]] = []
        for p in self.plays:
            if p.seat != seat:
                continue
            held = hand + p.later
            pool = list(p.pool)
            for card in held:
                if card not in self.buried:
                    pool[KIND_OF[card.index]] -= 1
            out.append(rank(p, held, pool, self.rules, self.worth, self.weights))
        return out


def rank(p: PastPlay, hand: list[Card], pool: list[int], rules: Rules, worth: int,
         weights: Weights) -> tuple[int, int]:
    """Where the play ``p`` stands among the moves of ``hand`` by the strong
    player's judgement (``pool``: the cards its player could not see): how
    many moves it judges better, and how many alike, the play itself included."""
    s = Situation(
        hand=hand,
        floor=p.floor,
        floor_key=p.key,
        rules=rules,
        mine=p.mine,
        theirs=p.theirs,
        worth=worth,
        pool=pool,
        pool_size=sum(pool),
        next_known=(),
        next_cards=p.next_cards,
        partner_known=(),
        partner_cards=p.partner_cards,
        last_play=False,
        last_capture_mine=p.last_capture_mine,
    )
    actual = judge(s, p.card, p.positions, weights)
    values: list[float] = []
    optional = rules.optional_capture
    for card in hand:
        options = plan_positions_for(card, p.floor)
        for positions in options:
            values.append(judge(s, card, positions, weights))
        if not options or optional:
            values.append(judge(s, card, None, weights))
    best = max(values)
    short = best - actual
    above = 0
    alike = 0
    for value in values:
        gap = best - value
        if gap < short - 1e-9:
            above += 1
        elif gap <= short + 1e-9:
            alike += 1
    return above, max(1, alike)


def fitted_ranks(view: SeatView, weights: Weights = DEFAULT_WEIGHTS) -> list[list[float]]:
    """For each seat, the chance that its play is the strong player's best move,
    second, third, or lower: from how its plays ranked in the deals already over
    (this round's and the last round's), where every hand is known, since every
    card of a deal is played in it, and ``RANK_PRIOR``. A seat that always played
    as judged is read sharply; one that often did not, loosely."""
    players = view.players
    per_deal = 4 * players
    deals = 48 // per_deal
    counts = [list(RANK_PRIOR) for _ in range(players)]
    deck = Card.deck()
    for round_no in (view.round_no - 1, view.round_no):
        plays = [p for p in view.history if p.round_no == round_no]
        if not plays:
            continue
        if round_no == view.round_no:
            floor = set(view.floor)
            for play in reversed(plays):
                if play.taken:
                    floor.update(play.taken)
                else:
                    floor.discard(play.card)
            seen = set(view.buried)
            dealer = view.dealer
        else:
            played = {p.card for p in plays}
            floor = {c for c in deck if c not in played}
            seen = set()
            dealer = (view.dealer - 1) % players
        over = len(plays) // per_deal  # the deals of this round already over
        captured = [0, 0]
        last_side = dealer % 2
        for i, play in enumerate(plays):
            deal = i // per_deal
            side = play.seat % 2
            if deal < over and play.seat != view.seat:
                end = (deal + 1) * per_deal
                hand = [plays[k].card for k in range(i, end) if plays[k].seat == play.seat]
                if len(hand) > 1:
                    held = [0] * players
                    for k in range(i, end):
                        held[plays[k].seat] += 1
                    deal_left = 4 if deal < deals - 1 else 0
                    past = PastPlay()
                    past.seat = play.seat
                    past.card = play.card
                    past.floor = sorted(floor, key=lambda c: c.index)
                    past.key = floor_key(past.floor, view.rules)
                    taken = set(play.taken)
                    past.positions = (tuple(j for j, c in enumerate(past.floor) if c in taken)
                                      if play.taken else None)
                    past.later = []
                    past.mine = captured[side]
                    past.theirs = captured[1 - side]
                    known = seen | floor
                    pool = kind_counts(c for c in deck if c not in known and c not in hand)
                    past.pool = pool
                    past.next_cards = held[(play.seat + 1) % players] or deal_left
                    past.partner_cards = (held[(play.seat + 2) % 4] or deal_left) if players == 4 else 0
                    past.last_capture_mine = last_side == side
                    worth = view.rules.majority_points + view.carry
                    above, _ = rank(past, hand, pool, view.rules, worth, weights)
                    mine = counts[play.seat]
                    mine[min(above, len(mine) - 1)] += 1
            seen.add(play.card)
            if play.taken:
                seen.update(play.taken)
                floor.difference_update(play.taken)
                captured[side] += len(play.taken) + 1
                last_side = side
            else:
                floor.add(play.card)
    out: list[list[float]] = []
    for seat_counts in counts:
        total = sum(seat_counts)
        out.append([c / total for c in seat_counts])
    return out


def resample(log_weights: list[float], count: int, mark: float) -> list[int]:
    """``count`` indexes drawn in proportion to the weights (systematic
    resampling, one uniform ``mark`` in [0, 1) for all of them)."""
    top = max(log_weights)
    weights = [math.exp(w - top) for w in log_weights]
    total = sum(weights)
    step = total / count
    point = mark * step
    out: list[int] = []
    running = 0.0
    i = 0
    last = len(weights) - 1
    for _ in range(count):
        while i < last and running + weights[i] <= point:
            running += weights[i]
            i += 1
        out.append(i)
        point += step
    return out


__all__ = ["KINDS", "RANK_PRIOR", "Reader", "fitted_ranks", "rank", "resample"]
