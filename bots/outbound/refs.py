"""Where each table's messages are (the lobby, the table of the round, each hand …), kept
with the table so that a restarted bot edits the same messages instead of posting anew.

References are read once per table (``recall``) and noted in memory at once;
storing them (``remember``) waits for the table, which may be busy with the
very action being delivered, so one writer per table stores them in the
background, the newest value of each key only, in the order they were noted.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)

Recall = Callable[[str], Awaitable[dict[str, Any]]]
Remember = Callable[[str, str, Any], Awaitable[None]]


@dataclass
class TableRefs:
    """The messages of one table, as far as this process knows them."""

    values: dict[str, Any] = field(default_factory=dict)
    loaded: bool = False


class MessageRefs:
    """Every table's ``TableRefs``, read with ``recall`` and stored with ``remember``."""

    def __init__(self, recall: Recall, remember: Remember) -> None:
        self._recall = recall
        self._remember = remember
        self._tables: dict[str, TableRefs] = {}
        self._pending: dict[str, dict[str, Any]] = {}
        self._writers: dict[str, asyncio.Task[None]] = {}
        #: Other processes of the bot move references too (a shared database): every
        #: reading goes to the store, not only the first.
        self.shared = False

    def known(self, table_id: str) -> TableRefs | None:
        """The table's references if this process has them (no reading)."""
        return self._tables.get(table_id)

    async def of(self, table_id: str) -> TableRefs:
        if self.shared and table_id in self._tables:
            return await self.reload(table_id)
        refs = self._tables.get(table_id)
        if refs is None:
            refs = self._tables[table_id] = TableRefs()
        if not refs.loaded:
            try:
                stored = await self._recall(table_id)
            except Exception:
                log.exception("could not read the message references of table %s", table_id)
                stored = {}
            for key, value in stored.items():
                refs.values.setdefault(key, value)
            refs.loaded = True
        return refs

    async def reload(self, table_id: str) -> TableRefs:
        """Read the table's references again (another process of the bot may have moved
        one); those noted here and not stored yet stay as noted."""
        refs = self._tables.get(table_id)
        if refs is None or not refs.loaded:
            return await self.of(table_id)
        try:
            stored = await self._recall(table_id)
        except Exception:
            log.exception("could not read the message references of table %s", table_id)
            return refs
        pending = self._pending.get(table_id, {})
        refs.values.update({key: value for key, value in stored.items() if key not in pending})
        return refs

    def keep(self, table_id: str, key: str, value: Any) -> None:
        """Note a reference now, and store it in the background."""
        refs = self._tables.get(table_id)
        if refs is None:
            refs = self._tables[table_id] = TableRefs()
        refs.values[key] = value
        pending = self._pending.setdefault(table_id, {})
        pending.pop(key, None)
        pending[key] = value
        if table_id not in self._writers:
            self._writers[table_id] = asyncio.get_running_loop().create_task(self._write(table_id))

    async def _write(self, table_id: str) -> None:
        try:
            while queued := self._pending.get(table_id):
                name, latest = next(iter(queued.items()))
                del queued[name]
                try:
                    await self._remember(table_id, name, latest)
                except Exception:
                    log.exception("could not store a message reference of table %s", table_id)
        finally:
            self._pending.pop(table_id, None)
            self._writers.pop(table_id, None)

    async def flush(self) -> None:
        """Wait until every reference noted so far is stored (before the service closes)."""
        while self._writers:
            await asyncio.gather(*list(self._writers.values()), return_exceptions=True)
