"""Reading a seat that searches, by a small search of its own kind.

A seat that plays as the strong player's judgement says is read by the rank
of its plays (``inference``). A seat that searches, as the baseline does,
passes up the judgement's best play about one time in four, and what its play
says about its hand is what a search from that hand would have chosen: by the
judgement's rank a play says almost nothing about the baseline's hand, by its
own search about half a nat (see bench/README.md).

So, for one supposed hand, ``log_chance`` searches as such a seat would: the
judgement's best few moves of that hand, each played out on a few guesses at
the cards that seat could not see (its search's own way of guessing, the
strong player in every seat to the end of the deal). A search with more
guesses picks the move with the best mean, and its own luck decides the
close calls; so the chance of each candidate is a softmax of the means, at
``TEMPERATURE`` points, and a play outside the candidates (or a search that
went elsewhere) keeps ``STRAY`` of the chance, shared among the hand's moves.
The guesses are drawn from a generator seeded by the hand and the play
alone, so the same hand at the same play always gets the same chance, and a
player may keep it for the later decisions of the deal.
"""

from __future__ import annotations

import math
import random
from typing import Final

from ..cards import Card
from ..rules import Rules
from .judge import Weights, judge
from .moves import cheaper_twin, dearer_twin
from .playout import PlayChoice, World
from .values import KIND_OF, kind_counts

# The judgement's best moves of the hand searched, as the baseline shortlists.
CANDIDATES: Final = 6
# Guesses each candidate is played out on.
GUESSES: Final = 8
# The playouts a searcher shares among its candidates (the baseline's 200).
SEARCHED: Final = 200
# The softmax's scale, in standard errors of a candidate's mean difference
# from the leader's (the searcher's and ours together), and its least.
TEMPERATURE: Final = 1.0
LEAST_SCALE: Final = 0.05
# The chance left for a play the search would not have made.
STRAY: Final = 0.05


class Scene:
    """A past play's position as its player saw it, but for its hand: what
    ``log_chance`` needs to search from any hand supposed for it."""

    __slots__ = ("buried_held", "captured", "card", "dealer", "floor", "held", "last_side",
                 "players", "positions", "rules", "seat", "stock", "stock_buried", "unseen",
                 "worth")

    seat: int
    players: int
    rules: Rules
    worth: int
    dealer: int
    card: Card
    positions: tuple[int, ...] | None
    floor: list[Card]
    held: list[int]  # every seat's cards in hand before the play
    stock: int  # cards in the stock
    stock_buried: list[Card]  # buried cards still in the stock
    buried_held: list[list[Card]]  # per seat, buried cards it holds (the last deal)
    unseen: list[Card]  # cards its player could not see and not buried, in deck order
    captured: list[int]  # per side, before the play
    last_side: int  # the side of the last capture before it (the dealer's if none)


def log_chance(scene: Scene, hand: list[Card], seed: int, weights: Weights,
               guesses: int = GUESSES, temperature: float = TEMPERATURE) -> float:
    """The log of the chance that a seat searching from ``hand`` makes the play of ``scene``."""
    world = World.__new__(World)
    world.players = scene.players
    world.rules = scene.rules
    world.worth = scene.worth
    world.dealer = scene.dealer
    world.to_move = scene.seat
    world.floor = list(scene.floor)
    world.captured = list(scene.captured)
    world.points = [0, 0]
    world.last_capture = scene.last_side
    world.hands = [[] for _ in range(scene.players)]
    hand = sorted(hand, key=lambda c: (KIND_OF[c.index], c.index))
    world.hands[scene.seat] = list(hand)
    world.stock = []
    mine = set(hand)
    unseen = [c for c in scene.unseen if c not in mine]
    everything = list(hand) + unseen + scene.stock_buried
    for cards in scene.buried_held:
        everything.extend(c for c in cards if c not in mine)
    world.hidden = kind_counts(everything)
    moves = world.moves()
    if len(moves) == 1:
        return 0.0
    # As the baseline does: no play that a card of the same rank does better.
    kept: list[PlayChoice] = []
    for card, positions in moves:
        twin = dearer_twin(card, hand) if positions is not None else cheaper_twin(card, hand)
        if twin is None:
            kept.append((card, positions))
    situation = world.situation()
    scored = sorted(((judge(situation, c, p, weights), i) for i, (c, p) in enumerate(kept)),
                    key=lambda t: (-t[0], t[1]))
    shortlist = [kept[i] for _, i in scored[:CANDIDATES]]
    stray = STRAY / len(moves)
    played = -1
    for i, (card, positions) in enumerate(shortlist):
        if card == scene.card and _same(positions, scene.positions):
            played = i
    if played < 0:
        return math.log(stray)
    if len(shortlist) == 1:
        return math.log(1.0 - STRAY + stray)
    rng = random.Random(seed)
    n = len(shortlist)
    results: list[list[float]] = [[] for _ in range(n)]
    side = scene.seat % 2
    # In the order of their kinds, so that hands alike but for suits meet the
    # same guesses (a playout sees only kinds) and get the same chance.
    pool = sorted(unseen, key=lambda c: (KIND_OF[c.index], c.index))
    for _ in range(guesses):
        rng.shuffle(pool)
        trial = world.copy()
        end = 0
        for seat in range(scene.players):
            if seat == scene.seat:
                continue
            known = [c for c in scene.buried_held[seat] if c not in mine]
            need = max(0, scene.held[seat] - len(known))
            trial.hands[seat] = known + pool[end:end + need]
            end += need
        trial.stock = scene.stock_buried + pool[end:end + max(0, scene.stock - len(scene.stock_buried))]
        for i, (card, positions) in enumerate(shortlist):
            after = trial.copy()
            if not after.play(card, positions):
                after.finish(weights)
            results[i].append(after.value(side))
    means = [sum(r) / guesses for r in results]
    leader = max(range(n), key=lambda i: means[i])
    # The spread of a candidate's paired difference from the leader's, guess
    # to guess: how far the searcher's own means stray from the true ones at
    # its number of guesses, and these from ours at ``guesses``.
    spread = 0.0
    for i in range(n):
        if i != leader:
            d = [results[leader][g] - results[i][g] for g in range(guesses)]
            mean = sum(d) / guesses
            spread += sum((x - mean) ** 2 for x in d) / max(1, guesses - 1)
    spread = math.sqrt(spread / (n - 1))
    scale = max(LEAST_SCALE, temperature * spread * math.sqrt(1.0 / max(1, SEARCHED // n) + 1.0 / guesses))
    odds = [math.exp((m - means[leader]) / scale) for m in means]
    return math.log((1.0 - STRAY) * odds[played] / sum(odds) + stray)


def _same(a: tuple[int, ...] | None, b: tuple[int, ...] | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return sorted(a) == sorted(b)


__all__ = ["CANDIDATES", "GUESSES", "STRAY", "TEMPERATURE", "Scene", "log_chance"]
