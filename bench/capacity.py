"""How many human-paced matches one bot token carries: real bot processes, the fake Bot API.

    python bench/capacity.py [--processes 1] [--matches 20,30,40,50] [--plays 12]
    python bench/capacity.py --processes 3 --database postgresql:///basra_bench
    python bench/capacity.py --matches 20 --flood 30

``--processes`` real ``python -m bots.telegram`` processes run in webhook mode behind a
proxy that tries the next one when one refuses the connection (as nginx does), on one
database: a new SQLite file for one process, a new schema of ``--database`` (a
PostgreSQL URL, required for more than one) for several. The fake Bot API, served over
HTTP, refuses with 429 whatever breaks Telegram's limits: 20 writes a minute in a
group, about one a second in a private chat, 30 a second in all.

Each match is a 1-v-1 between two people in a group of its own. A person thinks 2 to
6 s before pressing a card, looks at its preview for 0.5 to 1 s, and confirms; the
matches start within the first 10 s. Printed for each number of matches:

- group lag p50/p99: a confirm answered (the play is committed then) → the group's
  table shows that play or a later state;
- turn p99: a confirm answered → the next player's hand shows their turn (a new message,
  or the hand they just played drawn again);
- fairness: each table's median group lag, the median of them and the slowest (the
  slowest within 2× the median: no table starves while others stay live);
- writes per confirm (sends and edits to chats; the previews drawn in a hand apart,
  printed beside: a card with one outcome is previewed in the press's answer, which is no
  write) and writes per second in all; 429s;
- the leading process's CPU per write (milliseconds of CPU per chat write it made), and
  the share of a core the bench itself used (the fake Bot API and the people: near
  100% and it, not the bot, would set the pace).

``--flood N``: a third person in the first match's group sends ``/help`` N times in
10 s, 20 s into the play (as someone impatient would), and that table's group lag p99
is printed before, during (the flood and 10 s after it) and after.

Last, the largest number of matches whose group lag p99 stays within 4 s, beside
Telegram's own bound for such matches: 30 writes a second ÷ the writes a second one
match needs. A match needs its writes per confirm (previews included) times the
confirms a second its people make at their own pace: one confirm every so many seconds
as they think and look, the time they waited for the bot left out (the match's two
people take turns, so a match confirms once per such time). That bound does not move
with the load. Each run also prints the bound at the pace it had: near the token's limit
people wait for their turns, confirm less often and that bound grows; a number of
matches divided by it is only the share of the token's 30 writes a second the run used.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# bench/telegram.py is named like the python-telegram-bot package: keep its folder off the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from storage import is_postgres_url  # noqa: E402
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser  # noqa: E402
from tests.fakes.telegram_http import HttpFront  # noqa: E402
from tests.fakes.telegram_push import WebhookPush  # noqa: E402
from tests.storage.backends import in_schema  # noqa: E402
from tests.telegram.live import percentile, shown_version  # noqa: E402
from tests.telegram.test_process import Process, data_for  # noqa: E402
from tests.telegram.test_webhook import free_port  # noqa: E402

SECRET = "capacity-bench"
HOOK = "https://bot.example.org/tg/hook"
WRITES = ("sendMessage", "editMessageText", "editMessageReplyMarkup", "sendDocument")
TOKEN_WRITES_A_SECOND = 30.0
GROUP_LAG_TARGET = 4.0


@dataclass
class Match:
    group: FakeChat
    people: list[FakeUser]
    #: (answer time, version pressed at, who played) of each confirmed play.
    confirms: list[tuple[float, int, FakeUser]] = field(default_factory=list)
    #: Previews drawn in the hand (a card with a choice): one edit each.
    previews: int = 0
    #: The seconds the person took themselves for each confirmed play (thinking and looking
    #: at the preview), without the time they waited for the bot.
    own: list[float] = field(default_factory=list)


async def wait_for(check: Any, timeout: float) -> Any:
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        found = check()
        if found:
            return found
        await asyncio.sleep(0.02)
    return None


async def press_card(server: FakeTelegram, user: FakeUser, hand: FakeMessage, card: str) -> str | None:
    """Press ``card`` and read its preview as a person does: the button that confirms it, the
    same card again when the press's answer told the preview (a card with one outcome), or
    Play once the preview is drawn in the hand (a card with a choice); None if neither came
    (a refused press)."""
    update = server.user_presses(user, hand, card)
    server.queue_update(update)
    assert update.callback_query is not None
    query = server.callback_queries[update.callback_query.id]

    def confirm() -> str | None:
        answer = query.answer
        if answer is not None and answer.text and not answer.show_alert:
            return card
        return data_for(hand, "play")

    found: str | None = await wait_for(confirm, 10)
    return found


async def confirmed(server: FakeTelegram, user: FakeUser, hand: FakeMessage, button: str) -> Any:
    """Press the confirm ``button``: the press's answer, or None when it was refused (an
    alert: a stale press) or never came."""
    update = server.user_presses(user, hand, button)
    server.queue_update(update)
    assert update.callback_query is not None
    query = server.callback_queries[update.callback_query.id]
    answered = await wait_for(lambda: query.answer, 10)
    return None if answered is None or answered.show_alert else answered


def live_hand(server: FakeTelegram, match: Match) -> tuple[FakeUser, FakeMessage, str] | None:
    """The newest hand message with card buttons, whoever's: the player to move's."""
    best: tuple[float, FakeUser, FakeMessage, str] | None = None
    for user in match.people:
        for message in server.messages(server.private_chat(user), bot_only=True):
            card = data_for(message, "card")
            if card is not None and (best is None or message.versions[0].at > best[0]):
                best = (message.versions[0].at, user, message, card)
    return None if best is None else best[1:]


async def play(front: HttpFront, server: FakeTelegram, match: Match, plays: int, rng: random.Random,
               give_up: float) -> None:
    await asyncio.sleep(rng.uniform(0, 10))
    seen: set[int] = set()
    while len(match.confirms) < plays and time.perf_counter() < give_up:
        found = await wait_for(lambda: live_hand(server, match), 30)
        if found is None:
            return
        user, hand, card = found
        version = shown_version([card]) or 0
        if version in seen:  # this turn was played: wait for the next one
            await asyncio.sleep(0.05)
            continue
        think = rng.uniform(2.0, 6.0)
        await asyncio.sleep(think)
        confirm = await press_card(server, user, hand, card)
        if confirm is None:
            continue
        match.previews += confirm != card
        look = rng.uniform(0.5, 1.0)
        await asyncio.sleep(look)
        answered = await confirmed(server, user, hand, confirm)
        if answered is None:
            continue  # refused (a stale press): look again
        seen.add(version)
        match.confirms.append((answered.at, version, user))
        match.own.append(think + look)


def group_lags(server: FakeTelegram, match: Match) -> list[float]:
    return [lag for _, lag in timed_group_lags(server, match)]


def timed_group_lags(server: FakeTelegram, match: Match) -> list[tuple[float, float]]:
    """(confirm answered, its group lag) of each confirm the group showed."""
    shown = sorted(
        (version.at, v)
        for message in server.messages(match.group, bot_only=True)
        for version in message.versions
        if (v := shown_version(_data(version), "hand")) is not None
    )
    lags = []
    for at, pressed, _ in match.confirms:
        when = next((t for t, v in shown if v > pressed and t >= at), None)
        if when is not None:
            lags.append((at, when - at))
    return lags


def turn_lags(server: FakeTelegram, match: Match) -> list[float]:
    """For each confirm, how soon the other's hand showed their turn: a new message, or the
    hand they just played drawn again with it (a quick answer, ``bots.telegram.hands``)."""
    lags = []
    for at, pressed, user in match.confirms:
        other = next(u for u in match.people if u is not user)
        shown = [v.at for m in server.messages(server.private_chat(other), bot_only=True) for v in m.versions
                 if v.at >= at and (shown_version(_data(v), "card") or -1) > pressed]
        if shown:
            lags.append(min(shown) - at)
    return lags


def _data(version: Any) -> list[str]:
    return [b.callback_data or "" for row in version.buttons for b in row]


def cpu_seconds(pid: int) -> float:
    """User and system CPU of a running process, from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@contextlib.asynccontextmanager
