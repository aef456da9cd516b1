"""Where each table's messages are (the lobby, the table of the round, each hand …), kept
in delivery's own rows of the store (``Store.message_refs``, ``Store.keep_refs``), never on
the table's row: a restarted bot edits the same messages instead of posting anew, and
keeping a reference neither waits for an action of the table nor conflicts with one.

References are read once per table and noted in memory at once; one writer per table
stores them in the background, the newest value of each key, in one write for all the keys
noted meanwhile. Memory holds those of the tables used last (``memory.CAPS.table_refs``,
1,024 unless set otherwise): a table beyond them
(a finished one, as a rule) is read from the store again if it is ever used, so what a bot
keeps does not grow with every match it has served.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from .. import memory

log = logging.getLogger(__name__)


class RefStore(Protocol):
    """The part of ``storage.Store`` that keeps message references."""

    async def message_refs(self, table_id: str) -> dict[str, Any]: ...

    async def keep_refs(self, table_id: str, refs: Mapping[str, Any]) -> None: ...


@dataclass
class TableRefs:
    """The messages of one table, as far as this process knows them."""

    values: dict[str, Any] = field(default_factory=dict)
    loaded: bool = False


class MessageRefs:
    """Every table's ``TableRefs``, read from and stored in a ``RefStore`` (``attach``)."""

    def __init__(self, store: RefStore | None = None) -> None:
        self._store = store
        self._tables: OrderedDict[str, TableRefs] = OrderedDict()
        self._pending: dict[str, dict[str, Any]] = {}
        self._writers: dict[str, asyncio.Task[None]] = {}
        #: Other processes of the bot move references too (a shared database): every
        #: reading goes to the store, not only the first.
        self.shared = False

    def attach(self, store: RefStore) -> None:
        """Read and keep references in ``store`` from now on (once it is open)."""
        self._store = store

    async def _recall(self, table_id: str) -> dict[str, Any]:
        if self._store is None:
            raise RuntimeError("message references have no store yet")
        return await self._store.message_refs(table_id)

    def known(self, table_id: str) -> TableRefs | None:
        """The table's references if this process has them (no reading)."""
        return self._tables.get(table_id)

    def _noted(self, table_id: str) -> TableRefs:
        """The table's entry in memory, made the latest used; the entries of the tables used
        longest ago go beyond ``memory.CAPS.table_refs``, unless something of theirs is still to be stored."""
        refs = self._tables.get(table_id)
        if refs is None:
            refs = self._tables[table_id] = TableRefs()
        self._tables.move_to_end(table_id)
        kept = memory.CAPS.table_refs
        if len(self._tables) > kept:
            for old in [t for t in self._tables if t not in self._pending][: len(self._tables) - kept]:
                del self._tables[old]
        return refs

    async def of(self, table_id: str) -> TableRefs:
        if self.shared and table_id in self._tables:
            return await self.reload(table_id)
        refs = self._noted(table_id)
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
        refs = self._noted(table_id)
        refs.values[key] = value
        pending = self._pending.setdefault(table_id, {})
        pending.pop(key, None)
        pending[key] = value
        if table_id not in self._writers:
            self._writers[table_id] = asyncio.get_running_loop().create_task(self._write(table_id))

    async def _write(self, table_id: str) -> None:
        """Store what is noted, until nothing noted is left unstored. A key stays noted as
        pending while its write is under way (``reload`` leaves it as noted), and until the
        value noted last is the one stored."""
        try:
            while pending := self._pending.get(table_id):
                batch = dict(pending)
                try:
                    if self._store is None:
                        raise RuntimeError("message references have no store yet")
                    await self._store.keep_refs(table_id, batch)
                except Exception:
                    log.exception("could not store the message references of table %s", table_id)
                for key, value in batch.items():
                    if key in pending and pending[key] is value:
                        del pending[key]
        finally:
            self._pending.pop(table_id, None)
            self._writers.pop(table_id, None)

    async def flush(self) -> None:
        """Wait until every reference noted so far is stored (before the service closes)."""
        while self._writers:
            await asyncio.gather(*list(self._writers.values()), return_exceptions=True)
