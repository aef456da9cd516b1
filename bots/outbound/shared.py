"""What the processes of one bot on one database share about its outbound writes.

Several processes of one bot (Telegram webhook workers behind one URL) send
through one token and into the same chats, so the platform's limits are theirs
together: each write is admitted by a sliding window kept in the database
(``Store.take_window``), one per chat and one for the token, on top of the
process's own plan. And a message edited by two processes must never go back
to an older state: a write carrying a ``stamp`` is run under a lock on its
message held across processes (``Store.hold``), and only if its stamp is not
older than the last one any process sent (``Store.advance_mark``); the
message's references are stored before the lock is let go, so the next
process to edit it finds the message instead of posting another.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Hashable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from .budget import Limit
from .refs import MessageRefs


class SharedStore(Protocol):
    """The part of ``storage.Store`` shared outbound state needs."""

    def hold(self, key: str) -> AbstractAsyncContextManager[None]: ...

    async def take_window(self, key: str, calls: int, period: float, now: float) -> float: ...

    async def advance_mark(self, key: str, stamp: Sequence[int]) -> bool: ...


class Shared:
    """Shared admission and ordering of one bot's writes (``prefix``: the bot, "tg:<id>").

    Under a guarded write's lock, ``prepare(scope)`` runs first (the adapter reads the
    references of the write's table again) and ``settle()`` after it (the adapter stores
    the references the write noted)."""

    def __init__(
        self,
        store: SharedStore,
        prefix: str,
        *,
        prepare: Callable[[str], Awaitable[object]] | None = None,
        settle: Callable[[], Awaitable[None]] | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._store = store
        self._prefix = prefix
        self._prepare = prepare
        self._settle = settle
        self._clock = clock

    async def admit(self, chat: Hashable, limit: Limit, overall: Limit | None, *, urgent: bool) -> float:
        """0.0 if a write to ``chat`` may go now (it is counted), else the seconds to wait."""
        now = self._clock()
        wait = await self._store.take_window(
            f"{self._prefix}:chat:{chat!r}", _allowed(limit, urgent), limit.period, now
        )
        if wait > 0 or overall is None:
            return wait
        return await self._store.take_window(
            f"{self._prefix}:token", _allowed(overall, urgent), overall.period, now
        )

    async def ordered(
        self,
        key: Hashable,
        stamp: tuple[int, ...],
        run: Callable[[], Awaitable[object]],
        scope: str | None = None,
        lock: Hashable | None = None,
    ) -> tuple[bool, object]:
        """Run a stamped write under its message's lock if no process sent a newer state
        of it: ``(False, None)`` if one did (nothing is run), else ``(True, outcome)``.
        With ``lock``, the writes of every key sharing it take turns and share one mark:
        none goes out with an older state than any of them sent."""
        ordered_as = key if lock is None else lock
        name = f"{self._prefix}:msg:{ordered_as!r}"
        async with self._store.hold(name):
            if not await self._store.advance_mark(name, stamp):
                return False, None
            if scope is not None and self._prepare is not None:
                await self._prepare(scope)
            outcome = await run()
            if self._settle is not None:
                await self._settle()
            return True, outcome


def _allowed(limit: Limit, urgent: bool) -> int:
    return limit.calls if urgent else limit.calls - limit.reserve


class Sharing(Protocol):
    """A dispatcher (``Dispatcher``), as ``share`` sees it."""

    def share(self, shared: Shared) -> None: ...


def share(dispatcher: Sharing, refs: MessageRefs, store: SharedStore, owner: str) -> None:
    """From now on the bot ``owner``'s ``dispatcher`` admits and orders its writes with the
    bot's other processes on ``store``, reading its message references ``refs`` afresh."""
    refs.shared = True
    dispatcher.share(Shared(store, owner, prepare=refs.reload, settle=refs.flush))
