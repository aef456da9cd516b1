"""Telegram bot, live: the real Application against the fake Bot API at Telegram's real limits.

    python bench/telegram.py [--matches 20] [--plays 16] [--think 0] [--latency 0]
    python bench/telegram.py --capacity [--think 2.5] [--plays 12]
    python bench/telegram.py --practice [--matches 4] [--plays 16] [--think 0] [--delay 0]
    python bench/telegram.py --strangers [--matches 4] [--plays 16] [--think 0]

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
edits) per confirmed play, not counting the previews drawn in a hand (a card with a
choice; a card with one outcome is previewed in the press's answer, which is no write);
and 429s.

``--capacity`` runs human-paced matches (``--think 2.5``: a play every 5 s
each) in growing numbers and prints the turn lag of each, up to the first
count whose p99 passes 1 s: how many such matches one bot token serves
before Telegram's 30 writes a second make a player wait.

``--practice`` plays matches in private chats instead: each person sends ``/practice``
and plays the computer (``--plays`` is their own plays), where one chat's budget (about
one write a second) is all there is. A card is pressed and its play confirmed: with the
preview edited into the hand, by its Play button; with the preview told in the press's
answer, by the same card again. The computer plays as soon as its turn comes, or after
``--delay`` seconds (``BASRA_COMPUTER_DELAY``, 0.8 s in a bot as shipped). Printed: the
preview (card press delivered → the answer that tells it, or the hand's edit that shows it)
p50/p99; an exchange with the computer (confirm delivered → the player's next hand shows
their turn, the computer's pause included); the answer to a confirm; writes per confirmed
play and per play (the computer's counted), previews included; and 429s.

``--strangers`` pairs people through the pool instead (``/play``, one wave;
``--matches`` pairs), each pair playing its 1-v-1 each in their own private chat
(``--plays`` is the pair's plays), and prints the same, with the turn's lag (a play
committed → the other's hand shows their turn) in place of the exchange with the computer.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

# This file is named like the python-telegram-bot package: keep its folder off the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from bots.service import ManualClock, Person, ServiceConfig, SystemClock, TableView  # noqa: E402
from bots.telegram.application import BasraTelegram, tune_gc  # noqa: E402
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser  # noqa: E402
from tests.telegram.live import (  # noqa: E402
    WRITES,
    Timeline,
    live_button,
    percentile,
    shown_version,
    when_ready,
)

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
        self.previews: list[float] = []
        #: Previews drawn in the hand (a card with a choice): an edit each.
        self.drawn = 0
        self.exchanges: list[float] = []
        self.plays_of: dict[str, int] = {}

    async def pause(self) -> None:
        if self.think > 0:
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))

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
            confirm = await self.preview(user, table.version)
            await self.pause()
            update = self.server.user_presses(user, *confirm)
            await self.server.deliver(self.app, update)
            [ack] = [c for c in self.server.calls_for(update) if c.method == "answerCallbackQuery"]
            self.acks.append((ack.finished_at or ack.at) - self._delivered(update.update_id))
            self.plays += 1


    async def practice(self, user: FakeUser, plays: int) -> None:
        """One person plays the computer in their private chat: a card, then its confirm."""
        await asyncio.sleep(self.rng.uniform(0, 10 * self.think))
        await self.server.deliver(self.app, self.server.user_sends(user, None, "/practice"))
        me = f"tg:{user.id}"
        while self.plays_of.get(me, 0) < plays:
            table = await self.basra.service.open_table(me)
            if not isinstance(table, TableView) or not table.running:
                return
            if table.to_move is None or table.seats[table.to_move].player_id != me:
                await asyncio.sleep(0.005)  # the computer is to play first
                continue
            await self.pause()
            confirm = await self.preview(user, table.version)
            await self.pause()
            update = self.server.user_presses(user, *confirm)
            await self.server.deliver(self.app, update)
            [ack] = [c for c in self.server.calls_for(update) if c.method == "answerCallbackQuery"]
            since = self._delivered(update.update_id)
            self.acks.append((ack.finished_at or ack.at) - since)
            self.plays += 1
            self.plays_of[me] = self.plays_of.get(me, 0) + 1
            while (seen := self._next_turn(user, table.version, since)) is None and not await self._over(me):
                await asyncio.sleep(0.005)
            if seen is not None:
                self.exchanges.append(seen - since)

    async def preview(self, user: FakeUser, version: int) -> tuple[FakeMessage, str]:
        """Press a card of the hand at ``version`` and read its preview: the button that confirms."""
        message, data = await when_ready(lambda: live_button(self.server, user, "card", version))
        pressed = self.server.user_presses(user, message, data)
        await self.server.deliver(self.app, pressed)
        since = self._delivered(pressed.update_id)
        answer = self.server.callback_answer(pressed)
        if answer is not None and answer.text:  # the preview is the press's answer: the card again
            self.previews.append(answer.at - since)
            return message, data
        # The preview is drawn in the hand: its Play button confirms.
        self.drawn += 1
        drawn: tuple[FakeMessage, str] = await when_ready(
            lambda: live_button(self.server, user, "play", version))
        shown = [v.at for v in drawn[0].versions
                 if v.at >= since and shown_version(_data(v), "play") == version]
        self.previews.append(min(shown) - since)
        return drawn

    def _next_turn(self, user: FakeUser, version: int, since: float) -> float | None:
        """When the user's hand first showed a turn after ``version``, since ``since``."""
        for message in reversed(self.server.messages(self.server.private_chat(user), bot_only=True)):
            for v in message.versions:
                shown = shown_version(_data(v), "card")
                if shown is not None and shown > version and v.at >= since:
                    return v.at
        return None

    async def _over(self, player: str) -> bool:
        table = await self.basra.service.open_table(player)
        return not isinstance(table, TableView) or not table.running

    def _delivered(self, update_id: int) -> float:
        record = self.server.updates[update_id]
        return record.delivered_at or record.created_at


    async def strangers(self, table_id: str, users: dict[str, FakeUser], plays: int) -> None:
        """Two people the pool paired play their match, each pressing a card and its confirm."""
        for _ in range(plays):
            table = await self.basra.service.table(table_id)
            if not table.running or table.to_move is None:
                return
            user = users[table.seats[table.to_move].player_id or ""]
            await self.pause()
            confirm = await self.preview(user, table.version)
            await self.pause()
            update = self.server.user_presses(user, *confirm)
            await self.server.deliver(self.app, update)
            [ack] = [c for c in self.server.calls_for(update) if c.method == "answerCallbackQuery"]
            self.acks.append((ack.finished_at or ack.at) - self._delivered(update.update_id))
            self.plays += 1


