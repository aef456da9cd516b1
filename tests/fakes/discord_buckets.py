"""Discord's rate limits as the fake's HTTP server keeps them, on the wall clock.

The same buckets and numbers as the simcord tests' ``tests/discord/discord_limits.py``:
5 messages sent or edited in 5 s per channel, 5 deletes a second per channel, 5 writes in
2 s per interaction token, and 50 requests a second per bot (its token: every process of
one bot shares it). As on Discord, the interaction endpoints (a callback, a token's
webhook) are outside the bot's global limit. Windows slide and a call is counted when it
arrives. Each answer carries ``X-RateLimit-Limit``/``-Remaining``/``-Reset``/
``-Reset-After``/``-Bucket`` for its route's bucket; a call over a limit is refused with 429,
a JSON ``retry_after`` and ``Via`` (discord.py takes a 429 without it for a ban).
"""

from __future__ import annotations

import hashlib
import re
import time
from collections import defaultdict, deque
from dataclasses import dataclass, field

#: bucket kind: (calls, seconds), as ``tests/discord/discord_limits.LIMITS``.
LIMITS = {"channel": (5, 5.0), "delete": (5, 1.0), "token": (5, 2.0), "global": (50, 1.0)}
WRITES = frozenset({"POST", "PATCH", "PUT", "DELETE"})
CHANNEL_MESSAGES = re.compile(r"^/channels/(\d+)/messages(?:/(\d+))?$")
TOKEN = re.compile(r"^/webhooks/(\d+)/([^/]+)(?:/messages/.*)?$")
INTERACTION = re.compile(r"^/(?:interactions|webhooks)/")

Bucket = tuple[str, str]


@dataclass(frozen=True)
class Refusal:
    """A call refused with 429: which, when (monotonic seconds) and for how long."""

    method: str
    path: str
    bucket: str
    retry_after: float
    at: float


@dataclass
class Verdict:
    """What one call met: its route's bucket headers, and the refusal if it was over a limit."""

    headers: dict[str, str]
    refusal: Refusal | None = None


def buckets(method: str, path: str) -> list[Bucket]:
    """The buckets a call counts in, its route's own (if any) last."""
    found: list[Bucket] = [] if INTERACTION.match(path) else [("global", "")]
    if method not in WRITES:
        return found
    channel = CHANNEL_MESSAGES.match(path)
    if channel is not None:
        found.append(("delete" if method == "DELETE" else "channel", channel.group(1)))
    token = TOKEN.match(path)
    if token is not None:
        found.append(("token", token.group(2)))
    return found


@dataclass
class RateLimits:
    """Sliding windows per bucket; every refusal kept in ``refused``."""

    calls: dict[Bucket, deque[float]] = field(default_factory=lambda: defaultdict(deque))
    refused: list[Refusal] = field(default_factory=list)

    def check(self, method: str, path: str) -> Verdict:
        """Count the call, or refuse it when one of its buckets is full."""
        now = time.monotonic()
        found = buckets(method, path)
        for bucket in found:
            calls, seconds = LIMITS[bucket[0]]
            window = self._window(bucket, seconds, now)
            if len(window) >= calls:
                retry_after = round(window[0] + seconds - now, 3)
                refusal = Refusal(method, path, bucket[0], retry_after, now)
                self.refused.append(refusal)
                return Verdict(
                    self._headers(found[-1], now) | self._refused_headers(bucket, retry_after), refusal
                )
        for bucket in found:
            self.calls[bucket].append(now)
        return Verdict(self._headers(found[-1], now) if found else {})

    def _window(self, bucket: Bucket, seconds: float, now: float) -> deque[float]:
        window = self.calls[bucket]
        while window and window[0] <= now - seconds:
            window.popleft()
        return window

    def _headers(self, bucket: Bucket, now: float) -> dict[str, str]:
        calls, seconds = LIMITS[bucket[0]]
        window = self._window(bucket, seconds, now)
        reset_after = (window[0] + seconds - now) if window else seconds
        return {
            "X-RateLimit-Limit": str(calls),
            "X-RateLimit-Remaining": str(max(0, calls - len(window))),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha1(repr(bucket[0]).encode()).hexdigest()[:16],
        }

    @staticmethod
    def _refused_headers(bucket: Bucket, retry_after: float) -> dict[str, str]:
        scope = "global" if bucket[0] == "global" else "user"
        headers = {"Retry-After": f"{retry_after:.3f}", "X-RateLimit-Scope": scope, "Via": "1.1 google"}
        if scope == "global":
            headers["X-RateLimit-Global"] = "true"
        return headers
