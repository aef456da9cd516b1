"""Timing what players see, for the live-delivery tests and ``bench/telegram.py``.

``Timeline`` watches the adapter's ``deliver`` (called when an action is
committed) and reads back, from the fake server's message versions, when each
committed state reached each chat: the group's table (the version its "My
hand" button carries) and the next player's hand.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from bots.service import TableUpdated, YourTurn
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser

WRITES = ("sendMessage", "editMessageText")


def shown_version(data: list[str], verb: str = "") -> int | None:
    """The table version a message's buttons carry (``b1|<verb>|<table>|<version>|…``)."""
    versions = [int(d.split("|")[3]) for d in data
                if d.startswith("b1|") and d.count("|") >= 3 and d.split("|")[3].isdigit()
                and (not verb or d.split("|")[1] == verb)]
    return max(versions) if versions else None


def _version_of(version: Any) -> int | None:
    return shown_version([b.callback_data or "" for row in version.buttons for b in row])


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


@dataclass
class Timeline:
    """When each table version was committed and whose turn it made."""

    commits: dict[tuple[str, int], float] = field(default_factory=dict)  # (chat, version) → at
    turns: list[tuple[float, str, int]] = field(default_factory=list)  # (at, player, version)

    @classmethod
    def watch(cls, delivery: Any) -> Timeline:
        timeline = cls()
        original = delivery.deliver

        async def deliver(notices: Any) -> None:
            now = time.perf_counter()
            for notice in notices:
                if isinstance(notice, TableUpdated) and notice.table.running:
                    timeline.commits.setdefault((notice.chat_id, notice.table.version), now)
                if isinstance(notice, YourTurn):
                    timeline.turns.append((now, notice.player_id, notice.hand.version))
            await original(notices)

        delivery.deliver = deliver
        return timeline

    def group_lags(self, server: FakeTelegram, group: FakeChat) -> list[float]:
        """For each committed version, the seconds until the group showed it or a later one."""
        shown = sorted(
            (version.at, v)
            for message in server.messages(group, bot_only=True)
            for version in message.versions
            if (v := shown_version([b.callback_data or "" for row in version.buttons for b in row], "hand"))
            is not None
        )
        lags = []
        chat = f"tg:{group.id}"
        for (where, version), at in sorted(self.commits.items()):
            if where != chat:
                continue
            seen = next((when for when, v in shown if v >= version and when >= at), None)
            if seen is not None:
                lags.append(seen - at)
        return lags

    def turn_lags(self, server: FakeTelegram, users: dict[str, FakeUser]) -> list[float]:
        """For each turn given to a person, the seconds until their hand showed it."""
        lags = []
        for at, player, version in self.turns:
            chat = server.private_chat(users[player])
            seen = [
                v.at for m in server.messages(chat, bot_only=True) for v in m.versions
                if v.at >= at and (_version_of(v) or -1) >= version
            ]
            if seen:
                lags.append(min(seen) - at)
        return lags


def never_older(messages: list[FakeMessage]) -> None:
    """No message ever went back to an older state than one it had shown."""
    for message in messages:
        versions = [shown_version([b.callback_data or "" for row in v.buttons for b in row])
                    for v in message.versions]
        seen = [v for v in versions if v is not None]
        assert seen == sorted(seen), f"message {message.message_id} went back: {seen}"


def summary(values: list[float]) -> str:
    if not values:
        return "none"
    p50, p99 = percentile(values, 0.5) * 1000, percentile(values, 0.99) * 1000
    mean = statistics.fmean(values) * 1000
    top = max(values) * 1000
    return f"p50 {p50:.0f} ms, p99 {p99:.0f} ms, max {top:.0f} ms (n={len(values)}, mean {mean:.0f} ms)"


def live_button(
    server: FakeTelegram, user: FakeUser, verb: str, version: int
) -> tuple[FakeMessage, str] | None:
    """A button with ``verb`` for table version ``version`` on the user's private screen, if any."""
    for message in reversed(server.messages(server.private_chat(user), bot_only=True)):
        found = [d for d in message.button_data()
                 if d.split("|")[1:2] == [verb] and shown_version([d]) == version]
        if found:
            return message, found[0]
    return None


async def press_when_shown(server: FakeTelegram, app: Any, user: FakeUser, verb: str, version: int) -> float:
    """Press as soon as the button shows; returns how long the press waited for its answer."""
    message, data = await when_ready(lambda: live_button(server, user, verb, version))
    update = server.user_presses(user, message, data)
    await server.deliver(app, update)
    [answer] = [c for c in server.calls_for(update) if c.method == "answerCallbackQuery"]
    record = server.updates[update.update_id]
    return (answer.finished_at or answer.at) - (record.delivered_at or record.created_at)


async def play_when_shown(server: FakeTelegram, app: Any, user: FakeUser, version: int) -> float:
    """Press a card as soon as the hand shows it, then its confirm: Play, once the preview is
    drawn in the hand, or the same card again when the press's answer told the preview (a
    match played in a private chat). Returns how long the confirm waited for its answer."""
    message, data = await when_ready(lambda: live_button(server, user, "card", version))
    update = server.user_presses(user, message, data)
    await server.deliver(app, update)
    answer = server.callback_answer(update)
    if answer is not None and answer.text and not answer.show_alert:
        confirm = server.user_presses(user, message, data)
        await server.deliver(app, confirm)
        [call] = [c for c in server.calls_for(confirm) if c.method == "answerCallbackQuery"]
        record = server.updates[confirm.update_id]
        return (call.finished_at or call.at) - (record.delivered_at or record.created_at)
    return await press_when_shown(server, app, user, "play", version)


async def when_ready(check: Any, timeout: float = 10.0) -> Any:
    """Poll ``check()`` until it returns something (a person looking at their screen)."""
    end = time.perf_counter() + timeout
    while (found := check()) is None:
        assert time.perf_counter() < end, "nothing to press in time"
        await asyncio.sleep(0.005)
    return found