def person_of(user: FakeUser) -> Person:
    return Person(f"tg:{user.id}", user.first_name, user.language_code)


def _data(version: Any) -> list[str]:
    """The callback data of a message version's buttons."""
    return [b.callback_data or "" for row in version.buttons for b in row]


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
        "per_play": (writes - setup - bench.drawn) / max(1, bench.plays),
        "refused": server.too_many_requests(),
    }


async def run_practice(matches: int, plays: int, think: float, latency: float, database: Path,
                       delay: float = 0.0) -> dict[str, Any]:
    """``matches`` people at once, each playing the computer in their private chat (which
    pauses ``delay`` seconds before each play)."""
    server = FakeTelegram(latency=latency)
    app = server.application_builder().concurrent_updates(True).build()
    server.attach(app.bot)
    # The computer plays on the real clock, after its pause (``delay``; at once by default).
    config = replace(CONFIG, computer_delay=delay)
    basra = BasraTelegram(app, database=database, config=config, clock=SystemClock(),
                          rng=random.Random(1), commands=False)
    people = [server.add_user(f"P{n}", language_code="ar") for n in range(matches)]
    for user in people:
        server.private_chat(user)
    await app.initialize()
    await basra.start()
    tune_gc()
    timeline = Timeline.watch(basra.delivery)
    bench = Bench(server, basra, think)
    started = time.perf_counter()
    await asyncio.gather(*(bench.practice(user, plays) for user in people))
    elapsed = time.perf_counter() - started
    await basra.idle()
    await basra.stop()
    await app.shutdown()
    writes = len([c for c in server.api_calls if c.method in WRITES])
    # Each match's own writes before any play: the table and the first hand.
    setup = 2 * matches
    # Every play is committed with the table's next version (the deal's is the first).
    every = len(timeline.commits) - matches
    return {
        "elapsed": elapsed,
        "plays": bench.plays,
        "every": every,
        "acks": bench.acks,
        "previews": bench.previews,
        "exchanges": bench.exchanges,
        "per_play": (writes - setup) / max(1, bench.plays),
        "per_any": (writes - setup) / max(1, every),
        "refused": server.too_many_requests(),
    }


