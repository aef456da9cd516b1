"""Forgetting a person when they ask, and letting finished matches go when the operator says.

A person's running matches are resigned first (their side loses, as with /resign) and the
lobbies they sit in are left, through the resign and leave the facade hands in (use cases
never call each other); then the store erases them in one transaction
(``Store.forget_player``: profile, ratings, settings go; their seats stay, anonymous), and
what this process remembered of them goes too.

Finished matches are kept until ``keep_finished_days`` after they closed (0: for good);
``prune`` deletes older ones, once in a while, from the service's poll.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from storage import DamagedTable, Store, TableRecord
from storage.erasure import placeholder_for

from .clock import Clock
from .config import ServiceConfig
from .errors import ServiceError
from .ids import Person
from .languages import Languages
from .tables import Tables
from .usecase import UseCase

log = logging.getLogger(__name__)

#: How often the service looks for finished matches past their keeping.
PRUNE_EVERY = 3600.0
DAY = 86400.0


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What erasing a person did: whether the store held anything of theirs, and how many
    running matches were resigned and lobbies left on the way."""

    found: bool
    resigned: int
    left: int


class Erasure(UseCase):
    """``forget`` a person; ``prune`` finished matches past their keeping."""

    def __init__(
        self,
        tables: Tables,
        languages: Languages,
        store: Store,
        clock: Clock,
        config: ServiceConfig,
        *,
        resign: Callable[[str, str], Awaitable[object]],
        leave: Callable[[str, Person], Awaitable[object]],
    ) -> None:
        super().__init__(tables, languages, store, clock, config)
        self._resign = resign
        self._leave = leave
        self._pruned_at: float | None = None

    @property
    def keep_days(self) -> int:
        return self._config.keep_finished_days

    async def forget(self, player_id: str) -> Forgotten:
        """Resign their running matches, leave their lobbies, erase them."""
        resigned = left = 0
        owners = list(self._t.owners.values())
        for row in await self._store.open_rows(owners=owners, player=player_id):
            if isinstance(row, DamagedTable):
                continue
            with contextlib.suppress(ServiceError):  # it ended meanwhile
                if row.status == "running":
                    await self._resign(row.table_id, player_id)
                    resigned += 1
                else:
                    await self._leave(row.table_id, Person(player_id, _name_in(row, player_id)))
                    left += 1
        found = await self._store.forget_player(player_id, placeholder_for(player_id))
        for live in list(self._t.live.values()):
            if live.record.created_by == player_id or any(
                s.player_id == player_id for s in live.record.seats
            ):
                async with live.lock:
                    await self._t.reload(live)
        self._lang.chosen.pop(player_id, None)
        self._lang.reported.pop(player_id, None)
        self._lang.chat_settings.pop(player_id, None)
        log.info("erased a person on request (%d matches resigned, %d lobbies left)", resigned, left)
        return Forgotten(found, resigned, left)

    async def prune(self) -> int:
        """Once every ``PRUNE_EVERY`` seconds, delete the matches closed more than
        ``keep_finished_days`` ago; nothing when they are kept for good (0)."""
        days = self._config.keep_finished_days
        now = self._clock.now()
        if days <= 0 or (self._pruned_at is not None and now - self._pruned_at < PRUNE_EVERY):
            return 0
        self._pruned_at = now
        pruned = await self._store.prune_finished(now - days * DAY)
        if pruned:
            log.info("deleted %d matches closed more than %d days ago", pruned, days)
        return pruned


def _name_in(record: TableRecord, player_id: str) -> str:
    return next((s.name or "" for s in record.seats if s.player_id == player_id), "")
