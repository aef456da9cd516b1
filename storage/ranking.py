"""Results, profile totals, rating history and leaderboards in SQL.

These functions run inside a transaction the store has already opened, so a
result reaches the results table, every profile and the rating history
together or not at all.
"""

from __future__ import annotations

from typing import Final

import aiosqlite

from . import codec
from .errors import NotFound, VersionConflict
from .models import (
    DEFAULT_MU,
    DEFAULT_RATING,
    DEFAULT_SIGMA,
    MatchResult,
    RatingChange,
    RatingEntry,
    Standing,
)
from .pool import POOL_CHAT_MARK

_ENSURE_PLAYER: Final = """
INSERT INTO players (player_id, name, mu, sigma, rating, created_at, updated_at)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (player_id) DO NOTHING
"""

_ADD_OUTCOME: Final = """
UPDATE players SET
    matches = matches + 1,
    wins = wins + (:outcome = 'win'),
    draws = draws + (:outcome = 'draw'),
    losses = losses + (:outcome = 'loss'),
    points = points + :profile_points,
    basras = basras + :basras,
    best_round = max(best_round, :best_round),
    updated_at = :now
WHERE player_id = :player_id
"""

_INSERT_SEAT: Final = """
INSERT INTO result_seats
    (table_id, seat, player_id, team, outcome, score, profile_points, basras, best_round)
VALUES
    (:table_id, :seat, :player_id, :team, :outcome, :score, :profile_points, :basras,
     :best_round)
"""

_MOVE_RATING: Final = """
UPDATE players SET mu = :after_mu, sigma = :after_sigma, rating = :after_rating,
    rated_matches = rated_matches + 1, updated_at = :now
WHERE player_id = :player_id
"""

_INSERT_HISTORY: Final = """
INSERT INTO rating_history (player_id, table_id, before_mu, before_sigma, before_rating,
    after_mu, after_sigma, after_rating, at)
VALUES (:player_id, :table_id, :before_mu, :before_sigma, :before_rating,
    :after_mu, :after_sigma, :after_rating, :at)
"""

# Each scope lists the same columns; ranking is the same for all.
_GLOBAL_SCOPE: Final = """
SELECT player_id, name, rating, matches, wins, draws, losses, points, basras, best_round
FROM players WHERE matches > 0
"""

# Totals from some results only: those the condition ``{results}`` picks.
_RESULTS_SCOPE: Final = """
SELECT p.player_id, p.name, p.rating, count(*) AS matches,
    sum(s.outcome = 'win') AS wins, sum(s.outcome = 'draw') AS draws,
    sum(s.outcome = 'loss') AS losses, sum(s.profile_points) AS points,
    sum(s.basras) AS basras, max(s.best_round) AS best_round
FROM result_seats AS s
JOIN results AS r ON r.table_id = s.table_id
JOIN players AS p ON p.player_id = s.player_id
WHERE {results}
GROUP BY p.player_id
"""

_CHAT_SCOPE: Final = _RESULTS_SCOPE.format(results="r.chat_id = :chat_id")

# Matches between strangers: ``pool.POOL_CHAT_MARK`` (``:mark``) at the chat id's first
# ":", compared as a substring so none of its characters is a wildcard.
_ONLINE_SCOPE: Final = _RESULTS_SCOPE.format(
    results="instr(r.chat_id, ':') > 0 AND substr(r.chat_id, instr(r.chat_id, ':'), length(:mark)) = :mark"
)

#: How the leaderboard ranks, on either backend: rating, then points, then wins.
RANK_ORDER: Final = "rating DESC, points DESC, wins DESC, player_id"

_RANKED: Final = f"""
WITH scope AS ({{scope}}),
ranked AS (
    SELECT row_number() OVER (ORDER BY {RANK_ORDER}) AS rank, *
    FROM scope
)
SELECT * FROM ranked
"""


def outcome_counts(outcome: str) -> tuple[int, int, int]:
    """What one finish adds to a profile's wins, draws and losses."""
    return int(outcome == "win"), int(outcome == "draw"), int(outcome == "loss")


