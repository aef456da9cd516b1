"""Tables, event logs and results in PostgreSQL's SQL, inside transactions the store opens.

The checks are SQLite's (``tablesql``, ``ranking``), in the same order and with the same
messages; what differs is how a row is kept still while it is checked. Several processes
write here, so ``append_events`` locks the table's row (``SELECT ... FOR UPDATE``) before
it compares versions, and a result locks its table and then its players' rows, always in
that order, before it reads the ratings it moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, TypeAlias

import asyncpg
from asyncpg.pool import PoolConnectionProxy

from .. import clocks, codec, ranking
from ..errors import NotFound, OpenTableExists, VersionConflict
from ..models import (
    DEFAULT_MU,
    DEFAULT_RATING,
    DEFAULT_SIGMA,
    MatchResult,
    RatingEntry,
    Standing,
    TableRecord,
)
from ..pool import POOL_CHAT_MARK

#: A connection as the pool lends it.
Connection: TypeAlias = "PoolConnectionProxy[asyncpg.Record]"

OPEN: Final = clocks.OPEN
SELECT_TABLE: Final = clocks.SELECT_TABLE
_FIXED: Final = ("table_id", "version", "created_at")
_WRITTEN: Final = tuple(c for c in codec.TABLE_COLUMNS if c not in _FIXED)


def _values(columns: tuple[str, ...], first: int) -> list[str]:
    """The columns' values as written, from ``$first`` on: a time less the bot's shift."""
    number = {c: f"${n}" for n, c in enumerate(columns, start=first)}
    return [
        clocks.written(c, f"{number[c]}::double precision", number["owner"], number["status"])
        if c in clocks.SHIFTED else number[c]
        for c in columns
    ]


_INSERT_TABLE: Final = "INSERT INTO tables ({}) VALUES ({}) {}".format(
    ", ".join(codec.TABLE_COLUMNS), ", ".join(_values(codec.TABLE_COLUMNS, 1)), clocks.RETURNING
)
# $1 is the table id, $2 the revision read, $3... the columns written; a row write lets
# go of any claim on the table, as on SQLite.
_SET_ROW: Final = "UPDATE tables SET {}, claim_holder = NULL, claim_until = NULL".format(
    ", ".join(f"{c} = {v}" for c, v in zip(_WRITTEN, _values(_WRITTEN, 3), strict=True))
)
_UPDATE_TABLE: Final = f"{_SET_ROW} WHERE table_id = $1 AND revision = $2 {clocks.RETURNING}"
_APPEND_TABLE: Final = (
    f"{_SET_ROW}, version = ${len(_WRITTEN) + 3} WHERE table_id = $1 AND revision = $2 {clocks.RETURNING}"
)
_APPEND_ONLY: Final = (
    "UPDATE tables SET version = $2, revision = revision + 1, updated_at = $3,"
    f" claim_holder = NULL, claim_until = NULL WHERE table_id = $1 {clocks.RETURNING}"
)
_INSERT_EVENT: Final = "INSERT INTO events (table_id, version, kind, data, at) VALUES ($1, $2, $3, $4, $5)"


def table_values(table: TableRecord) -> dict[str, Any]:
    """The row's parameters as ``codec`` makes them, with PostgreSQL's booleans."""
    params = codec.table_params(table)
    params["warned"], params["rated"] = table.warned, table.rated
    return params


def translate(error: asyncpg.UniqueViolationError) -> Exception:
    """The store's error for a refusal of the schema's unique keys."""
    if error.constraint_name == "tables_one_open_per_chat":
        return OpenTableExists(f"a chat has one open table of each bot: {error.detail or error}")
    return VersionConflict(f"{error.constraint_name}: {error.detail or error}")


async def fetch_table(conn: Connection, table_id: str) -> TableRecord | None:
    row = await conn.fetchrow(f"{SELECT_TABLE} WHERE table_id = $1", table_id)
    return codec.table_from_row(row) if row is not None else None


async def insert_table(conn: Connection, table: TableRecord, now: float) -> TableRecord:
    if await conn.fetchval("SELECT 1 FROM tables WHERE table_id = $1", table.table_id):
        raise VersionConflict(f"table {table.table_id!r} already exists")
    if table.is_open:
        taken = await conn.fetchval(
            f"SELECT table_id FROM tables WHERE owner = $1 AND chat_id = $2 AND {OPEN}",
            table.owner, table.chat_id,
        )
        if taken is not None:
            raise OpenTableExists(f"chat {table.chat_id!r} already has open table {taken!r}")
    params = table_values(table)
    params.update(revision=0, updated_at=now)
    row = await conn.fetchrow(_INSERT_TABLE, *(params[c] for c in codec.TABLE_COLUMNS))
    assert row is not None
    return codec.table_from_row(row)


async def update_table(conn: Connection, table: TableRecord, now: float) -> TableRecord:
    params = table_values(table)
    params.update(revision=table.revision + 1, updated_at=now)
    row = await conn.fetchrow(_UPDATE_TABLE, table.table_id, table.revision, *(params[c] for c in _WRITTEN))
    if row is not None:
        return codec.table_from_row(row)
    stored = await fetch_table(conn, table.table_id)
    if stored is None:
        raise NotFound(f"no table {table.table_id!r}")
    raise VersionConflict(
        f"table {table.table_id!r} changed since it was read"
        f" (revision {table.revision}, stored {stored.revision})"
    )


async def append_events(
    conn: Connection,
    table_id: str,
    expected_version: int,
    encoded: Sequence[tuple[str, str]],
    table: TableRecord | None,
    now: float,
) -> TableRecord:
    """Lock the row, check its version (and revision), move it, insert the events."""
    locked = await conn.fetchrow(
        "SELECT version, revision FROM tables WHERE table_id = $1 FOR UPDATE", table_id
    )
    if locked is None:
        raise NotFound(f"no table {table_id!r}")
    if locked["version"] != expected_version:
        raise VersionConflict(f"table {table_id!r} is at version {locked['version']}, not {expected_version}")
    new_version = expected_version + len(encoded)
    if table is not None:
        if locked["revision"] != table.revision:
            raise VersionConflict(
                f"table {table_id!r} changed since it was read"
                f" (revision {table.revision}, stored {locked['revision']})"
            )
        params = table_values(table)
        params.update(revision=table.revision + 1, updated_at=now)
        row = await conn.fetchrow(
            _APPEND_TABLE, table_id, table.revision, *(params[c] for c in _WRITTEN), new_version
        )
    else:
        row = await conn.fetchrow(_APPEND_ONLY, table_id, new_version, now)
    assert row is not None  # the row is locked and was just checked
    await conn.executemany(
        _INSERT_EVENT,
        [
            (table_id, expected_version + n, kind, data, now)
            for n, (kind, data) in enumerate(encoded, start=1)
        ],
    )
    return codec.table_from_row(row)


# Results -------------------------------------------------------------------------

_ADD_OUTCOME: Final = """
UPDATE players SET matches = matches + 1, wins = wins + $2, draws = draws + $3,
    losses = losses + $4, points = points + $5, basras = basras + $6,
    best_round = greatest(best_round, $7), updated_at = $8
