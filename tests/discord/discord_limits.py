"""Discord's rate limits on simcord's in-memory server, which has none of its own.

The bot's REST calls all pass through ``simcord.http.router.dispatch``; this
wraps it with the buckets the real server keeps (sliding windows, counted
when a call arrives, on the event loop's clock, sped up ``speedup`` times): 5 messages
sent or edited in 5 s per channel, 5 deletes a second per channel, 5 writes
in 2 s per interaction token (a hand's edits, follow-ups), 50 requests a
second in all. Answering an interaction (its callback) is not limited.

A call over a limit fails with 429 as Discord answers it; every refusal is
kept in ``refused``, so a test can assert the bot never met one.
"""

from __future__ import annotations

import asyncio
import re
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from simcord.backend.errors import BackendError

WRITES = frozenset({"POST", "PATCH", "PUT", "DELETE"})
CHANNEL_MESSAGES = re.compile(r"^/channels/(\d+)/messages(?:/(\d+))?$")
TOKEN = re.compile(r"^/webhooks/(\d+)/([^/]+)(?:/messages/.*)?$")

#: bucket kind: (calls, seconds)
LIMITS = {"channel": (5, 5.0), "delete": (5, 1.0), "token": (5, 2.0), "global": (50, 1.0)}


@dataclass
class RateLimits:
    speedup: float = 1.0
    calls: dict[tuple[str, str], deque[float]] = field(default_factory=lambda: defaultdict(deque))
    refused: list[tuple[str, str, float]] = field(default_factory=list)  # (method, path, retry_after)
    #: Every call that went through: (time, method, path, body, answer).
    log: list[tuple[float, str, str, Any, Any]] = field(default_factory=list)

    @staticmethod
    def clock() -> float:
        """The event loop's time: simcord's clock, as the bot's own planning sees it."""
        return asyncio.get_running_loop().time()

    def buckets(self, method: str, path: str) -> list[tuple[str, str]]:
        found = [("global", "")]
        if method not in WRITES:
            return found
        channel = CHANNEL_MESSAGES.match(path)
        if channel is not None:
            kind = "delete" if method == "DELETE" else "channel"
            found.append((kind, channel.group(1)))
        token = TOKEN.match(path)
        if token is not None:
            found.append(("token", token.group(2)))
        return found

    def check(self, method: str, path: str) -> None:
        """Count the call, or refuse it with 429 when one of its buckets is full."""
        now = self.clock()
        buckets = self.buckets(method, path)
        for bucket in buckets:
            calls, seconds = LIMITS[bucket[0]]
            period = seconds / self.speedup
            window = self.calls[bucket]
            while window and window[0] <= now - period:
                window.popleft()
            if len(window) >= calls:
                retry_after = round(window[0] + period - now, 3)
                self.refused.append((method, path, retry_after))
                raise BackendError(429, 0, f"You are being rate limited. retry_after={retry_after}")
        for bucket in buckets:
            self.calls[bucket].append(now)

    def wrap(self, dispatch: Callable[..., Any]) -> Callable[..., Any]:
        def limited(backend: Any, method: str, path: str, **kwargs: Any) -> Any:
            self.check(method, path)
            answer = dispatch(backend, method, path, **kwargs)
            self.log.append((self.clock(), method, path, kwargs.get("json"), answer))
            return answer

        return limited

    def most_in_window(self, kind: str) -> int:
        """The most calls any one bucket of ``kind`` ("channel", "token", ...) took within
        one of its windows, over the whole test."""
        period = LIMITS[kind][1] / self.speedup
        times: dict[tuple[str, str], list[float]] = defaultdict(list)
        for when, method, path, _, _ in self.log:
            for bucket in self.buckets(method, path):
                if bucket[0] == kind:
                    times[bucket].append(when)
        most = 0
        for series in times.values():
            for i, start in enumerate(series):
                most = max(most, sum(1 for t in series[i:] if t < start + period))
        return most
