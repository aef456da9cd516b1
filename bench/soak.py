"""Does the bot's memory stay flat while matches come and go? A real bot process, for long.

    python bench/soak.py --minutes 60             # 10 matches turning over for an hour
    python bench/soak.py --minutes 0.3 --every 6 --matches 4 --plays 8 --pace 0.3  # a test's

One ``python -m bots.telegram`` process polls the fake Bot API over HTTP (Telegram's real
limits) on a new SQLite file, or on a new schema of ``--database`` (a PostgreSQL URL).
``--matches`` 1-v-1s run side by side, each in a group of its own between two people who
play at a person's pace (2 to 6 s to pick a card, 0.5 to 1 s on its preview, then
confirm); after ``--plays`` confirms one of them resigns, and the same two open the next
match at once, so finished matches pile up as they would in a day of a busy bot.

Printed each minute: the bot process's resident memory (``VmRSS`` of
``/proc/<pid>/status``), the matches finished so far, and that minute's press-answer p99
(a confirm pressed → its button's answer; the play is committed then) and group lag p99
(the answer → the group's table shows the play or a later state). Last, the slope of
resident memory after the warm-up (the first ``--warmup`` minutes, by default a third of
the run, at most 10), a least-squares line through the minutes' figures, in MB an hour,
and per finished match. ``--every`` prints a line that many seconds instead (the first
column is still the minutes since the start), ``--pace`` scales the people's thinking.

``--small-caps`` sets what the bot keeps small (``bots.memory``), so that the caches are
full after the warm-up and the slope is that of what no cap holds; ``--probe FOLDER``
writes what the process holds each line (``bench/probe/sitecustomize.py``: objects by type,
the heap, SQLite's memory, pymalloc, resident memory by kind of mapping) and a report of
what grew after the warm-up, by traceback too with ``--trace N`` (tracemalloc's frames).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

# bench/telegram.py is named like the python-telegram-bot package: keep its folder off the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from bench.capacity import confirmed, new_database, press_card, wait_for  # noqa: E402
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser  # noqa: E402
from tests.fakes.telegram_http import HttpFront  # noqa: E402
from tests.telegram.live import percentile, shown_version  # noqa: E402
from tests.telegram.test_process import Process, data_for  # noqa: E402


@dataclass
class Pair:
    """Two people and their group, playing one match after another."""

    group: FakeChat
    people: list[FakeUser]
    finished: int = 0


@dataclass
class Minute:
    answers: list[float] = field(default_factory=list)
    lags: list[float] = field(default_factory=list)


class Soak:
    def __init__(self, server: FakeTelegram, front: HttpFront, plays: int, end: float, seed: int,
                 every: float = 60.0, pace: float = 1.0) -> None:
        self.server, self.front, self.plays, self.end = server, front, plays, end
        self.every, self.pace = every, pace
        self.rng = random.Random(seed)
        self.start = time.perf_counter()
        self.minutes: list[Minute] = [Minute()]

    @property
    def now_minute(self) -> Minute:
        while len(self.minutes) <= int((time.perf_counter() - self.start) // self.every):
            self.minutes.append(Minute())
        return self.minutes[-1]

    def recent(self, chat: FakeChat, count: int = 6) -> list[FakeMessage]:
        """The bot's newest messages in a chat (no scan of a long history)."""
        found: list[FakeMessage] = []
        for message in reversed(chat.messages.values()):
            if message.from_bot and not message.deleted:
                found.append(message)
                if len(found) == count:
                    break
        return found

    def live_hand(self, pair: Pair) -> tuple[FakeUser, FakeMessage, str] | None:
        best: tuple[float, FakeUser, FakeMessage, str] | None = None
        for user in pair.people:
            for message in self.recent(self.server.private_chat(user)):
                card = data_for(message, "card")
                if card is not None and (best is None or message.versions[0].at > best[0]):
                    best = (message.versions[0].at, user, message, card)
        return None if best is None else best[1:]

    def within(self, seconds: float) -> float:
        """At most ``seconds``, and none past the run's end."""
        return min(seconds, self.end - time.perf_counter())

    async def open_match(self, pair: Pair) -> bool:
        """A new match between the pair; False when it is not dealt, or not before the run's end
        (the group's lobby is edited at the group's pace, a few seconds an edit)."""
        alice, badr = pair.people
        before = max((m.message_id for m in self.recent(pair.group, 1)), default=0)
        self.front.send(alice, pair.group, "/newgame")
        lobby = await wait_for(lambda: next((m for m in self.recent(pair.group, 3)
                                             if m.message_id > before and data_for(m, "join")), None),
                               self.within(60))
        if lobby is None:
            return False
        self.front.press(badr, lobby, data_for(lobby, "join") or "")
        if not await wait_for(lambda: data_for(lobby, "start"), self.within(60)):
            return False
        self.front.press(alice, lobby, data_for(lobby, "start") or "")
        return bool(await wait_for(lambda: self.live_hand(pair), self.within(60)))

    async def group_lag(self, pair: Pair, answered: float, version: int) -> None:
        def shown() -> float | None:
            for message in self.recent(pair.group, 3):
                for state in message.versions:
                    data = [b.callback_data or "" for row in state.buttons for b in row]
                    if state.at >= answered and (shown_version(data, "hand") or -1) > version:
                        return state.at
            return None

        at = await wait_for(shown, 60)
        if at is not None:
            self.now_minute.lags.append(at - answered)

    async def play_match(self, pair: Pair) -> None:
        confirms, seen = 0, set()
        lags: list[asyncio.Task[None]] = []
        while confirms < self.plays and time.perf_counter() < self.end:
            found = await wait_for(lambda: self.live_hand(pair), 30)
            if found is None:
                break
            user, hand, card = found
            version = shown_version([card]) or 0
            if version in seen:
                await asyncio.sleep(0.05)
                continue
            await asyncio.sleep(self.rng.uniform(2.0, 6.0) * self.pace)
            confirm = await press_card(self.server, user, hand, card)
            if confirm is None:
                continue
            await asyncio.sleep(self.rng.uniform(0.5, 1.0) * self.pace)
            pressed = time.perf_counter()
            answer = await confirmed(self.server, user, hand, confirm)
            if answer is None:
                continue  # refused (a stale press): look again
            self.now_minute.answers.append(answer.at - pressed)
            seen.add(version)
            confirms += 1
            lags.append(asyncio.get_running_loop().create_task(self.group_lag(pair, answer.at, version)))
        if time.perf_counter() >= self.end:  # what is still measured would be after the last line
            for lag in lags:
                lag.cancel()
        await asyncio.gather(*lags, return_exceptions=True)

    async def turn_over(self, pair: Pair) -> None:
        """Match after match until the time is up: play, resign, open the next."""
        await asyncio.sleep(self.rng.uniform(0, 5) * self.pace)
        while time.perf_counter() < self.end:
            if not await self.open_match(pair):
                await asyncio.sleep(self.within(1.0))
                continue
            await self.play_match(pair)
            self.front.send(pair.people[0], pair.group, "/resign")
            if await wait_for(lambda: self.live_hand(pair) is None, 30):
                pair.finished += 1


