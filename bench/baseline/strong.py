"""The strong player's judgement of a view, frozen for the baseline's shortlist (see ``judge``)."""

from __future__ import annotations

from core.ai.judge import DEFAULT_WEIGHTS, Situation, Weights, judge
from core.ai.knowledge import buried_placement, hidden_cards
from core.ai.moves import Move
from core.ai.odds import floor_key
from core.ai.values import kind_counts
from core.view import SeatView


def situation(view: SeatView) -> Situation:
    """The judgement's inputs as this seat knows them."""
    side = view.side
    nxt = (view.seat + 1) % view.players
    hidden = hidden_cards(view)
    _, in_hands = buried_placement(view)
    next_cards = view.hand_sizes[nxt] or (4 if view.stock_count else 0)
    partner_cards = 0
    if view.players == 4:
        partner = (view.seat + 2) % 4
        # the partner has played this deal when it sits before this seat in the turn order
        partner_cards = view.hand_sizes[partner] or (4 if view.stock_count else 0)
    last_side = view.last_capture_side if view.last_capture_side is not None else view.dealer % 2
    return Situation(
        hand=view.hand,
        floor=view.floor,
        floor_key=floor_key(view.floor, view.rules),
        rules=view.rules,
        mine=view.captured[side],
        theirs=view.captured[1 - side],
        worth=view.rules.majority_points + view.carry,
        pool=kind_counts(hidden),
        pool_size=len(hidden),
        next_known=in_hands.get(nxt, []),
        next_cards=next_cards,
        partner_known=in_hands.get((view.seat + 2) % view.players, []) if view.players == 4 else [],
        partner_cards=partner_cards,
        last_play=view.stock_count == 0 and sum(view.hand_sizes) == 1,
        last_capture_mine=last_side == side,
    )


def ranked(view: SeatView, moves: list[Move], weights: Weights = DEFAULT_WEIGHTS) -> list[tuple[float, Move]]:
    """The moves with their judgement, best first (hand order breaks ties)."""
    s = situation(view)
    scored = [(judge(s, m.card, m.positions if m.plan else None, weights), i, m) for i, m in enumerate(moves)]
    scored.sort(key=lambda t: (-t[0], t[1]))
    return [(score, m) for score, _, m in scored]

