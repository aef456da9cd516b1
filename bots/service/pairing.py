"""Who plays whom in a wave of the pairing pool: a maximum-weight matching.

Every few seconds the pool pairs the people waiting (``pool.Pool.wave``), the way
lichess's pools do: each two who may meet are an edge of a graph, weighed by how close
their ratings are and how long both have waited, and networkx's
``max_weight_matching`` picks the pairs. It pairs as many people as it can first
(``maxcardinality``), then, among those pairings, the closest ratings and the longest
waits.

Two people may meet when their ratings (openskill ordinals, ``PlayerProfile.rating``)
are at most the allowed gap apart, and that gap widens with the longer wait of the two:
``GAP_AT_ONCE`` on arrival, ``GAP_PER_SECOND`` wider each second, so a newcomer meets
someone near their strength and a long wait meets anyone. Never two who blocked each
other, nor two who were just paired (the caller passes both as ``apart``).

>>> from dataclasses import dataclass
>>> @dataclass
... class W:
...     player_id: str
...     rating: float
...     joined_at: float
>>> people = [W("a", 0.0, 0.0), W("b", 30.0, 0.0), W("c", 1.0, 0.0), W("d", 29.0, 0.0)]
>>> sorted(sorted(pair) for pair in pairs(people, now=1.0))
[['a', 'c'], ['b', 'd']]
>>> pairs([W("a", 0.0, 0.0), W("b", 30.0, 0.0)], now=1.0)
[]
>>> pairs([W("a", 0.0, 0.0), W("b", 30.0, 0.0)], now=60.0)
[('a', 'b')]
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Protocol

if TYPE_CHECKING:
    import networkx as nx

#: The rating gap two people may have on arrival (openskill ordinals: a new player is 0,
#: a seasoned one some 10 to 30).
GAP_AT_ONCE: Final = 5.0
#: How much wider the allowed gap grows each second the longer waiter has waited.
GAP_PER_SECOND: Final = 0.5
#: What one second of waiting weighs against one point of rating gap, when the matching
#: chooses among pairings of as many people.
WAIT_WEIGHT: Final = 0.2


class Waiting(Protocol):
    """Someone in the pool, as a wave reads them (``storage.PoolEntry`` is one)."""

    @property
    def player_id(self) -> str: ...
    @property
    def rating(self) -> float: ...
    @property
    def joined_at(self) -> float: ...


def allowed_gap(waited: float) -> float:
    """The rating gap allowed after waiting ``waited`` seconds.

    >>> allowed_gap(0), allowed_gap(10)
    (5.0, 10.0)
    """
    return GAP_AT_ONCE + GAP_PER_SECOND * max(0.0, waited)


def may_meet(a: Waiting, b: Waiting, now: float) -> bool:
    """Whether ``a`` and ``b`` are close enough in rating for how long they have waited."""
    waited = now - min(a.joined_at, b.joined_at)
    return abs(a.rating - b.rating) <= allowed_gap(waited)


def pairs(
    waiting: Sequence[Waiting], now: float, apart: Collection[frozenset[str]] = (),
    tiers: Mapping[str, int] | None = None,
) -> list[tuple[str, str]]:
    """The pairs this wave seats, each as two player ids (the one who waited longer first),
    longest-waiting pair first. ``apart``: pairs of people who must not meet (a block, a
    match just played). ``tiers``: people of different tiers never meet (those who
    abandon matches often are one; whoever is not named is tier 0). Nobody is in two pairs."""
    import networkx as nx  # here: a bot process that never pairs anyone need not load it

    tier = tiers or {}
    graph: nx.Graph[str] = nx.Graph()
    by_id = {w.player_id: w for w in waiting}
    people = list(by_id.values())
    # The weight of a pair: what the closest ratings and longest waits gain, above a floor
    # that keeps every allowed edge positive (max_weight_matching ignores no edge then).
    floor = max((allowed_gap(now - w.joined_at) for w in people), default=0.0) + 1.0
    for i, a in enumerate(people):
        for b in people[i + 1:]:
            if tier.get(a.player_id, 0) != tier.get(b.player_id, 0):
                continue
            if frozenset((a.player_id, b.player_id)) in apart or not may_meet(a, b, now):
                continue
            waited = (now - a.joined_at) + (now - b.joined_at)
            weight = floor - abs(a.rating - b.rating) + WAIT_WEIGHT * waited
            graph.add_edge(a.player_id, b.player_id, weight=weight)
    chosen = nx.max_weight_matching(graph, maxcardinality=True)
    ordered = [
        tuple(sorted(pair, key=lambda p: (by_id[p].joined_at, p))) for pair in chosen
    ]
    ordered.sort(key=lambda pair: (by_id[pair[0]].joined_at, pair[0]))
    return [(a, b) for a, b in ordered]


@dataclass(frozen=True, slots=True)
class _Team:
    """Two partners, as a wave of 2-v-2 weighs them: their mean rating, the longer wait."""

    player_id: str  # the two ids, joined by TEAM
    rating: float
    joined_at: float


#: What joins two partners' ids into their team's (ids never hold it).
TEAM: Final = "|"


def tables_of_teams(
    teams: Sequence[tuple[str, str]], people: Mapping[str, Waiting], now: float,
    apart: Collection[frozenset[str]] = (),
) -> list[tuple[str, str, str, str]]:
    """The 2-v-2 tables of a wave, each as four player ids, a team's two first: the teams
    (pairs of partners, from ``pairs`` or who came together) matched as ``pairs`` matches
    people, a team weighing its partners' mean rating and its longer wait. Two teams where
    someone must stay apart from someone across (``apart``) never meet.

    >>> from types import SimpleNamespace as W
    >>> people = {p: W(player_id=p, rating=r, joined_at=0.0) for p, r in
    ...           [("a", 0), ("b", 1), ("c", 20), ("d", 21), ("e", 2), ("f", 3)]}
    >>> tables_of_teams([("a", "b"), ("c", "d"), ("e", "f")], people, now=1.0)
    [('a', 'b', 'e', 'f')]
    """
    made = [
        _Team(TEAM.join(team), sum(people[p].rating for p in team) / 2,
              min(people[p].joined_at for p in team))
        for team in teams
    ]
    kept = {
        frozenset((x.player_id, y.player_id))
        for i, x in enumerate(made) for y in made[i + 1:]
        if any(frozenset((p, q)) in apart
               for p in x.player_id.split(TEAM) for q in y.player_id.split(TEAM))
    }
    tables = []
    for x, y in pairs(made, now, kept):
        a1, a2 = x.split(TEAM)
        b1, b2 = y.split(TEAM)
        tables.append((a1, a2, b1, b2))
    return tables
