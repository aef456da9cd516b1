"""Groups that became supergroups: where each one is now, and moving its game there.

Upgrading a basic group to a supergroup gives it a new chat id, and the old id
refuses every call from then on. The bot learns of it from Telegram's notice
(``Handlers.migrated``) or, often first, from a call to the old id that
Telegram refuses naming the new one (``ChatMigrated``, which the outbox
reports). Both come to ``follow``: the table, settings and history move once
(``TableService.move_chat``, which draws the table afresh in the new chat),
whichever comes second changes nothing, and everything for the group is sent
under its new id from then on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Coroutine
from typing import Any

from ..service import ServiceError, TableService, chat_id

log = logging.getLogger(__name__)


class ChatMoves:
    """Old group id → new supergroup id, for this process (a restarted bot learns it again
    from the first refused call, and moving again is harmless)."""

    def __init__(self, service: Callable[[], TableService],
                 background: Callable[[Coroutine[Any, Any, None]], None]) -> None:
        self._service = service
        self._background = background
        self._to: dict[int, int] = {}

    def where(self, chat: int) -> int:
        """The id a chat has now: a group that became a supergroup is found under the new one."""
        return self._to.get(chat, chat)

    def service_id(self, chat: int) -> str:
        """The service's id for a chat as it is now (a message from an upgraded group's old id
        acts on the supergroup)."""
        return chat_id("tg", self.where(chat))

    async def follow(self, old: int, new: int) -> None:
        """The group ``old`` is now the supergroup ``new``: send there from now on, and move
        its game there (a second move of the same chat changes nothing)."""
        self._to[old] = new
        try:
            await self._service().move_chat(chat_id("tg", old), chat_id("tg", new))
        except ServiceError as error:
            log.warning("could not move a chat's table to its supergroup: %s", type(error).__name__)

    def refused(self, old: int, new: int) -> None:
        """Telegram refused a call to ``old`` naming ``new`` (``Outbox.on_moved``). The move
        runs apart: the refused call may be part of a delivery of that very table, which the
        move has to wait for."""
        if self._to.get(old) == new:
            return  # followed already
        self._to[old] = new
        self._background(self._follow_apart(old, new))

    async def _follow_apart(self, old: int, new: int) -> None:
        try:
            await self.follow(old, new)
        except Exception:
            log.exception("could not move chat %d to its supergroup %d", old, new)
