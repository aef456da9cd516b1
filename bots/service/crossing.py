"""Matches between strangers whose people separate processes serve: each tells its own.

With PostgreSQL, the Telegram bot and the Discord bot may run as separate processes on
one database, and they share the pairing pool (``pool``): a wave may seat a Telegram
person and a Discord person at one match. The table is kept by the bot of the process
whose wave seated it (its clock runs there: ``Tables.keeps``), and both processes act on
it, each action under the table's hold across processes and on its latest state
(``Tables.crossed``, as on a shared store). An action's notices reach the people of the
process that took it; the other process hears that the table changed (the store
announces every change of a stranger match's table: ``Store.changes``), reads the
actions it missed and tells its own people what they say (``Tables.refresh``): the
table, a round's end, the result, hands, whose turn, a clock's warning. A reaction
changes no table: it is said through the store (``Store.announce``) and shown here.

A process learns of a match another process seated from its own people's pool entries
(``Pool`` finds them seated), and draws it for them then, or after a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

from storage import StorageError, Store

from .languages import Languages
from .reactions import REACTIONS, reacted
from .strangers import read_reaction
from .tables import Tables

log = logging.getLogger(__name__)


class Crossing:
    """Hears what other processes do to the stranger matches this one serves too."""

    def __init__(self, tables: Tables, languages: Languages, store: Store) -> None:
        self._t = tables
        self._lang = languages
        self._store = store
        self._tasks: set[asyncio.Task[None]] = set()

    @contextlib.asynccontextmanager
    async def listening(self) -> AsyncIterator[None]:
        """Hear other processes' changes while inside: on a shared store only (a store of one
        process knows every change)."""
        if not self._store.shared:
            yield
            return
        async with self._store.changes(self.heard, self.heard_words):
            try:
                yield
            finally:
                for task in list(self._tasks):
                    task.cancel()
                await asyncio.gather(*self._tasks, return_exceptions=True)

    def heard(self, table_id: str | None) -> None:
        """A table changed in another process (None: changes may have gone unheard): the
        crossed ones in memory catch up, and tell this process's people."""
        ids = [table_id] if table_id is not None else list(self._t.live)
        for key in ids:
            live = self._t.live.get(key)
            if live is not None and self._t.crossed(live.record):
                self._spawn(self._follow(key))

    def heard_words(self, table_id: str, words: str) -> None:
        said = read_reaction(words)
        if said is not None and said[1] in REACTIONS:
            self._spawn(self._reacted(table_id, *said))

    def _spawn(self, work: object) -> None:
        assert asyncio.iscoroutine(work)
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _follow(self, table_id: str) -> None:
        live = self._t.live.get(table_id)
        if live is None:
            return
        self._t.busy += 1
        try:
            async with live.lock:
                await self._t.refresh(live)
        except StorageError:
            log.exception("table %s could not be read after another process moved it", table_id)
        finally:
            self._t.busy -= 1

    async def _reacted(self, table_id: str, seat: int, reaction: str) -> None:
        """Someone at ``seat`` reacted in another process: show it to this one's people."""
        live = self._t.live.get(table_id)
        try:
            record = live.record if live is not None else await self._store.get_table(table_id)
        except StorageError:
            log.exception("table %s could not be read to show a reaction", table_id)
            return
        if record is None or not self._t.owns(record) or not 0 <= seat < len(record.seats):
            return
        notices = await reacted(self._lang, record, seat, record.seats[seat].name or "", reaction)
        await self._t.deliver(notices, record.seats)