async def run_strangers(pairs: int, plays: int, think: float, latency: float, database: Path
                        ) -> dict[str, Any]:
    """``pairs`` pairs of strangers at once, each person in their own private chat."""
    server = FakeTelegram(latency=latency)
    app = server.application_builder().concurrent_updates(True).build()
    server.attach(app.bot)
    basra = BasraTelegram(app, database=database, config=CONFIG, clock=SystemClock(),
                          rng=random.Random(1), commands=False)
    people = [server.add_user(f"P{n}", language_code="ar" if n % 2 else "en") for n in range(2 * pairs)]
    for user in people:
        server.private_chat(user)
    await app.initialize()
    await basra.start()
    tune_gc()
    timeline = Timeline.watch(basra.delivery)
    for user in people:
        await server.deliver(app, server.user_sends(user, None, "/play"))
    await basra.service.pool_wave()
    await basra.idle()
    # Before any play: the waiting message, its edit to the opponent found, the cards.
    setup = len([c for c in server.api_calls if c.method in WRITES])
    bench = Bench(server, basra, think)
    started = time.perf_counter()
    users = {f"tg:{u.id}": u for u in people}
    tables = set()
    for user in people:
        status = await basra.service.pool_status(person_of(user))
        assert status is not None and status.table_id is not None, "someone was not seated"
        tables.add(status.table_id)
    await asyncio.gather(*(bench.strangers(table_id, users, plays) for table_id in sorted(tables)))
    elapsed = time.perf_counter() - started
    await basra.idle()
    await basra.stop()
    await app.shutdown()
    writes = len([c for c in server.api_calls if c.method in WRITES]) - setup
    return {
        "elapsed": elapsed,
        "plays": bench.plays,
        "acks": bench.acks,
        "previews": bench.previews,
        "turns": timeline.turn_lags(server, users),
        "per_play": writes / max(1, bench.plays),
        "refused": server.too_many_requests(),
    }


def report_strangers(result: dict[str, Any], pairs: int, think: float) -> None:
    print(f"{pairs} stranger matches at once, think {think:g} s: {result['plays']} plays in "
          f"{result['elapsed']:.1f} s, {result['refused']} answers of 429")
    print(line("card press → its preview shown", result["previews"]))
    print(line("confirm → its answer", result["acks"]))
    print(line("commit → the other's turn shown", result["turns"]))
    print(f"  writes per play (previews included, both chats): {result['per_play']:.2f}")


def report_practice(result: dict[str, Any], matches: int, think: float, delay: float) -> None:
    paused = f", the computer pausing {delay:g} s" if delay else ""
    print(f"{matches} practice matches at once, think {think:g} s{paused}: {result['plays']} confirmed plays "
          f"({result['every']} with the computer's) in {result['elapsed']:.1f} s, "
          f"{result['refused']} answers of 429")
    print(line("card press → its preview shown", result["previews"]))
    print(line("confirm → its answer", result["acks"]))
    print(line("confirm → the next turn's hand", result["exchanges"]))
    print(f"  writes per confirmed play (previews included): {result['per_play']:.2f}; "
          f"per play, the computer's too: {result['per_any']:.2f}")


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
    print(f"  writes per confirmed play (previews drawn in a hand apart): {result['per_play']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=None, help="20 (--practice: 4)")
    parser.add_argument("--plays", type=int, default=16, help="plays per match (48 is a whole round)")
    parser.add_argument("--think", type=float, default=None, help="mean seconds before each press")
    parser.add_argument("--latency", type=float, default=0.0, help="seconds added to every API call")
    parser.add_argument("--capacity", action="store_true", help="human-paced matches in growing numbers")
    parser.add_argument("--practice", action="store_true", help="each person plays the computer in private")
    parser.add_argument("--delay", type=float, default=0.0, help="--practice: the computer's pause (s)")
    parser.add_argument("--strangers", action="store_true", help="pairs the pool found, each in private")
    parser.add_argument("--db", type=Path, default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        def database(n: int) -> Path:
            return args.db or Path(folder) / f"bench{n}.sqlite3"

        if args.practice:
            think = 0.0 if args.think is None else args.think
            matches = 4 if args.matches is None else args.matches
            practised = run_practice(matches, args.plays, think, args.latency, database(0), args.delay)
            result = asyncio.run(practised)
            report_practice(result, matches, think, args.delay)
            return
        if args.strangers:
            think = 0.0 if args.think is None else args.think
            pairs = 4 if args.matches is None else args.matches
            report_strangers(asyncio.run(run_strangers(pairs, args.plays, think, args.latency, database(0))),
                             pairs, think)
            return
        matches = 20 if args.matches is None else args.matches
        if not args.capacity:
            think = 0.0 if args.think is None else args.think
            report(asyncio.run(run(matches, args.plays, think, args.latency, database(0))), matches, think)
            return
        think = 2.5 if args.think is None else args.think
        for n, matches in enumerate((25, 50, 75, 100, 125, 150, 200)):
            result = asyncio.run(run(matches, args.plays, think, args.latency, database(n)))
            report(result, matches, think)
            if result["turns"] and percentile(result["turns"], 0.99) > 1.0:
                break


if __name__ == "__main__":
    main()
