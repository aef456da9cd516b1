"""A whole match played by touching the table page in a real browser, at a phone's size:
Alice in English, Badr in Arabic, each in the Mini App their hand message opens.

A touch lifts a card and lights what the service's preview says it takes; a card that
takes nothing says so before it is played; a card with two plans offers both, chosen by
number or by touching the floor; a second touch plays. The floor keeps its order in
both languages. No frame either page receives holds the other's card. Screenshots of
both languages are written to ``tests/web/artifacts/``.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bots.i18n import card_face
from bots.service import HandUpdated, Notice
from tests.fakes import FakeTelegram
from tests.telegram.world import start_match
from tests.web.pages import TablePage
from tests.web.web_world import ARTIFACTS, WebWorld

ARABIC = re.compile(r"[\u0600-\u06FF]")
#: Score items named after a card in a result ("2♣ 2", "10♦ 3") are not cards anyone holds.
POINT_ITEMS = re.compile("\u2066?(?:2♣|10♦)\u2069? \\d+(?![♣♦♥♠\\d])")


class Ledger:
    """Every person's hand at each version, as the service's notices told the web table."""

    def __init__(self, world: WebWorld) -> None:
        self.hands: dict[int, dict[str, tuple[str, ...]]] = {}
        hub = world.web.hub
        original = hub.notify

        def notify(notices: Sequence[Notice]) -> None:
            for notice in notices:
                if isinstance(notice, HandUpdated):
                    self.hands.setdefault(notice.hand.version, {})[notice.player_id] = notice.hand.hand
            original(notices)

        hub.notify = notify  # type: ignore[method-assign]

    def assert_private(self, frames: list[dict[str, Any]], player_id: str) -> int:
        """No frame to ``player_id`` names a card another person held at its version."""
        checked = 0
        for frame in frames:
            if frame.get("type") != "state" or frame["version"] not in self.hands:
                continue
            others = {c for p, hand in self.hands[frame["version"]].items() if p != player_id for c in hand}
            shown = dict(frame)
            shown.pop("result", None)
            text = POINT_ITEMS.sub("", json.dumps(shown, ensure_ascii=False))
            for card in others:
                assert f'"{card}"' not in text, f"{card} of another hand in a frame to {player_id}"
                assert card_face(card) not in text, f"{card_face(card)} in a frame to {player_id}"
            checked += 1
        return checked


async def until(check: Any, timeout: float = 10.0) -> Any:
    for _ in range(int(timeout / 0.02)):
        value = check()
        if value:
            return value
        await asyncio.sleep(0.02)
    raise AssertionError("timed out")


async def test_a_whole_match_is_played_by_touch_in_english_and_arabic(
    server: FakeTelegram, database: Path, browser: Any
) -> None:
    alice, badr = server.add_user("Alice", language_code="en"), server.add_user("Badr", language_code="ar")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with WebWorld(server, database) as world:
        ledger = Ledger(world)
        service = world.basra.service
        await service.set_rules(f"tg:{group.id}", target=1)  # one round decides it
        table = await start_match(world, group, alice, badr)
        ids = {0: f"tg:{alice.id}", 1: f"tg:{badr.id}"}
        assert table.seats[0].player_id == ids[0] and table.to_move == 0
        url = world.mini_app(alice)
        assert url == f"https://basra.test/play?t={table.table_id}"
        english = await TablePage.open(browser, world.local(url), init_data=world.init_data(alice))
        assert await english.hand() == ["6C", "10C", "KS", "9D"]
        assert await english.floor() == ["AH", "2H", "3S", "4D"]

        # A card that takes nothing says so first, and lights nothing.
        await english.touch_card("KS")
        assert await english.lifted() == "KS" and await english.lit() == []
        assert "\u2066K♠\u2069 takes nothing" in await english.text("#preview .nothing")
        # A card with two plans: the first lit, both offered; touching a card only the
        # second takes chooses it, and a number chooses again.
        await english.touch_card("6C")
        assert await english.lifted() == "6C" and await english.lit() == [0, 1, 2]
        assert await english.page.locator("#preview button[data-plan]").count() == 2
        await english.shot(ARTIFACTS, "en-two-plans")
        await english.touch_floor(3)
        assert await english.lit() == [1, 3]
        await english.choose(1)
        assert await english.lit() == [0, 1, 2]
        await english.choose(2)
        assert await english.lit() == [1, 3]
        # Touching a lit card of the floor plays the card with that plan.
        version = await english.version()
        await english.touch_floor(1)
        await english.moved_past(version)
        assert await english.floor() == ["AH", "3S"] and "6C" not in await english.hand()

        # Badr's turn: his hand message opens his own page, in Arabic.
        await world.basra.idle()
        arabic_url = await until(lambda: _mini_app(world, badr))
        arabic = await TablePage.open(browser, world.local(arabic_url), init_data=world.init_data(badr),
                                      locale="ar-EG")
        assert await arabic.page.get_attribute("html", "dir") == "rtl"
        assert await arabic.page.get_attribute("#floor", "dir") == "ltr"
        assert ARABIC.search(await arabic.text("#turn"))
        # The floor in its own order in both languages, drawn left to right in both.
        assert await arabic.floor() == await english.floor() == ["AH", "3S"]
        for page in (english, arabic):
            xs = await page.floor_xs()
            assert xs == sorted(xs)
        await arabic.touch_card("5C")
        assert await arabic.lit() == []  # AH 3S: nothing makes 5
        await arabic.shot(ARTIFACTS, "ar-takes-nothing")
        await english.shot(ARTIFACTS, "en-waiting")

        pages = {0: english, 1: arabic}
        plays = 1  # Alice's first
        while True:
            table = await service.table(table.table_id)
            if not table.running:
                break
            assert table.to_move is not None
            mover, page = ids[table.to_move], pages[table.to_move]
            await page.turn_at(table.version)
            hand = await page.hand()
            # The card that takes most (the last in hand when none takes anything).
            previews = {c: (await service.preview(table.table_id, mover, c)).preview for c in hand}
            card = max(hand, key=lambda c: len(previews[c].choice.taken) if previews[c].choice else -1)  # type: ignore[union-attr]
            if await page.lifted() != card:  # (a card lifted before stays lifted)
                await page.touch_card(card)
            expected = previews[card]
            assert expected is not None
            lit = sorted(expected.choice.positions) if expected.choice is not None else []
            assert await page.lifted() == card and await page.lit() == lit
            if not expected.plans:
                assert await page.page.is_visible("#preview .nothing")
            version = await page.version()
            await page.touch_card(card)  # the second touch plays it
            await page.moved_past(version)
            plays += 1
            assert plays <= 48
        assert plays == 48  # six deals of four cards each, for two players
        final = await service.table(table.table_id)
        assert final.status == "finished"
        for page, name in ((english, "en-result"), (arabic, "ar-result")):
            await page.page.wait_for_selector("#result:not([hidden])")
            await page.shot(ARTIFACTS, name)
        assert "Round 1 is over" in await english.text("#result-lines")
        assert ARABIC.search(await arabic.text("#result-lines"))
        await english.dismiss_result()
        assert not await english.page.is_visible("#result")

        assert ledger.assert_private(english.frames, ids[0]) > 20
        assert ledger.assert_private(arabic.frames, ids[1]) > 20
        await english.close()
        await arabic.close()


def _mini_app(world: WebWorld, user: Any) -> str | None:
    try:
        return world.mini_app(user)
    except AssertionError:
        return None