def check_rating_current(change: RatingChange, current: tuple[float, float] | None) -> None:
    """Refuse a rating move computed from a rating that has moved since (``current`` is the
    stored mu and sigma, None for a player with no profile yet)."""
    mu, sigma = (DEFAULT_MU, DEFAULT_SIGMA) if current is None else current
    if (mu, sigma) != (change.before_mu, change.before_sigma):
        raise VersionConflict(
            f"rating of {change.player_id!r} moved since it was read (mu {change.before_mu} -> {mu})"
        )


async def apply_result(conn: aiosqlite.Connection, result: MatchResult, now: float) -> bool:
    """Record a finished match once; False if this table's result is already in."""
    async with conn.execute(
        "SELECT chat_id, mode, rated FROM tables WHERE table_id = ?", (result.table_id,)
    ) as cursor:
        table = await cursor.fetchone()
    if table is None:
        raise NotFound(f"no table {result.table_id!r}")
    async with conn.execute("SELECT 1 FROM results WHERE table_id = ?", (result.table_id,)) as cursor:
        if await cursor.fetchone() is not None:
            return False
    await _check_ratings_current(conn, result)

    for outcome in result.outcomes:
        if outcome.player_id is None:
            continue
        name = outcome.name or outcome.player_id
        await conn.execute(
            _ENSURE_PLAYER,
            (outcome.player_id, name, DEFAULT_MU, DEFAULT_SIGMA, DEFAULT_RATING, now, now),
        )
        await conn.execute(_ADD_OUTCOME, {**outcome.model_dump(), "now": now})
    await conn.execute(
        "INSERT INTO results (table_id, chat_id, mode, rated, finished_at) VALUES (?, ?, ?, ?, ?)",
        (
            result.table_id,
            table["chat_id"],
            table["mode"],
            table["rated"],
            result.finished_at if result.finished_at is not None else now,
        ),
    )
    await conn.executemany(
        _INSERT_SEAT,
        [{**o.model_dump(exclude={"name"}), "table_id": result.table_id} for o in result.outcomes],
    )
    for change in result.ratings:
        values = change.model_dump()
        await conn.execute(_MOVE_RATING, {**values, "now": now})
        await conn.execute(_INSERT_HISTORY, {**values, "table_id": result.table_id, "at": now})
    return True


async def _check_ratings_current(conn: aiosqlite.Connection, result: MatchResult) -> None:
    """Refuse rating moves computed from a rating that has moved since."""
    for change in result.ratings:
        async with conn.execute(
            "SELECT mu, sigma FROM players WHERE player_id = ?", (change.player_id,)
        ) as cursor:
            row = await cursor.fetchone()
        check_rating_current(change, None if row is None else (row["mu"], row["sigma"]))


def check_scope(chat_id: str | None, online: bool) -> None:
    """ValueError if a leaderboard is asked for both one chat and the online ladder."""
    if online and chat_id is not None:
        raise ValueError(f"the online ladder is no chat's: chat_id {chat_id!r} with online=True")


async def standings(
    conn: aiosqlite.Connection,
    chat_id: str | None,
    *,
    online: bool = False,
    limit: int | None = None,
    player_id: str | None = None,
) -> list[Standing]:
    """Ranked lines for a chat (``chat_id``), the matches between strangers (``online``) or
    everywhere, top ``limit`` or one player."""
    check_scope(chat_id, online)
    scope = _ONLINE_SCOPE if online else _GLOBAL_SCOPE if chat_id is None else _CHAT_SCOPE
    sql = _RANKED.format(scope=scope)
    params: dict[str, object] = {"chat_id": chat_id, "mark": POOL_CHAT_MARK}
    if player_id is not None:
        sql += " WHERE player_id = :player_id"
        params["player_id"] = player_id
    sql += " ORDER BY rank"
    if limit is not None:
        sql += " LIMIT :limit"
        params["limit"] = limit
    rows = await conn.execute_fetchall(sql, params)
    return [codec.standing_from_row(row) for row in rows]


async def rating_history(conn: aiosqlite.Connection, player_id: str, limit: int) -> list[RatingEntry]:
    rows = await conn.execute_fetchall(
        "SELECT player_id, table_id, before_mu, before_sigma, before_rating, after_mu,"
        " after_sigma, after_rating, at FROM rating_history WHERE player_id = ?"
        " ORDER BY at DESC, rowid DESC LIMIT ?",
        (player_id, limit),
    )
    return [codec.rating_entry_from_row(row) for row in rows]