WHERE player_id = $1
"""
_INSERT_SEAT: Final = """
INSERT INTO result_seats
    (table_id, seat, player_id, team, outcome, score, profile_points, basras, best_round)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
"""
_MOVE_RATING: Final = """
UPDATE players SET mu = $2, sigma = $3, rating = $4, rated_matches = rated_matches + 1, updated_at = $5
WHERE player_id = $1
"""
_INSERT_HISTORY: Final = """
INSERT INTO rating_history (player_id, table_id, before_mu, before_sigma, before_rating,
    after_mu, after_sigma, after_rating, at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
"""


async def apply_result(conn: Connection, result: MatchResult, now: float) -> bool:
    """Record a finished match once; False if this table's result is already in."""
    table = await conn.fetchrow(
        "SELECT chat_id, mode, rated FROM tables WHERE table_id = $1 FOR UPDATE", result.table_id
    )
    if table is None:
        raise NotFound(f"no table {result.table_id!r}")
    recorded = await conn.fetchval(
        "INSERT INTO results (table_id, chat_id, mode, rated, finished_at) VALUES ($1, $2, $3, $4, $5)"
        " ON CONFLICT (table_id) DO NOTHING RETURNING true",
        result.table_id, table["chat_id"], table["mode"], table["rated"],
        result.finished_at if result.finished_at is not None else now,
    )
    if not recorded:
        return False
    people = [(o.player_id, o.name or o.player_id) for o in result.outcomes if o.player_id is not None]
    await conn.executemany(
        "INSERT INTO players (player_id, name, mu, sigma, rating, created_at, updated_at)"
        " VALUES ($1, $2, $3, $4, $5, $6, $6) ON CONFLICT (player_id) DO NOTHING",
        [(player, name, DEFAULT_MU, DEFAULT_SIGMA, DEFAULT_RATING, now) for player, name in people],
    )
    rated = sorted(change.player_id for change in result.ratings)
    current = {
        row["player_id"]: (row["mu"], row["sigma"])
        for row in await conn.fetch(
            "SELECT player_id, mu, sigma FROM players WHERE player_id = ANY($1::text[])"
            " ORDER BY player_id FOR UPDATE",
            rated,
        )
    }
    for change in result.ratings:
        ranking.check_rating_current(change, current.get(change.player_id))
    await conn.executemany(
        _ADD_OUTCOME,
        [
            (o.player_id, *ranking.outcome_counts(o.outcome), o.profile_points, o.basras, o.best_round, now)
            for o in result.outcomes
            if o.player_id is not None
        ],
    )
    await conn.executemany(
        _INSERT_SEAT,
        [
            (result.table_id, o.seat, o.player_id, o.team, o.outcome, o.score, o.profile_points, o.basras,
             o.best_round)
            for o in result.outcomes
        ],
    )
    for change in result.ratings:
        await conn.execute(
            _MOVE_RATING, change.player_id, change.after_mu, change.after_sigma, change.after_rating, now
        )
        await conn.execute(
            _INSERT_HISTORY, change.player_id, result.table_id, change.before_mu, change.before_sigma,
            change.before_rating, change.after_mu, change.after_sigma, change.after_rating, now,
        )
    return True


_GLOBAL_SCOPE: Final = """
SELECT player_id, name, rating, matches, wins, draws, losses, points, basras, best_round
FROM players WHERE matches > 0
"""
_RESULTS_SCOPE: Final = """
SELECT p.player_id, p.name, p.rating, count(*) AS matches,
    count(*) FILTER (WHERE s.outcome = 'win') AS wins,
    count(*) FILTER (WHERE s.outcome = 'draw') AS draws,
    count(*) FILTER (WHERE s.outcome = 'loss') AS losses, sum(s.profile_points) AS points,
    sum(s.basras) AS basras, max(s.best_round) AS best_round
FROM result_seats AS s
JOIN results AS r ON r.table_id = s.table_id
JOIN players AS p ON p.player_id = s.player_id
WHERE {results}
GROUP BY p.player_id
"""
_CHAT_SCOPE: Final = _RESULTS_SCOPE.format(results="r.chat_id = $1")
# As ``ranking._ONLINE_SCOPE``: the pool's mark ($1) at the chat id's first ":", as a substring.
_ONLINE_SCOPE: Final = _RESULTS_SCOPE.format(
    results="strpos(r.chat_id, ':') > 0"
    " AND substr(r.chat_id, strpos(r.chat_id, ':'), length($1::text)) = $1::text"
)
_RANKED: Final = """
WITH scope AS ({scope}),
ranked AS (
    SELECT row_number() OVER (ORDER BY {order}) AS rank, scope.* FROM scope
)
SELECT * FROM ranked
"""


async def standings(
    conn: Connection,
    chat_id: str | None,
    *,
    online: bool = False,
    limit: int | None = None,
    player_id: str | None = None,
) -> list[Standing]:
    """As ``ranking.standings``: ranked lines for a chat, the matches between strangers or
    everywhere."""
    ranking.check_scope(chat_id, online)
    args: list[object]
    if online:
        scope, args = _ONLINE_SCOPE, [POOL_CHAT_MARK]
    elif chat_id is None:
        scope, args = _GLOBAL_SCOPE, []
    else:
        scope, args = _CHAT_SCOPE, [chat_id]
    sql = _RANKED.format(scope=scope, order=ranking.RANK_ORDER)
    if player_id is not None:
        args.append(player_id)
        sql += f" WHERE player_id = ${len(args)}"
    sql += " ORDER BY rank"
    if limit is not None:
        args.append(limit)
        sql += f" LIMIT ${len(args)}"
    return [codec.standing_from_row(row) for row in await conn.fetch(sql, *args)]


async def rating_history(conn: Connection, player_id: str, limit: int) -> list[RatingEntry]:
    rows = await conn.fetch(
        "SELECT player_id, table_id, before_mu, before_sigma, before_rating, after_mu,"
        " after_sigma, after_rating, at FROM rating_history WHERE player_id = $1"
        " ORDER BY at DESC, seq DESC LIMIT $2",
        player_id, limit,
    )
    return [codec.rating_entry_from_row(row) for row in rows]
