"""Positions for the computer players' tests: views built by hand, and decks."""

from __future__ import annotations

from collections.abc import Sequence

from core import Card, Match, Rules, SeatView
from core.view import PublicPlay


def cards(text: str) -> tuple[Card, ...]:
    return tuple(Card.parse(c) for c in text.split())


def view_of(
    hand: str,
    floor: str = "",
    *,
    players: int = 2,
    seat: int = 0,
    rules: Rules | None = None,
    hand_sizes: Sequence[int] | None = None,
    stock_count: int = 32,
    captured: tuple[int, int] = (0, 0),
    history: Sequence[PublicPlay] = (),
    dealer: int | None = None,
) -> SeatView:
    """A view of a position in the middle of a round: this seat to move."""
    mine = cards(hand)
    sizes = list(hand_sizes) if hand_sizes is not None else [len(mine)] * players
    sizes[seat] = len(mine)
    return SeatView(
        seat=seat,
        players=players,
        rules=rules or Rules(),
        hand=mine,
        floor=cards(floor),
        hand_sizes=tuple(sizes),
        stock_count=stock_count,
        scores=(0, 0),
        carry=0,
        round_no=1,
        dealer=(seat - 1) % players if dealer is None else dealer,
        to_move=seat,
        winner=None,
        captured=captured,
        round_basras=(0, 0),
        last_capture_side=None,
        buried=(),
        history=tuple(history),
        rounds=(),
    )


def deck_with(first: str, rest_order: int = 0) -> list[Card]:
    """A deck whose top cards are ``first``; the others follow in deck order,
    rotated by ``rest_order`` so two decks can differ only below the top."""
    top = list(cards(first))
    rest = [c for c in Card.deck() if c not in top]
    k = rest_order % len(rest)
    return top + rest[k:] + rest[:k]


def play_out(match: Match, bots: Sequence[object], plays: int | None = None) -> None:
    """Let the bots play ``plays`` plays (or to the end of the match)."""
    n = 0
    while match.to_move is not None and (plays is None or n < plays):
        seat = match.to_move
        card, plan = bots[seat].choose(match.view(seat))  # type: ignore[attr-defined]
        match.play(seat, card, plan)
        n += 1
