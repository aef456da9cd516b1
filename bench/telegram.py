"""Telegram bot, live: the real Application against the fake Bot API at Telegram's real limits.

    python bench/telegram.py [--matches 20] [--plays 16] [--think 0] [--latency 0]
    python bench/telegram.py --capacity [--think 2.5] [--plays 12]

Every match is a 1-v-1 between two people in its own group, all on one
event loop, and the fake server refuses with 429 whatever breaks Telegram's
limits (20 writes a minute in a group, about one a second in a private
chat, 30 a second in all). A player presses as soon as their screen shows
the button, after thinking ``--think`` seconds on average (uniformly between
half and one and a half times that): a card, then confirm. ``--think 0``
is two players pressing as fast as they can.

Printed, for the run: the answer to a confirm (press delivered → its
answerCallbackQuery done) p50/p99; the group's lag (a play committed → the
group's table shows it or a later state) p50/p99; the turn's lag (a play
committed → the next player's hand shows their turn); writes (sends and
edits) per confirmed play, not counting the preview's one edit; and 429s.

``--capacity`` runs human-paced matches (``--think 2.5``: a play every 5 s
each) in growing numbers and prints the turn lag of each, up to the first
count whose p99 passes 1 s: how many such matches one bot token serves
before Telegram's 30 writes a second make a player wait.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# This file is named like the python-telegram-bot package: keep its folder off the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from bots.service import ManualClock, ServiceConfig, TableView  # noqa: E402
from bots.telegram.application import BasraTelegram, tune_gc  # noqa: E402
from tests.fakes import FakeChat, FakeTelegram, FakeUser  # noqa: E402
from tests.telegram.live import WRITES, Timeline, percentile, press_when_shown  # noqa: E402

CONFIG = ServiceConfig(computer_delay=0.0, warning_seconds=0, heartbeat_seconds=3600.0, language="ar")


class Bench:
    def __init__(self, server: FakeTelegram, basra: BasraTelegram, think: float) -> None:
        self.think = think
        self.rng = random.Random(5)
        self.server = server
        self.basra = basra
        self.app = basra.application
        self.acks: list[float] = []
        self.plays = 0

    async def pause(self) -> None:
        if self.think > 0:
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))

    async def press(self, user: FakeUser, verb: str, version: int) -> float:
        """Press as soon as the button shows; the time the answer took."""
        return await press_when_shown(self.server, self.app, user, verb, version)

    async def match(self, group: FakeChat, alice: FakeUser, badr: FakeUser, plays: int) -> None:
        await asyncio.sleep(self.rng.uniform(0, 10 * self.think))  # tables open over a while
        await self.server.deliver(self.app, self.server.user_sends(alice, group, "/newgame"))
        while not self.server.messages(group, bot_only=True):
            await asyncio.sleep(0.01)
        lobby = self.server.last_message(group)
        join = [d for d in lobby.button_data() if d.split("|")[1:2] == ["join"]]
        await self.server.deliver(self.app, self.server.user_presses(badr, lobby, join[0]))
        while not (start := [d for d in lobby.button_data() if d.split("|")[1:2] == ["start"]]):
            await asyncio.sleep(0.01)
        await self.server.deliver(self.app, self.server.user_presses(alice, lobby, start[0]))
        users = {f"tg:{alice.id}": alice, f"tg:{badr.id}": badr}
        for _ in range(plays):
            table = await self.basra.service.open_table(f"tg:{group.id}")
            if not isinstance(table, TableView) or table.to_move is None:
                return
            user = users[table.seats[table.to_move].player_id or ""]
            await self.pause()
            await self.press(user, "card", table.version)
            await self.pause()
            self.acks.append(await self.press(user, "play", table.version))
            self.plays += 1


async def run(matches: int, plays: int, think: float, latency: float, database: Path) -> dict[str, Any]:
    server = FakeTelegram(latency=latency)
    app = server.application_builder().concurrent_updates(True).build()
    server.attach(app.bot)
    basra = BasraTelegram(app, database=database, config=CONFIG, clock=ManualClock(),
                          rng=random.Random(1), commands=False)
    tables, users = [], {}
    for n in range(matches):
        alice, badr = server.add_user(f"A{n}", language_code="ar"), server.add_user(f"B{n}")
        for user in (alice, badr):
            server.private_chat(user)
            users[f"tg:{user.id}"] = user
        tables.append((server.add_group(f"G{n}", [alice, badr]), alice, badr))
    await app.initialize()
    await basra.start()
    tune_gc()  # as python -m bots.telegram does once started
    timeline = Timeline.watch(basra.delivery)
    bench = Bench(server, basra, think)
    started = time.perf_counter()
    await asyncio.gather(*(bench.match(group, a, b, plays) for group, a, b in tables))
    elapsed = time.perf_counter() - started
    await basra.idle()
    await basra.stop()
    await app.shutdown()
    writes = len([c for c in server.api_calls if c.method in WRITES])
    # Each match's own writes before any play: the lobby, its edit for the join, its edit into
    # the first table, the waiting player's first look at their cards, the first turn.
    setup = 5 * matches
    return {
        "elapsed": elapsed,
        "plays": bench.plays,
        "acks": bench.acks,
        "group": [lag for group, _, _ in tables for lag in timeline.group_lags(server, group)],
        "turns": timeline.turn_lags(server, users),
        "per_play": (writes - setup - bench.plays) / max(1, bench.plays),
        "refused": server.too_many_requests(),
    }


def line(name: str, values: list[float]) -> str:
    if not values:
        return f"  {name:<34} none"
    p50, p99 = percentile(values, 0.5) * 1000, percentile(values, 0.99) * 1000
    return f"  {name:<34} p50 {p50:7.1f} ms   p99 {p99:7.1f} ms   max {max(values) * 1000:7.1f} ms"


def report(result: dict[str, Any], matches: int, think: float) -> None:
    print(f"{matches} matches at once, think {think:g} s: {result['plays']} plays in "
          f"{result['elapsed']:.1f} s, {result['refused']} answers of 429")
    print(line("confirm → its answer", result["acks"]))
    print(line("commit → group shows it", result["group"]))
    print(line("commit → next player's turn shown", result["turns"]))
    print(f"  writes per confirmed play (the preview's edit apart): {result['per_play']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--plays", type=int, default=16, help="plays per match (48 is a whole round)")
    parser.add_argument("--think", type=float, default=None, help="mean seconds before each press")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added to every API call")
    parser.add_argument("--capacity", action="store_true", help="human-paced matches in growing numbers")
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        def database(n: int) -> Path:
            return args.db or Path(folder) / f"bench{n}.sqlite3"

        if not args.capacity:
            think = 0.0 if args.think is None else args.think
            report(asyncio.run(run(args.matches, args.plays, think, args.latency, database(0))),
                   args.matches, think)
            return
        think = 2.5 if args.think is None else args.think
        for n, matches in enumerate((25, 50, 75, 100, 125, 150, 200)):
            result = asyncio.run(run(matches, args.plays, think, args.latency, database(n)))
            report(result, matches, think)
            if result["turns"] and percentile(result["turns"], 0.99) > 1.0:
                break


if __name__ == "__main__":
    main()