def resident_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for process {pid}")


def slope(points: list[tuple[float, float]]) -> float:
    """The least-squares slope of (x, y) points."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    return sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0


#: ``--small-caps``: what a process keeps stops at sizes a few minutes fill (``bots.memory``),
#: so that what grows after the warm-up is what no cap holds.
SMALL_CAPS = {"BASRA_KEEP_TABLE_REFS": "16", "BASRA_KEEP_WRITE_STAMPS": "300",
              "BASRA_KEEP_MESSAGE_DIGESTS": "300", "BASRA_KEEP_RETIRED_HANDS": "300",
              "BASRA_SQLITE_CACHE_KB": "256"}


def probe_settings(probe: Path | None, trace: int) -> dict[str, str]:
    """The environment that loads ``bench/probe/sitecustomize.py`` into the bot process."""
    if probe is None:
        return {}
    probe.mkdir(parents=True, exist_ok=True)
    path = os.pathsep.join(p for p in (str(_HERE / "probe"), str(_HERE.parent),
                                       os.environ.get("PYTHONPATH", "")) if p)
    settings = {"PYTHONPATH": path, "BASRA_SOAK_PROBE": str(probe)}
    if trace:
        settings["PYTHONTRACEMALLOC"] = str(trace)
    return settings


def probe_lines(probe: Path) -> int:
    """The whole lines the bot process wrote to ``<probe>/stats.jsonl`` so far."""
    stats = probe / "stats.jsonl"
    return stats.read_text().count("\n") if stats.exists() else 0


def probe_report(probe: Path, top: int = 30) -> None:
    """What grew between the warm-up's end and the last line, by type (and by traceback, with
    tracemalloc's snapshots)."""
    import json
    import tracemalloc

    lines = [json.loads(text) for text in (probe / "stats.jsonl").read_text().splitlines()]
    if len(lines) < 2:
        return
    marked = [line for line in lines if line.get("mark")]  # the warm-up's end, the last
    first, last = (marked[0], marked[-1]) if len(marked) >= 2 else (lines[0], lines[-1])
    out: list[str] = []
    for key in ("rss", "rss_trimmed", "objects", "traced", "heap_arena", "heap_mmap", "heap_used",
                "heap_free", "sqlite_used"):
        if first.get(key) is not None and last.get(key) is not None:
            out.append(f"{key:>12}: {first[key]:>12,} → {last[key]:>12,}  ({last[key] - first[key]:+,})")
    grown = {name: last["types"].get(name, 0) - count for name, count in first["types"].items()}
    grown.update({name: count for name, count in last["types"].items() if name not in first["types"]})
    out.append("objects by type, growth:")
    out += [f"  {n:+8}  {name}" for name, n in sorted(grown.items(), key=lambda kv: -kv[1])[:top] if n]
    pickles = sorted(probe.glob("snapshot-*.pickle"), key=lambda p: int(p.stem.split("-")[1]))
    if len(pickles) >= 2:
        before = tracemalloc.Snapshot.load(str(pickles[0]))
        after = tracemalloc.Snapshot.load(str(pickles[-1]))
        for group in ("lineno", "traceback"):
            out.append(f"tracemalloc growth by {group}:")
            for stat in after.compare_to(before, group)[:top]:
                out.append(f"  {stat.size_diff / 1024:+9.1f} KB {stat.count_diff:+7} blocks")
                frames = stat.traceback.format(limit=1 if group == "lineno" else 12, most_recent_first=True)
                out += ["      " + f.strip() for f in frames if f.strip()]
    (probe / "report.txt").write_text("\n".join(out) + "\n")
    print(f"probe: {probe / 'report.txt'}")