async def new_database(database: str | None, folder: Path) -> AsyncIterator[str]:
    """A fresh SQLite file, or a fresh schema of the PostgreSQL ``database``."""
    if database is None:
        yield str(folder / f"capacity-{uuid.uuid4().hex[:8]}.sqlite3")
        return
    import asyncpg

    schema = f"bench_{uuid.uuid4().hex[:10]}"
    conn = await asyncpg.connect(database)
    await conn.execute(f'CREATE SCHEMA "{schema}"')
    await conn.close()
    try:
        yield in_schema(database, schema)
    finally:
        conn = await asyncpg.connect(database)
        await conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
        await conn.close()


async def flood(front: HttpFront, server: FakeTelegram, match: Match, times: int) -> tuple[float, float]:
    """``times`` /help from a third person in ``match``'s group over 10 s, 20 s in; when it ran."""
    await asyncio.sleep(20.0)
    pest = server.add_user("Pest")
    server.join(pest, match.group)
    began = time.perf_counter()
    for _ in range(times):
        front.send(pest, match.group, "/help")
        await asyncio.sleep(10.0 / times)
    return began, time.perf_counter()


async def run(count: int, plays: int, processes: int, database: str | None, folder: Path,
              flooding: int = 0) -> dict[str, Any]:
    server = FakeTelegram()
    front = HttpFront(server)
    url = await front.start()
    rng = random.Random(count)
    matches = []
    for n in range(count):
        people = [server.add_user(f"Amr{n}", language_code="ar"), server.add_user(f"Bea{n}")]
        for person in people:
            server.private_chat(person)  # both started the bot
        matches.append(Match(server.add_group(f"Cafe {n}", people), people))
    async with new_database(database, folder) as where:
        ports = [free_port() for _ in range(processes)]
        workers = [
            Process(url, server.token, folder / "unused", BASRA_DATABASE=where, TELEGRAM_WEBHOOK_URL=HOOK,
                    TELEGRAM_WEBHOOK_LISTEN="127.0.0.1", TELEGRAM_WEBHOOK_PORT=str(port),
                    TELEGRAM_WEBHOOK_SECRET=SECRET, BASRA_LOG_LEVEL="WARNING", BASRA_COMPUTER_PROCESSES="0",
                    # Opening many tables takes a while: no turn may run out meanwhile.
                    BASRA_TURN_SECONDS="3600")
            for port in ports
        ]
        push = WebhookPush(server, [f"http://127.0.0.1:{port}/tg/hook" for port in ports], SECRET)
        try:
            if not await wait_for(lambda: server.webhook_url == HOOK, 60):
                raise SystemExit(f"no bot process came up: {workers[0].stderr()[-2000:]}")
            await push.start()
            for match in matches:
                alice, badr = match.people
                front.send(alice, match.group, "/newgame")
                lobby = await wait_for(lambda m=match: next(
                    (x for x in server.messages(m.group, bot_only=True) if data_for(x, "join")), None), 30)
                front.press(badr, lobby, data_for(lobby, "join") or "")
                await wait_for(lambda x=lobby: data_for(x, "start"), 30)
                front.press(alice, lobby, data_for(lobby, "start") or "")
            if not await wait_for(lambda: all(live_hand(server, m) for m in matches), 120):
                started_ = sum(1 for m in matches if live_hand(server, m))
                print(f"only {started_} of {count} matches started: {workers[0].stderr()[-1500:]}")
            await asyncio.sleep(2.0)
            leader = next(w for w, port in zip(workers, ports, strict=True)
                          if push.delivered[ports.index(port)] > 0)
            writes_before = sum(1 for c in server.api_calls if c.method in WRITES)
            refused_before = server.too_many_requests()
            cpu_before = cpu_seconds(leader.popen.pid)
            own_before = time.process_time()
            started = time.perf_counter()
            give_up = started + plays * 20 + 60
            pest = asyncio.ensure_future(flood(front, server, matches[0], flooding)) if flooding else None
            await asyncio.gather(*(play(front, server, m, plays, rng, give_up) for m in matches))
            flooded = await pest if pest is not None else None
            elapsed = time.perf_counter() - started
            await asyncio.sleep(5.0)  # the last refreshes go out
            writes = [c for c in server.api_calls if c.method in WRITES][writes_before:]
            cpu = cpu_seconds(leader.popen.pid) - cpu_before
            own = time.process_time() - own_before
        finally:
            await push.stop()
            for worker in workers:
                await worker.stop()
            await front.stop()
    confirms = sum(len(m.confirms) for m in matches)
    previews = sum(m.previews for m in matches)
    return {
        "matches": count,
        "elapsed": elapsed,
        "confirms": confirms,
        "group": [lag for m in matches for lag in group_lags(server, m)],
        "tables": [statistics.median(lags) for m in matches if (lags := group_lags(server, m))],
        "turns": [lag for m in matches for lag in turn_lags(server, m)],
        "writes": len(writes),
        "previews": previews,
        "own": [seconds for m in matches for seconds in m.own],
        "refused": server.too_many_requests() - refused_before,
        "refused_by": dict(server.flood.refused) if server.flood is not None else {},
        "cpu_per_write": cpu / max(1, len(writes)),
        "own_cpu": own / (elapsed + 5.0),
        "flooded": None if flooded is None else flooded_lags(server, matches[0], *flooded),
    }


