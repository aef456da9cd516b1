"""A card with several capture plans: the page offers the same numbered choices as the
chat's hand (each plan's number and what it takes, "Lay it" where laying is allowed), in
English and in Arabic, and the choice picked on the page is the plan played."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.fakes import FakeMessage, FakeTelegram
from tests.telegram.world import buttons_with, start_match
from tests.web.pages import TablePage
from tests.web.web_world import ARTIFACTS, WebWorld

#: A plan's line in the chat's hand: "▶ 1) takes A♥ 2♥ 3♠" (the mark on the selected one).
PLAN_LINE = re.compile(r"^(?:▶\s*)?(\d+)\) (.+)$")


def chat_choices(hand: FakeMessage) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """The chat's plans as its hand's text lists them, and its plan buttons: (number, words)."""
    lines = []
    for line in hand.text.splitlines():
        found = PLAN_LINE.match(line.strip())
        if found:
            lines.append((int(found[1]), f"{found[1]}) {found[2]}"))
    labels = {b.callback_data: b.text for row in hand.buttons for b in row if b.callback_data}
    buttons = [(int(data.split("|")[5]), labels[data]) for data in buttons_with(hand, "plan")]
    return lines, buttons


async def page_choices(page: TablePage) -> list[tuple[int, str]]:
    shown = await page.page.eval_on_selector_all(
        "#preview button[data-plan]", "nodes => nodes.map(n => [Number(n.dataset.plan), n.textContent])")
    return [(int(n), str(text)) for n, text in shown]


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_a_card_with_several_plans_offers_the_chat_s_numbered_choices_and_plays_the_one_picked(
    server: FakeTelegram, database: Path, browser: Any, lang: str
) -> None:
    alice, badr = server.add_user("Alice", language_code=lang), server.add_user("Badr", language_code="en")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with WebWorld(server, database) as world:
        table = await start_match(world, group, alice, badr)
        # In the chat: Alice lifts 6♣, which takes A♥ 2♥ 3♠ or 2♥ 4♦ from A♥ 2♥ 3♠ 4♦.
        hand = world.hand_message(alice)
        six = next(d for d in buttons_with(hand, "card") if d.split("|")[4] == "6C")
        await world.press(alice, hand, six)
        lines, buttons = chat_choices(world.hand_message(alice))
        assert [n for n, _ in lines] == [1, 2] and [n for n, _ in buttons] == [1, 2]

        locale = "ar-EG" if lang == "ar" else "en-US"
        page = await TablePage.open(browser, world.local(world.mini_app(alice)),
                                    init_data=world.init_data(alice), locale=locale)
        await page.touch_card("6C")
        shown = await page_choices(page)
        assert shown == lines  # the same numbers, each taking the same cards, in the same words
        assert [n for n, _ in shown] == [n for n, _ in buttons]
        assert "\u2066A♥ 2♥ 3♠\u2069" in shown[0][1] and "\u20662♥ 4♦\u2069" in shown[1][1]
        await page.shot(ARTIFACTS, f"{lang}-numbered-plans")

        # Picking the second on the page, then Play, plays the second.
        await page.choose(2)
        assert await page.lit() == [1, 3]
        version = await page.version()
        await page.page.click("#preview button.play")
        await page.moved_past(version)
        played = await world.basra.service.table(table.table_id)
        assert played.last_play is not None and played.last_play.card == "6C"
        assert played.last_play.taken == ("2H", "4D") and played.floor == ("AH", "3S")
        assert await page.floor() == ["AH", "3S"]
        await page.close()
