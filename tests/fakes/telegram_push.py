"""Telegram's side of a webhook, with a reverse proxy in front of several bot workers.

Once a bot has called ``setWebhook``, Telegram POSTs each update to its URL and
counts it delivered when the answer is 200; otherwise it tries again later. In
front of several workers a proxy spreads the POSTs over them. ``WebhookPush``
does both: each update queued on the fake server (``send``, ``press``) is POSTed
with the secret token header to one of ``targets`` (round robin): at once to the
next one where nobody listens (a worker waiting to lead the bot, or down), as a
proxy's next upstream; after a short pause when every one refused, or one did not
answer (it was killed mid-request). Updates go out side by side, as Telegram's up to
40 connections do, so their order is not kept.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import aiohttp

from .telegram_api import FakeTelegram

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"


class WebhookPush:
    def __init__(self, server: FakeTelegram, targets: list[str], secret: str, *, pause: float = 0.2) -> None:
        self.server = server
        self.targets = targets
        self.secret = secret
        self.pause = pause
        self._next = itertools.cycle(range(len(targets)))
        self._task: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[None]] = set()
        self._session: aiohttp.ClientSession | None = None
        #: Updates each worker answered 200 to, by target index.
        self.delivered: list[int] = [0] * len(targets)
        #: POSTs that failed (refused, reset, not 200) and were tried again.
        self.retried = 0

    async def start(self) -> None:
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=5))
        self._task = asyncio.get_running_loop().create_task(self._pump())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        for task in list(self._sending):
            task.cancel()
        await asyncio.gather(*self._sending, return_exceptions=True)
        if self._session is not None:
            await self._session.close()

    def pending(self) -> int:
        """Updates not yet answered 200 by a worker."""
        return len(self.server.pending_updates) + len(self._sending)

    async def _pump(self) -> None:
        while True:
            pending = self.server.pending_updates
            while pending:
                update = pending.pop(0)
                task = asyncio.get_running_loop().create_task(self._deliver(update))
                self._sending.add(task)
                task.add_done_callback(self._sending.discard)
            await asyncio.sleep(0.005)

    async def _deliver(self, update: dict[str, Any]) -> None:
        assert self._session is not None
        refused = 0
        while True:
            index = next(self._next)
            try:
                async with self._session.post(
                    self.targets[index], json=update, headers={SECRET_HEADER: self.secret}
                ) as answer:
                    if answer.status == 200:
                        self.delivered[index] += 1
                        return
            except aiohttp.ClientConnectorError:
                # Nobody listens there (a worker waiting to lead, or down): the proxy tries
                # the next one at once, and pauses once every one has refused.
                refused += 1
                if refused % len(self.targets):
                    continue
            except (aiohttp.ClientError, TimeoutError, ConnectionError):
                pass
            self.retried += 1
            await asyncio.sleep(self.pause)
