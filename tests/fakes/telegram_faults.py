"""Failures a test can order from the fake server: error replies, lost connections, floods.

Production bots meet 429 "Too Many Requests", 403s and dropped connections;
these let a test provoke each one at an exact call and check that the bot
(or python-telegram-bot's AIORateLimiter) copes.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass
from typing import Literal

from .telegram_models import ApiError, JSONDict

FloodScope = Literal["chat", "group", "private", "overall"]

_DEFAULT_DESCRIPTIONS = {
    400: "Bad Request: injected failure",
    403: "Forbidden: injected failure",
    409: "Conflict: injected failure",
    500: "Internal Server Error",
    502: "Bad Gateway",
}


def retry_after_value(seconds: float) -> float:
    """Whole seconds like the real server, except for the sub-second waits tests configure.

    PTB turns only a truthy ``retry_after`` into RetryAfter, so it is never 0.
    """
    if seconds >= 1:
        return math.ceil(seconds)
    return max(math.ceil(seconds * 100) / 100, 0.01)


def too_many_requests(retry_after: float) -> ApiError:
    """The 429 answer the server gives when flood control kicks in."""
    wait = retry_after_value(retry_after)
    return ApiError(429, f"Too Many Requests: retry after {wait}", {"retry_after": wait})


@dataclass
class Fault:
    """One ordered failure: which calls it hits, how often, and what happens."""

    method: str | None
    chat_id: int | str | None
    times: int
    error: ApiError | None = None
    network: bool = False
    delivered: bool = False

    def matches(self, method: str, params: JSONDict) -> bool:
        if self.method is not None and self.method.lower() != method.lower():
            return False
        return self.chat_id is None or str(params.get("chat_id")) == str(self.chat_id)


def injected_error(error_code: int, retry_after: float, description: str | None) -> ApiError:
    """The error answer for ``fail_next``: 429s carry retry_after, as on the server."""
    if error_code == 429:
        error = too_many_requests(retry_after)
        if description:
            error.description = description
        return error
    text = description or _DEFAULT_DESCRIPTIONS.get(error_code, f"Error {error_code}")
    return ApiError(error_code, text)


class FaultPlan:
    """The queue of ordered faults; the first matching one fires on each call."""

    def __init__(self) -> None:
        self.faults: list[Fault] = []

    def add(self, fault: Fault) -> None:
        self.faults.append(fault)

    def take(self, method: str, params: JSONDict) -> Fault | None:
        """Consume one use of the first fault that applies to this call."""
        for fault in self.faults:
            if fault.matches(method, params):
                fault.times -= 1
                if fault.times <= 0:
                    self.faults.remove(fault)
                return fault
        return None

    def clear(self) -> None:
        self.faults.clear()


@dataclass(frozen=True)
class FloodLimit:
    """At most ``max_calls`` sending calls per ``period`` seconds within ``scope``.

    Telegram documents roughly 1 message per second per chat, 20 per minute
    per group and 30 per second overall. ``scope`` "chat" is every chat,
    "group" and "private" only those kinds, "overall" the whole bot.
    """

    max_calls: int
    period: float
    scope: FloodScope = "chat"


class FloodControl:
    """Sliding windows of sending calls; a call over a limit gets 429 instead of running."""

    def __init__(self, limits: tuple[FloodLimit, ...]) -> None:
        self.limits = limits
        self._windows: dict[tuple[FloodLimit, int | None], deque[float]] = {}
        #: How many calls were refused with 429, by scope.
        self.refused: dict[str, int] = {}

    @staticmethod
    def counts(method: str) -> bool:
        """Only calls that post or change messages are flood-limited, like on the server."""
        name = method.lower()
        return name.startswith(("send", "edit")) and name != "sendchataction"

    def check(self, chat_id: int | None, is_group: bool, now: float) -> ApiError | None:
        """A 429 if this call would break a limit; otherwise record it and allow it."""
        windows = []
        for limit in self.limits:
            if (limit.scope == "group" and not is_group) or (limit.scope == "private" and is_group):
                continue
            if limit.scope != "overall" and chat_id is None:
                continue
            key = (limit, None if limit.scope == "overall" else chat_id)
            window = self._windows.setdefault(key, deque())
            while window and window[0] <= now - limit.period:
                window.popleft()
            if len(window) >= limit.max_calls:
                self.refused[limit.scope] = self.refused.get(limit.scope, 0) + 1
                return too_many_requests(window[0] + limit.period - now)
            windows.append(window)
        for window in windows:
            window.append(now)
        return None
