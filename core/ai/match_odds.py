"""What the end of a deal is worth to the match, not only to the round.

Only the match is won: a side at 110 that needs 11 points plays the last
round differently from one at 40, and a point ahead matters more when both
sides are close to the target. ``MatchOdds`` turns a position at the end of a
deal into the chance of winning the match, in three steps:

- At the end of a round the totals are known: a side at the target or more
  with the higher total has won, and otherwise ``table`` says how often a
  side with ``a`` points beats one with ``b`` when both play evenly: it is
  worked out backwards from the target over the rounds of
  ``round_points.ROUND_POINTS`` (what a round between two strong players
  gives each side), scores counted in steps of ``STEP`` points.
- At the end of an earlier deal the rest of the round is not known. The
  majority goes to this side, the other or nobody, with the odds of
  ``values.MAJORITY_ODDS`` from the cards each side holds; the card points
  still out and the basras the deals left are likely to bring are split
  evenly on average, with a normal spread around that (the lead of the next
  deal's first player shifts it), taken at five points (Gauss-Hermite).
- Beyond ``MOST_TARGET`` the table would be too big to be worth building,
  and the caller counts points instead (``for_rules`` gives None).
"""

from __future__ import annotations

import math
from typing import Final

from ..rules import Rules
from .round_points import DEALS, ROUND_POINTS
from .values import MAJORITY_ODDS

STEP: Final = 2
MOST_TARGET: Final = 301
# Five-point Gauss-Hermite rule for a normal spread: offsets in standard
# deviations and their weights (summing to 1).
_NODES: Final = (0.0, 1.3556261799742657, -1.3556261799742657, 2.8569700138728056, -2.8569700138728056)
_WEIGHTS: Final = (0.5333333333333333, 0.2220759220056126, 0.2220759220056126, 0.011257411327720691,
                   0.011257411327720691)


class MatchOdds:
    """The chance of winning a match of ``players`` under ``rules`` from the end
    of a deal or round (see the module's docstring)."""

    def __init__(self, players: int, rules: Rules) -> None:
        self.target = rules.target
        self.split = rules.majority_tie == "split"
        rounds = ROUND_POINTS[players]
        worth = rules.majority_points
        outcomes: dict[tuple[int, int], float] = {}
        total = 0.0
        basras = 0.0
        for mine, theirs, who, count in rounds:
            # Both ways round: the table is for even players.
            for x, y, w in ((mine, theirs, who), (theirs, mine, (1 - who) if who < 2 else 2)):
                if w == 0 or (w == 2 and self.split):
                    x += worth
                if w == 1 or (w == 2 and self.split):
                    y += worth
                key = ((x + STEP // 2) // STEP, (y + STEP // 2) // STEP)
                outcomes[key] = outcomes.get(key, 0.0) + count
                total += count
            basras += count * 2 * (mine + theirs - 13) / 10.0
        self.outcomes = [(x, y, p / total) for (x, y), p in sorted(outcomes.items())]
        # Basras a deal, both sides together.
        self.basras_a_deal = max(0.0, basras / total / DEALS[players])
        self.table = self._table()

    def _table(self) -> list[list[float]]:
        n = (self.target + STEP - 1) // STEP
        table = [[0.5] * n for _ in range(n)]
        outcomes = self.outcomes
        end = n  # a quantized score at or past the target
        for i in range(n - 1, -1, -1):
            row = table[i]
            for j in range(n - 1, -1, -1):
                chance = 0.0
                for x, y, p in outcomes:
                    a = i + x
                    b = j + y
                    if a >= end or b >= end:
                        if a > b:
                            chance += p
                        elif a == b:
                            chance += 0.5 * p
                    else:
                        chance += p * table[a][b]
                row[j] = chance
        return table

    def at_round_end(self, a: int, b: int) -> float:
        """The chance that a side with ``a`` points at the end of a round wins
        against one with ``b``."""
        target = self.target
        if a >= target or b >= target:
            if a > b:
                return 1.0
            if a < b:
                return 0.0
            return 0.5
        return self.table[a // STEP][b // STEP]

    def at_deal_end(self, a: float, b: float, mine: int, theirs: int, worth: int, points_out: int,
                    spread_out: int, deals_left: int, lead: float) -> float:
        """The chance of winning for a side with ``a`` points (the match's and
        this round's so far) against ``b``, ``mine`` and ``theirs`` cards taken,
        at the end of a deal with ``deals_left`` to come: ``points_out`` card
        points still out (the sum of their squares ``spread_out``) and the next
        deal's first shot worth ``lead`` to this side."""
        basras = self.basras_a_deal * deals_left
        rest = (points_out + 10.0 * basras) / 2.0
        sd = math.sqrt(spread_out + 100.0 * basras)
        odds = MAJORITY_ODDS[min(52, mine)][min(52, theirs)]
        p_mine = odds[0]
        p_theirs = odds[1]
        p_none = max(0.0, 1.0 - p_mine - p_theirs)
        none_bonus = worth if self.split else 0
        chance = 0.0
        for k in range(5):
            d = (lead + sd * _NODES[k]) / 2.0
            x = a + rest + d
            y = b + rest - d
            here = 0.0
            if p_mine > 0.0:
                here += p_mine * self._end(x + worth, y)
            if p_theirs > 0.0:
                here += p_theirs * self._end(x, y + worth)
            if p_none > 0.0:
                here += p_none * self._end(x + none_bonus, y + none_bonus)
            chance += _WEIGHTS[k] * here
        return chance

    def _end(self, a: float, b: float) -> float:
        return self.at_round_end(int(a + 0.5) if a > 0 else 0, int(b + 0.5) if b > 0 else 0)


_CACHE: dict[tuple[int, int, int, str], MatchOdds] = {}


def for_rules(players: int, rules: Rules) -> MatchOdds | None:
    """The odds for matches of ``players`` under ``rules``, built once; None when
    the target is beyond ``MOST_TARGET``."""
    if rules.target > MOST_TARGET:
        return None
    key = (players, rules.target, rules.majority_points, rules.majority_tie)
    odds = _CACHE.get(key)
    if odds is None:
        odds = MatchOdds(players, rules)
        _CACHE[key] = odds
    return odds
