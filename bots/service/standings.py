"""Standings: a player's figures, leaderboards, and finished matches' records."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from storage import (
    Store,
)

from .errors import (
    BadInput,
    MatchNotOver,
    NoFinishedMatch,
    NoSuchTable,
)
from .records import RecordFile, finished_record, last_record
from .results import display_rating
from .views import (
    LeaderboardView,
    StatsLine,
    StatsView,
)

log = logging.getLogger(__name__)


class Standings:
    """The profiles and records half of the table service."""

    def __init__(self, store: Store, owners: Mapping[str, str]) -> None:
        self._store = store
        self._owners = dict(owners)

    async def stats(self, player_id: str, chat_id: str | None = None, *, name: str = "") -> StatsView:
        """One player's matches, wins, basras, best round, rating (in a chat or everywhere).
        ``name`` is shown for someone the store has no profile of yet (never their id)."""
        profile = await self._store.get_player(player_id)
        standing = await self._store.player_stats(player_id, chat_id)
        history = await self._store.rating_history(player_id, limit=20)
        return StatsView(
            player_id=player_id,
            name=profile.name if profile else name,
            chat_id=chat_id,
            line=_line(standing) if standing is not None else None,
            rated_matches=profile.rated_matches if profile else 0,
            rating_history=tuple(display_rating(h.after_rating) for h in reversed(history)),
        )

    async def leaderboard(self, chat_id: str | None = None, limit: int = 10, *,
                          online: bool = False) -> LeaderboardView:
        """Players ranked by rating (per chat, or global when ``chat_id`` is None). ``online``:
        the online ladder, the players of matches between strangers the pool paired, with
        their totals from those matches (``chat_id`` must be None)."""
        if online and chat_id is not None:
            raise BadInput("the online ladder is of no chat")
        lines = await self._store.leaderboard(chat_id, limit=max(1, min(limit, 100)), online=online)
        return LeaderboardView(chat_id, tuple(_line(s) for s in lines), online=online)

    async def record(self, table_id: str) -> RecordFile:
        """The record of a finished match (a press on its result). MatchNotOver while it is
        played, NoSuchTable for a table that is not a finished match of these bots."""
        table = await self._store.get_table(table_id)
        if table is None or self._owners.get(table.platform) != table.owner:
            raise NoSuchTable(f"no table {table_id!r}")
        if table.is_open:
            raise MatchNotOver()
        return await finished_record(self._store, table)

    async def last_record(self, chat_id: str) -> RecordFile:
        """The record of the chat's last finished match; NoFinishedMatch if it has none."""
        owner = self._owners.get(chat_id.partition(":")[0])
        found = await last_record(self._store, chat_id, owner) if owner is not None else None
        if found is None:
            raise NoFinishedMatch()
        return found


def _line(standing: Any) -> StatsLine:
    return StatsLine(
        rank=standing.rank,
        player_id=standing.player_id,
        name=standing.name,
        rating=display_rating(standing.rating),
        matches=standing.matches,
        wins=standing.wins,
        draws=standing.draws,
        losses=standing.losses,
        points=standing.points,
        basras=standing.basras,
        best_round=standing.best_round,
    )
