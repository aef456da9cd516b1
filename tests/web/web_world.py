"""A Telegram bot with its web table, over the fake Bot API, for the web tests.

``WebWorld`` is ``tests.telegram.world.World`` with ``bots.web`` switched on: the
web table listens on a free loopback port, its public address is
``https://basra.test`` (what the buttons carry; ``local`` turns one into the
loopback address a test's browser opens), and matches are dealt from a fixed
deck so that the first turn has a card with two plans, a basra and a card that
takes nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest

from bots.web import WebTable, signed_init_data
from core import Card, Match, Rules
from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.telegram.world import World

PUBLIC = "https://basra.test"
SECRET = b"web tests secret, 32 bytes long!"
#: Seat 0 (who plays first) holds a card with two plans on this floor (6C: AH 2H 3S, or
#: 2H 4D), one that takes the whole floor, a basra (10C), and one that takes nothing (KS).
HANDS = ["6C 10C KS 9D", "5C 5D 8S 8H"]
FLOOR = "AH 2H 3S 4D"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
ARTIFACTS = Path(__file__).parent / "artifacts"
PHONE = {"width": 390, "height": 844}


def deck() -> list[str]:
    top = [HANDS[seat].split()[i] for i in range(4) for seat in range(2)] + FLOOR.split()
    return top + [c.code for c in Card.deck() if c.code not in top]


def fixed_deal(players: int, rules: Rules) -> Match:
    """The last seat deals, so seat 0 (the lobby's creator) plays first."""
    return Match.new(players, rules, decks=[deck()], dealer=players - 1, seed=1)


def needs_chromium() -> None:
    """Skip without a browser, unless ``.ci/run`` says the browser tests must run."""
    if CHROMIUM is None:
        if os.environ.get("BASRA_BROWSER_TESTS") == "required":
            pytest.fail("BASRA_BROWSER_TESTS=required but chromium is not installed")
        pytest.skip("no chromium on this machine (apt-get install chromium)")


class WebWorld(World):
    """The bot, its web table on loopback, and a fixed first deal."""

    def __init__(self, server: FakeTelegram, database: Path, **kwargs: Any) -> None:
        super().__init__(server, database, **kwargs)
        self.web = WebTable(PUBLIC, secret=SECRET, bot_token=server.token, port=0, language="en")
        self.basra.web = self.web
        self.basra.delivery.web = self.web
        self.basra.match_factory = fixed_deal
        self.opened = 0

    @property
    def origin(self) -> str:
        return f"http://127.0.0.1:{self.web.server.port}"

    def local(self, url: str) -> str:
        assert url.startswith(PUBLIC + "/"), url
        return self.origin + url[len(PUBLIC):]

    def init_data(self, user: FakeUser, *, age: float = 0.0, token: str | None = None) -> str:
        """What Telegram's client gives the Mini App of ``user`` (signed with the bot's token)."""
        person = {"id": user.id, "first_name": user.first_name, "language_code": user.language_code or "en"}
        self.opened += 1  # each opening of a Mini App has a query of its own
        return signed_init_data(token or self.server.token, person, int(time.time() - age),
                                query_id=f"AAQ{user.id}x{self.opened}")

    def mini_app(self, user: FakeUser) -> str:
        """The Mini App address on the user's live hand message."""
        for message in reversed(self.server.messages(self.server.private_chat(user), bot_only=True)):
            for row in message.buttons:
                for button in row:
                    if button.web_app:
                        return button.web_app
        raise AssertionError(f"{user} has no hand with a web_app button")

    def watch_link(self, group: FakeChat) -> str:
        message: FakeMessage = self.server.last_message(group)
        for row in message.buttons:
            for button in row:
                if button.url and "/watch#" in button.url:
                    return button.url
        raise AssertionError("the group's table has no watch link")


def telegram_script(init_data: str) -> str:
    """Stands in for telegram-web-app.js, which the browser cannot fetch (no internet)."""
    data = json.dumps(init_data)
    return "window.Telegram = {WebApp: {initData: " + data + ", ready() {}, expand() {}}};"
