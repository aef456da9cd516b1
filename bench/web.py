"""The web table's figures: the page's weight, its first render, and a touch to the lit floor.

    python bench/web.py [--loads 10] [--touches 40]

The Telegram bot runs in this process against the fake Bot API with its web table
on loopback; Debian's chromium (Playwright, ``executable_path``) opens the seat's
Mini App at a phone's size. It prints:

- the bytes the page loads from the bot (HTML, script, style, cards; nothing else:
  Telegram's own script is not counted, and blocked here),
- the time from asking for the page to the first table drawn from the first frame
  (a login and a WebSocket included), median of ``--loads`` fresh pages,
- the time from a touch on a card to the floor it would take lit, median and 95th
  percentile of ``--touches``: measured from outside the page (the click sent,
  then the lit floor seen) and inside it (the touch's handler to the drawn page).
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# bench/telegram.py is named like the python-telegram-bot package: keep this folder off the path.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

import aiohttp  # noqa: E402

from bots.service import ServiceConfig  # noqa: E402
from tests.fakes import FakeTelegram  # noqa: E402
from tests.telegram.world import start_match  # noqa: E402
from tests.web.web_world import PHONE, WebWorld, telegram_script  # noqa: E402

CONFIG = ServiceConfig(computer_delay=0.0, warning_seconds=0, heartbeat_seconds=3600.0, language="en")
ASSETS = ("/play", "/static/table.css", "/static/cards.js", "/static/page.js", "/static/table.js")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def weight(origin: str) -> int:
    total = 0
    async with aiohttp.ClientSession() as http:
        for path in ASSETS:
            async with http.get(origin + path) as answer:
                total += len(await answer.read())
    return total


async def main(loads: int, touches: int) -> None:
    chromium = shutil.which("chromium")
    if chromium is None:
        sys.exit("bench/web.py: needs Debian's chromium (apt-get install chromium)")
    from playwright.async_api import async_playwright

    folder = Path(tempfile.mkdtemp())
    server = FakeTelegram(speedup=60.0)
    alice, badr = server.add_user("Alice", language_code="en"), server.add_user("Badr", language_code="ar")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with WebWorld(server, folder / "basra.sqlite3", config=CONFIG) as world, async_playwright() as pw:
        await world.basra.service.set_rules(f"tg:{group.id}", target=1)
        await start_match(world, group, alice, badr)
        await world.basra.idle()
        url = world.local(world.mini_app(alice))
        browser = await pw.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        bytes_ = await weight(world.origin)
        firsts: list[float] = []
        page: Any = None
        for _ in range(loads):
            if page is not None:
                await page.context.close()
            context = await browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True,
                                                bypass_csp=True)
            await context.route("https://telegram.org/**", lambda route: route.abort())
            await context.add_init_script(telegram_script(world.init_data(alice)))
            page = await context.new_page()
            started = time.perf_counter()
            await page.goto(url)
            await page.wait_for_selector("#table[data-version]")
            firsts.append((time.perf_counter() - started) * 1000)
        outside: list[float] = []
        cards = ["6C", "10C", "KS", "9D"]  # the fixed first hand (web_world.HANDS)
        for i in range(touches):
            card = cards[i % len(cards)]
            started = time.perf_counter()
            await page.click(f'#hand .card[data-card="{card}"]')
            await page.wait_for_selector(f'#hand .card.up[data-card="{card}"]')
            outside.append((time.perf_counter() - started) * 1000)
        inside = [float(v) for v in await page.evaluate("window.basraTiming.lit")]
        await browser.close()
    print(f"page weight: {bytes_} bytes ({', '.join(ASSETS)}; uncompressed)")
    print(f"first render: median {statistics.median(firsts):.0f} ms, p95 {percentile(firsts, .95):.0f} ms "
          f"over {loads} fresh pages (login and WebSocket included)")
    print(f"touch to lit floor: median {statistics.median(outside):.1f} ms, "
          f"p95 {percentile(outside, .95):.1f} ms (click sent to lit floor seen, {touches} touches); "
          f"in the page median {statistics.median(inside):.2f} ms, p95 {percentile(inside, .95):.2f} ms")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loads", type=int, default=10)
    parser.add_argument("--touches", type=int, default=40)
    options = parser.parse_args()
    asyncio.run(main(options.loads, options.touches))
