"""The table service's listening to a shared database (``bots.service.crossing``) under
simcord.

On PostgreSQL each service listens for what other processes do to the tables it serves. The
listening waits for ever, which simcord would take for the bot's work never done, so it is
kept out of the bot's work; what a notification makes the service do is the bot's work
(in the scope the service started in), so that simcord waits for it. simcord has no public
way to say either: ``_BOT_SCOPE`` is the context variable by which it tells the bot's work.
"""

from __future__ import annotations

import asyncio
import contextvars
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from simcord._runtime import _BOT_SCOPE

from bots.service.crossing import Crossing


@contextmanager
def heard_as_bot_work() -> Iterator[None]:
    """While inside, every service listens outside the bot's work and acts on what it hears
    as the bot's work."""
    listening, spawn = Crossing.listening, Crossing._spawn
    scopes: dict[int, Any] = {}

    @asynccontextmanager
    async def listening_outside(self: Crossing) -> AsyncIterator[None]:
        scopes[id(self)] = _BOT_SCOPE.get()
        # simcord owns a task by the scope of the code that makes it: made from outside.
        outside = contextvars.copy_context()
        outside.run(_BOT_SCOPE.set, None)
        loop = asyncio.get_running_loop()
        manager = listening(self)
        await outside.run(loop.create_task, manager.__aenter__())
        try:
            yield
        finally:
            await outside.run(loop.create_task, manager.__aexit__(None, None, None))

    def spawn_as_bot_work(self: Crossing, work: object) -> None:
        inside = contextvars.copy_context()
        inside.run(_BOT_SCOPE.set, scopes.get(id(self)))
        inside.run(spawn, self, work)

    Crossing.listening = listening_outside  # type: ignore[method-assign]
    Crossing._spawn = spawn_as_bot_work  # type: ignore[method-assign]
    try:
        yield
    finally:
        Crossing.listening, Crossing._spawn = listening, spawn  # type: ignore[method-assign]