async def run(minutes: float, matches: int, plays: int, warmup: float, database: str | None,
              folder: Path, probe: Path | None = None, trace: int = 0, small_caps: bool = False,
              every: float = 60.0, pace: float = 1.0) -> None:
    server = FakeTelegram()
    front = HttpFront(server)
    url = await front.start()
    pairs = []
    for n in range(matches):
        people = [server.add_user(f"Amr{n}", language_code="ar"), server.add_user(f"Bea{n}")]
        for person in people:
            server.private_chat(person)
        pairs.append(Pair(server.add_group(f"Cafe {n}", people), people))
    async with new_database(database, folder) as where:
        bot = Process(url, server.token, folder / "soak.sqlite3", BASRA_DATABASE=where,
                      BASRA_LOG_LEVEL="WARNING", BASRA_COMPUTER_PROCESSES="0", BASRA_LANGUAGE="en",
                      **probe_settings(probe, trace), **(SMALL_CAPS if small_caps else {}))
        try:
            if not await wait_for(lambda: any(c.method == "getUpdates" for c in server.api_calls), 60):
                raise SystemExit(f"the bot did not come up: {bot.stderr()[-2000:]}")
            soak = Soak(server, front, plays, time.perf_counter() + minutes * 60, seed=matches,
                        every=every, pace=pace)
            print(f"bot process {bot.popen.pid}: {matches} 1-v-1s turning over, {plays} confirms a match, "
                  f"people thinking {2 * pace:g}-{6 * pace:g} s; {minutes:g} minutes, warm-up {warmup:g}"
                  f"{'; small caps' if small_caps else ''}", flush=True)
            print("minute  RSS MB  finished  press-answer p99  group lag p99", flush=True)
            playing = asyncio.gather(*(soak.turn_over(p) for p in pairs))
            probed = probe_lines(probe) if probe is not None else 0  # a folder used before has some
            rss: list[tuple[float, float]] = []
            lines = max(1, int(minutes * 60 / every + 1e-9))
            first_after = next((n for n in range(1, lines + 1) if n * every / 60 >= warmup), lines)
            for n in range(1, lines + 1):
                await asyncio.sleep(max(0.0, soak.start + n * every - time.perf_counter()))
                figures = soak.minutes[n - 1] if len(soak.minutes) >= n else Minute()
                if probe is not None:
                    bot.popen.send_signal(signal.SIGUSR2 if n in (first_after, lines) else signal.SIGUSR1)
                mb = resident_mb(bot.popen.pid)
                minute = round(n * every / 60, 2)
                rss.append((minute, mb))
                finished = sum(p.finished for p in pairs)
                answer = f"{percentile(figures.answers, 0.99):.2f} s" if figures.answers else "-"
                lag = f"{percentile(figures.lags, 0.99):.2f} s" if figures.lags else "-"
                print(f"{minute:>6g}  {mb:6.1f}  {finished:>8}  {answer:>16}  {lag:>13}", flush=True)
            await playing
            finished = sum(p.finished for p in pairs)
            after = [(m, mb) for m, mb in rss if m > warmup]
            if len(after) >= 2:
                per_hour = slope(after) * 60
                matches_an_hour = finished / minutes * 60
                per_match = per_hour * 1024 / matches_an_hour if matches_an_hour else float("nan")
                print(f"after warm-up: {per_hour:+.1f} MB an hour ({per_match:+.1f} KB per finished match, "
                      f"{finished} finished in all); RSS {after[0][1]:.1f} → {after[-1][1]:.1f} MB")
            else:
                print(f"too short for a slope after the warm-up: {finished} finished")
            if probe is not None:
                # The last line (and snapshot) is written: a whole line of stats.jsonl for each of ours.
                await wait_for(lambda: probe_lines(probe) >= probed + lines, 60)
                probe_report(probe)
            code, stderr = await bot.stop()
            if code != 0 or "Traceback" in stderr:
                print(f"the bot process ended with {code}: {stderr[-1500:]}")
        finally:
            await bot.stop()
            await front.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=60.0)
    parser.add_argument("--matches", type=int, default=10, help="1-v-1s side by side")
    parser.add_argument("--plays", type=int, default=60, help="confirms a match before it is resigned")
    parser.add_argument("--warmup", type=float, default=None, help="minutes left out of the slope")
    parser.add_argument("--database", default=os.environ.get("BASRA_BENCH_DATABASE"),
                        help="a PostgreSQL URL (a new schema is made in it); default a new SQLite file")
    parser.add_argument("--probe", type=Path, default=None,
                        help="a folder: the bot process writes what it holds there each minute "
                             "(bench/probe/sitecustomize.py), and a report of what grew")
    parser.add_argument("--trace", type=int, default=0,
                        help="with --probe: run tracemalloc in the bot, keeping this many frames")
    parser.add_argument("--every", type=float, default=60.0, help="seconds between two lines")
    parser.add_argument("--pace", type=float, default=1.0, help="the people's thinking times, scaled")
    parser.add_argument("--small-caps", action="store_true",
                        help="what the bot keeps stops at small sizes (filled in the warm-up)")
    args = parser.parse_args()
    warmup = args.warmup if args.warmup is not None else min(10.0, args.minutes // 3)
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(args.minutes, args.matches, args.plays, warmup, args.database, Path(folder),
                        args.probe.resolve() if args.probe else None, args.trace, args.small_caps,
                        args.every, args.pace))


if __name__ == "__main__":
    main()
