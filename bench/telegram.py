"""Telegram bot latency: 200 matches at once through the real Application and the fake Bot API.

    python bench/telegram.py [--matches 200] [--plays 12] [--think 2.5] [--latency 0] [--db PATH]

Each match is a 1-v-1 between two people in its own group, all on one
event loop; their lobbies open over the first ``10 × think`` seconds, so
the matches then run side by side. A player thinks ``--think`` seconds on
average (uniformly between half and one and a half times that) before each
press: a card, then confirm (``--think 0`` presses as fast as the bot
answers, which measures throughput rather than waiting). For every update
(command or press) the time from its delivery to the end of the bot's last
Bot API call it caused is taken, as ``FakeTelegram.response_time`` does, and
p50, p99 and the maximum are printed, for commands, previews and confirmed
plays. The service commits each play to the SQLite file (WAL,
synchronous=FULL) before answering, as in production. No rate limiter: the
figures are the bot's own time, not Telegram's flood limits. ``--latency``
makes every Bot API call take that many seconds more, like a network.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# This file is named like the python-telegram-bot package: keep its folder off the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from telegram import Update  # noqa: E402

from bots.service import ManualClock, ServiceConfig, TableView  # noqa: E402
from bots.telegram.application import BasraTelegram, tune_gc  # noqa: E402
from tests.fakes import FakeChat, FakeTelegram, FakeUser  # noqa: E402

CONFIG = ServiceConfig(computer_delay=0.0, warning_seconds=0, heartbeat_seconds=3600.0, language="ar")


class BenchTelegram(FakeTelegram):
    """The fake server without what only tests read: the per-update call list (it costs
    O(calls)) and the history of calls, updates and edits (it would grow the heap the bot
    runs in, as no real Telegram server does)."""

    def __init__(self, latency: float) -> None:
        super().__init__(latency=latency, history=False)

    def calls_for(self, update: object) -> list[Any]:
        return []


def buttons(message: object, verb: str) -> list[str]:
    data: list[str] = message.button_data()  # type: ignore[attr-defined]
    return [d for d in data if d.split("|")[1:2] == [verb]]


class Bench:
    def __init__(self, server: FakeTelegram, basra: BasraTelegram, think: float) -> None:
        self.think = think
        self.rng = random.Random(5)
        self.server = server
        self.basra = basra
        self.app = basra.application
        self.times: dict[str, list[float]] = {"command": [], "preview": [], "play": []}
        self.updates: list[tuple[int, str]] = []  # ids only: the updates themselves are garbage

    async def pause(self) -> None:
        if self.think > 0:
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))

    async def deliver(self, update: Update, kind: str) -> None:
        await self.server.deliver(self.app, update)
        self.updates.append((update.update_id, kind))

    def measure(self) -> None:
        """Response times, read once everything ran (reading the call log is not free)."""
        ends: dict[int, float] = {}
        for call in self.server.api_calls:
            if call.update_id is not None:
                end = call.finished_at or call.at
                ends[call.update_id] = max(ends.get(call.update_id, 0.0), end)
        for update_id, kind in self.updates:
            record = self.server.updates[update_id]
            if record.update_id in ends:
                self.times[kind].append(ends[record.update_id] - (record.delivered_at or record.created_at))

    def hand(self, user: FakeUser) -> object:
        chat = self.server.private_chat(user)
        messages = self.server.messages(chat, bot_only=True)
        return [m for m in messages if buttons(m, "card") or buttons(m, "play")][-1]

    async def match(self, group: FakeChat, alice: FakeUser, badr: FakeUser, plays: int) -> None:
        await asyncio.sleep(self.rng.uniform(0, 10 * self.think))  # tables open over a while, not at once
        await self.deliver(self.server.user_sends(alice, group, "/newgame"), "command")
        lobby = self.server.last_message(group)
        await self.deliver(self.server.user_presses(badr, lobby, buttons(lobby, "join")[0]), "command")
        await self.deliver(self.server.user_presses(alice, lobby, buttons(lobby, "start")[0]), "command")
        users = {f"tg:{alice.id}": alice, f"tg:{badr.id}": badr}
        for _ in range(plays):
            table = await self.basra.service.open_table(f"tg:{group.id}")
            if not isinstance(table, TableView) or table.to_move is None:
                return
            user = users[table.seats[table.to_move].player_id or ""]
            await self.pause()
            hand = self.hand(user)
            await self.deliver(self.server.user_presses(user, hand, buttons(hand, "card")[0]), "preview")
            await self.pause()
            hand = self.hand(user)
            await self.deliver(self.server.user_presses(user, hand, buttons(hand, "play")[0]), "play")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def run(matches: int, plays: int, think: float, latency: float, database: Path) -> None:
    server = BenchTelegram(latency=latency)
    app = server.application_builder().concurrent_updates(True).build()
    server.attach(app.bot)
    basra = BasraTelegram(app, database=database, config=CONFIG, clock=ManualClock(),
                          rng=random.Random(1), commands=False)
    tables = []
    for n in range(matches):
        alice, badr = server.add_user(f"A{n}", language_code="ar"), server.add_user(f"B{n}")
        server.private_chat(alice)
        server.private_chat(badr)
        tables.append((server.add_group(f"G{n}", [alice, badr]), alice, badr))
    await app.initialize()
    await basra.start()
    tune_gc()  # as python -m bots.telegram does once started
    bench = Bench(server, basra, think)
    started = time.perf_counter()
    await asyncio.gather(*(bench.match(group, a, b, plays) for group, a, b in tables))
    elapsed = time.perf_counter() - started
    await basra.stop()
    await app.shutdown()
    bench.measure()
    every = [t for values in bench.times.values() for t in values]
    print(f"{matches} matches at once, think {think:g} s, {len(every)} updates in {elapsed:.1f} s "
          f"({len(bench.times['play'])} plays, {len(server.api_calls)} Bot API calls)")
    print("update → bot's last API call   p50       p99       max")
    for kind, values in (*bench.times.items(), ("all", every)):
        p50, p99 = percentile(values, 0.5) * 1000, percentile(values, 0.99) * 1000
        print(f"  {kind:<28} {p50:7.1f} ms {p99:7.1f} ms {max(values) * 1000:7.1f} ms")
    print(f"mean {statistics.fmean(every) * 1000:.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200)
    parser.add_argument("--plays", type=int, default=12, help="plays per match (48 is a whole round)")
    parser.add_argument("--think", type=float, default=2.5, help="mean seconds before each press")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added to every API call")
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        database = args.db or Path(folder) / "bench.sqlite3"
        asyncio.run(run(args.matches, args.plays, args.think, args.latency, database))


if __name__ == "__main__":
    main()
