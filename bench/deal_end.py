"""How well the expert's value of a deal's end foretells the rest of the round.

    python bench/deal_end.py                    # 2 players, 3,000 matches of strong players
    python bench/deal_end.py --players 4 --matches 2000

A playout ends with its deal, and ``World.value`` says what the position is
worth from there: the majority's odds from the cards each side holds (a
normal spread of how the cards still out will split, ``values.LUMP``), and
the next deal's first shot at the floor (``odds.reply``). Matches of strong
players are played out (the playouts' own policy), and at each deal's end,
before the next deal, the position is recorded with what the rest of the
round then brought. Two fits are printed for each deal's end (by the cards
left in the stock):

- the spread of the majority that foretells best whether a side took it (a
  least-squares fit of ``LUMP`` on the positions where the majority is still
  open), against the ``LUMP`` the expert uses;
- a least-squares fit of the rest of the round's points, less the majority's
  share at the fitted spread, on the first shot, the floor's cards and the
  floor's points (signed for the side that has the first shot), and on which
  side has it: the coefficient of the first shot is 1 in the expert's value.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from core import events as ev
from core.ai import player
from core.ai.odds import BASRA_POINTS, HAND_SIZE, floor_options, pile_points, reply
from core.ai.values import KIND_OF, LUMP, MAJORITY, kind_counts, majority_share
from core.cards import Card
from core.match import Match
from core.rules import Rules


class Row(NamedTuple):
    """One deal's end, signed for side 0 where a side is meant."""

    size: int  # cards in the stock
    mine: int  # cards side 0 has taken
    theirs: int
    worth: int  # the majority's worth, carry included
    shot: float  # the next deal's first shot at the floor, for side 0
    floor_cards: int
    floor_points: int
    sign: int  # +1 when side 0 has the first shot, -1 when side 1 has it
    so_far: int  # points so far, side 0 less side 1
    final: int = 0  # the round's final points, side 0 less side 1
    took: int = 0  # who took the majority in the end (1: side 0, -1: side 1, 0: neither)


def rows(players: int, matches: int, seed: str) -> list[Row]:
    out: list[Row] = []
    deck_kinds = kind_counts(Card.deck())
    for m in range(matches):
        match = Match.new(players, Rules(), seed=f"{seed}:{m}", dealer=m % players)
        bots = [player("strong", seed=f"{seed}:{m}:{s}") for s in range(players)]
        pending: list[tuple[int, Row]] = []
        seen: set[tuple[int, int]] = set()
        while match.to_move is not None:
            seat = match.to_move
            view = match.view(seat)
            dealt = sum(view.hand_sizes) == HAND_SIZE * players
            key = (view.round_no, view.stock_count)
            if dealt and view.round_history and key not in seen:
                seen.add(key)
                rules = view.rules
                mine, theirs = view.captured
                worth = rules.majority_points + view.carry
                piles = match.piles
                stock = list(deck_kinds)
                for card in (*piles[0], *piles[1], *view.floor):
                    stock[KIND_OF[card.index]] -= 1
                size = sum(stock)
                first = (view.dealer + 1) % players % 2
                sign = 1 if first == 0 else -1
                taker, rest = (mine, theirs) if first == 0 else (theirs, mine)
                shot, _ = reply(floor_options(list(view.floor), rules), worth, taker, rest,
                                stock, size, (), HAND_SIZE)
                so_far = (pile_points(piles[0]) + BASRA_POINTS * view.round_basras[0]
                          - pile_points(piles[1]) - BASRA_POINTS * view.round_basras[1])
                pending.append((view.round_no, Row(size, mine, theirs, worth, sign * shot, len(view.floor),
                                                   pile_points(view.floor), sign, so_far)))
            card, plan = bots[seat].choose(view)
            for event in match.play(seat, card, plan):
                if isinstance(event, ev.RoundScored):
                    final = event.points[0] - event.points[1]
                    a, b = event.cards
                    took = 1 if a >= MAJORITY else -1 if b >= MAJORITY else 0
                    ended = event.round_no
                    out.extend(row._replace(final=final, took=took) for r, row in pending if r == ended)
                    pending = [(r, row) for r, row in pending if r != ended]
    return out


def error(group: list[Row], lump: float) -> float:
    """Mean squared error of the majority's share at ``lump`` against who took it."""
    return sum((majority_share(r.mine, r.theirs, lump) - r.took) ** 2 for r in group) / len(group)


def least_squares(xs: list[list[float]], ys: list[float]) -> tuple[list[float], list[float]]:
    """Coefficients and their standard errors (normal equations, Gauss-Jordan)."""
    k = len(xs[0])
    a = [[sum(x[i] * x[j] for x in xs) for j in range(k)] for i in range(k)]
    inv = [[float(i == j) for j in range(k)] for i in range(k)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        inv[col], inv[pivot] = inv[pivot], inv[col]
        p = a[col][col]
        a[col] = [v / p for v in a[col]]
        inv[col] = [v / p for v in inv[col]]
        for r in range(k):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [v - f * w for v, w in zip(a[r], a[col], strict=True)]
                inv[r] = [v - f * w for v, w in zip(inv[r], inv[col], strict=True)]
    pairs = list(zip(xs, ys, strict=True))
    moments = [sum(x[j] * y for x, y in pairs) for j in range(k)]
    b = [sum(inv[i][j] * moments[j] for j in range(k)) for i in range(k)]
    residual = sum((y - sum(bi * xi for bi, xi in zip(b, x, strict=True))) ** 2 for x, y in pairs) / len(ys)
    return b, [math.sqrt(inv[i][i] * residual) for i in range(k)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 4))
    parser.add_argument("--matches", type=int, default=3000)
    parser.add_argument("--seed", default="deal-end")
    args = parser.parse_args()
    by: dict[int, list[Row]] = defaultdict(list)
    for row in rows(args.players, args.matches, args.seed):
        by[row.size].append(row)
    print(f"{args.players} players, {args.matches} matches of strong players; the expert's LUMP is {LUMP}")
    for size in sorted(by):
        group = by[size]
        open_ = [r for r in group if r.mine < MAJORITY and r.theirs < MAJORITY]

        lump = min((2.0 + 0.25 * k for k in range(41)), key=lambda spread: error(open_, spread))
        xs = [[r.shot, r.sign * r.floor_cards, r.sign * r.floor_points, r.sign, 1.0] for r in group]
        ys = [r.final - r.so_far - r.worth * majority_share(r.mine, r.theirs, lump) for r in group]
        b, se = least_squares(xs, ys)
        print(f"deal's end with {size} cards in the stock: {len(group)} positions; majority spread "
              f"{lump:.2f} (error {error(open_, lump):.4f} against {error(open_, LUMP):.4f} at {LUMP})")
        names = ("first shot", "floor cards", "floor points", "first side", "constant")
        print("  rest of the round: " + ", ".join(
            f"{n} {v:+.2f} ± {e:.2f}" for n, v, e in zip(names, b, se, strict=True)))


if __name__ == "__main__":
    main()