def flooded_lags(server: FakeTelegram, match: Match, began: float, ended: float) -> dict[str, list[float]]:
    """The flooded table's group lags before, during (and 10 s after) and after the flood."""
    parts: dict[str, list[float]] = {"before": [], "during": [], "after": []}
    for at, lag in timed_group_lags(server, match):
        parts["before" if at < began else "during" if at <= ended + 10.0 else "after"].append(lag)
    return parts


def report(result: dict[str, Any]) -> tuple[float, float]:
    """Print one run; returns its group lag p99 and Telegram's bound for its matches at the
    people's own pace."""
    confirms = max(1, result["confirms"])
    group, turns = result["group"], result["turns"]
    per_confirm = (result["writes"] - result["previews"]) / confirms
    all_writes = result["writes"] / confirms
    confirms_a_second = result["confirms"] / result["elapsed"] / result["matches"]
    if not result["confirms"]:
        print(f"{result['matches']:>4} matches: no confirm went through")
        return float("inf"), float("nan")
    bound = TOKEN_WRITES_A_SECOND / (all_writes * confirms_a_second)
    own_pace = statistics.mean(result["own"]) if result["own"] else float("nan")
    needed = TOKEN_WRITES_A_SECOND / (all_writes / own_pace)
    p99 = percentile(group, 0.99) if group else float("inf")
    where = ", ".join(f"{n} {scope}" for scope, n in sorted(result["refused_by"].items()))
    print(f"{result['matches']:>4} matches: {result['confirms']} confirms in {result['elapsed']:.0f} s, "
          f"{result['refused']} × 429" + (f" ({where})" if where else ""))
    print(f"      group lag p50 {percentile(group, 0.5):.2f} s, p99 {p99:.2f} s;"
          f" turn p99 {percentile(turns, 0.99):.2f} s" if group and turns else "      no lags measured")
    tables = sorted(result["tables"])
    if tables:  # fairness: how the worst-served table's typical lag compares with the typical table's
        middle = statistics.median(tables)
        ratio = f"{tables[-1] / middle:.1f}×" if middle > 0 else "n/a"
        print(f"      tables' median group lag: median {middle:.2f} s, slowest {tables[-1]:.2f} s ({ratio})")
    print(f"      writes per confirm {per_confirm:.2f} (+ {result['previews'] / confirms:.2f} previews), "
          f"{result['writes'] / result['elapsed']:.1f} writes/s in all; "
          f"leader CPU {result['cpu_per_write'] * 1000:.2f} ms per write")
    print(f"      Telegram's bound: {needed:.0f} matches at the people's own pace (a confirm every "
          f"{own_pace:.2f} s), {bound:.0f} at this run's pace")
    print(f"      this bench (the fake Bot API and the people) used {result['own_cpu']:.0%} of a core")
    if result["flooded"] is not None:
        print("      the flooded table's group lag p99: " + "; ".join(
            f"{part} {percentile(lags, 0.99):.2f} s ({len(lags)} plays)" if lags else f"{part}: no plays"
            for part, lags in result["flooded"].items()))
    return p99, needed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--matches", default="20,30,40,50", help="numbers of matches to try, in order")
    parser.add_argument("--plays", type=int, default=12, help="confirms per match")
    parser.add_argument("--flood", type=int, default=0, help="/help sent this many times in a group")
    parser.add_argument("--database", default=os.environ.get("BASRA_BENCH_DATABASE"),
                        help="a PostgreSQL URL (a new schema is made in it for each run)")
    args = parser.parse_args()
    if args.processes > 1 and not (args.database and is_postgres_url(args.database)):
        parser.error("several processes need --database postgresql://...")
    if args.database and not is_postgres_url(args.database):
        parser.error("--database takes a PostgreSQL URL (without it, each run has a new SQLite file)")
    print(f"{args.processes} bot process(es), {args.plays} confirms a match, people thinking 2-6 s")
    carried, bounds = 0, []
    with tempfile.TemporaryDirectory() as folder:
        for count in (int(n) for n in args.matches.split(",")):
            p99, bound = report(asyncio.run(run(count, args.plays, args.processes, args.database,
                                                Path(folder), args.flood)))
            bounds.append(bound)
            if p99 > GROUP_LAG_TARGET:
                break
            carried = count
    bound = statistics.median(b for b in bounds if b == b) if any(b == b for b in bounds) else float("nan")
    share = f" ({carried / bound:.0%} of it)" if carried and bound == bound else ""
    print(f"largest number of matches with group lag p99 <= {GROUP_LAG_TARGET:g} s: "
          f"{carried or 'none tried'}; "
          f"Telegram's bound at the people's own pace: {bound:.0f} matches{share}")


if __name__ == "__main__":
    main()
