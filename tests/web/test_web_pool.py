"""A platform served with the web table keeps the pairing pool: the pages hear of matches,
the chat platform alone of the waiting messages."""

from __future__ import annotations

from bots.service import PoolLooking, PoolPlatform, PoolView
from bots.web import WebTable
from tests.service.helpers import FakePlatform
from tests.service.test_service_pool import PoolPlatform as PoolFake


async def test_the_web_table_passes_what_the_pool_tells_on_to_the_chat_platform() -> None:
    web = WebTable("https://basra.example.org", secret=b"s" * 32)
    inner = PoolFake("tg")
    teed = web.platform(inner)
    assert isinstance(teed, PoolPlatform)
    view = PoolView(player_id="tg:1", chat_id="tg:1", lang="en", mode="1v1", state="waiting",
                    looking=2, waited=3.0, wait_seconds=45.0, offered=False, level="beginner",
                    rating=0.0, provisional=True)
    await teed.tell_pool([PoolLooking(view)])
    assert inner.told == [PoolLooking(view)]
    assert not isinstance(web.platform(FakePlatform("tg")), PoolPlatform)
