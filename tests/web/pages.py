"""A table page in the browser, read and touched as a player does: by what it shows."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from tests.web.web_world import PHONE, telegram_script


class TablePage:
    """One browser page (a phone-sized context of its own) and every frame its socket got."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.frames: list[dict[str, Any]] = []
        page.on("websocket", self._socket)

    def _socket(self, socket: Any) -> None:
        socket.on("framereceived", lambda payload: self.frames.append(json.loads(payload)))

    @classmethod
    async def open(cls, browser: Any, url: str, *, init_data: str | None = None,
                   locale: str = "en-US") -> TablePage:
        context = await browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True,
                                            has_touch=True, locale=locale)
        # No internet here: Telegram's script is not fetched, and stands in through initData.
        await context.route("https://telegram.org/**", lambda route: route.abort())
        if init_data is not None:
            await context.add_init_script(telegram_script(init_data))
        page = cls(await context.new_page())
        await page.page.goto(url)
        await page.page.wait_for_selector("#table[data-version]")
        return page

    async def close(self) -> None:
        await self.page.context.close()

    # -- what it shows ---------------------------------------------------------------------

    async def attribute(self, name: str) -> str:
        return str(await self.page.get_attribute("#table", f"data-{name}") or "")

    async def version(self) -> int:
        return int(await self.attribute("version") or -1)

    async def your_turn(self) -> bool:
        return await self.attribute("your-turn") == "1"

    async def running(self) -> bool:
        return await self.attribute("running") == "1"

    async def hand(self) -> list[str]:
        return [str(c) for c in await self.page.eval_on_selector_all(
            "#hand .card", "nodes => nodes.map(n => n.dataset.card)")]

    async def floor(self) -> list[str]:
        return [str(c) for c in await self.page.eval_on_selector_all(
            "#floor .card", "nodes => nodes.map(n => n.dataset.card)")]

    async def lit(self) -> list[int]:
        return [int(p) for p in await self.page.eval_on_selector_all(
            "#floor .card.lit", "nodes => nodes.map(n => n.dataset.pos)")]

    async def lifted(self) -> str:
        return str(await self.page.eval_on_selector_all(
            "#hand .card.up", "nodes => nodes.map(n => n.dataset.card).join(' ')"))

    async def text(self, selector: str) -> str:
        return str(await self.page.inner_text(selector))

    async def floor_xs(self) -> list[float]:
        """Where each floor card sits on screen, left to right as drawn."""
        return [float(x) for x in await self.page.eval_on_selector_all(
            "#floor .card", "nodes => nodes.map(n => n.getBoundingClientRect().left)")]

    # -- touches ---------------------------------------------------------------------------

    async def touch_card(self, card: str) -> None:
        await self.page.click(f'#hand .card[data-card="{card}"]')

    async def touch_floor(self, position: int) -> None:
        await self.page.click(f'#floor .card[data-pos="{position}"]')

    async def choose(self, plan: int) -> None:
        await self.page.click(f'#preview button[data-plan="{plan}"]')

    async def dismiss_result(self) -> None:
        if await self.page.is_visible("#result"):
            await self.page.click("#result-ok")

    async def moved_past(self, version: int, timeout: float = 10.0) -> None:
        """Until the page shows a state after ``version`` (read from outside the page: its
        Content-Security-Policy lets no test script be evaluated in it)."""
        await self.until(lambda: self.version(), lambda v: v > version, timeout)

    async def turn_at(self, version: int, timeout: float = 10.0) -> None:
        """Until the page shows that it is its turn, at ``version``."""
        async def shown() -> tuple[int, bool]:
            return await self.version(), await self.your_turn()

        await self.until(shown, lambda s: s == (version, True), timeout)

    async def until(self, read: Any, done: Any, timeout: float) -> None:
        value = None
        for _ in range(int(timeout / 0.01)):
            value = await read()
            if done(value):
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"the page still shows {value!r}")

    async def shot(self, folder: Path, name: str) -> Path:
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{name}.png"
        await self.page.screenshot(path=str(path))
        return path
