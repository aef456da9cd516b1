"""``/basra privacy`` says what is kept and why, in either language; ``/basra forget`` asks once,
privately, and Erase resigns the presser's running match and erases them (on SQLite here,
and on PostgreSQL in ``test_discord_erasure_postgres``)."""

from __future__ import annotations

import pytest
from dc_world import World, current_table, open_lobby, press, text_of

pytestmark = pytest.mark.usefixtures("fast_settle")


@pytest.mark.parametrize(("language", "words"), [
    ("en", ("What this bot keeps about you", "language you chose", "who sat where",
            "Each chat's settings", "no time limit", "/basra forget erases")),
    ("ar", ("ما يحفظه هذا البوت عنك", "اللغة التي اخترتها", "من جلس في كل مقعد",
            "إعدادات كل محادثة", "بلا مدة محددة", "يمسح /basra forget")),
])
async def test_privacy_says_what_is_kept_and_why_to_the_invoker_alone(
    world: World, language: str, words: tuple[str, ...]
) -> None:
    await world.bob.slash(world.channel, "basra settings", my_language=language)
    result = await world.bob.slash(world.channel, "basra privacy")
    assert result.acknowledged and result.ephemeral and result.response is not None
    shown = text_of(result.response)
    for word in words:
        assert word in shown, (word, shown)


async def test_forget_asks_once_then_erase_resigns_the_match_and_erases_them(world: World) -> None:
    alice, bob = world.alice, world.bob
    lobby = await open_lobby(world, alice, "1v1")
    await press(bob, lobby, "join")
    await press(alice, lobby, "start")
    table = await current_table(world)
    service = world.bot.service

    question = await bob.slash(world.channel, "basra forget")
    assert question.ephemeral and question.response is not None
    assert "Erase everything this bot keeps about you?" in text_of(question.response)
    assert (await service.table(table.table_id)).running

    await press(bob, question.response, "erase")

    assert "everything this bot kept about you is erased" in text_of(question.response)
    ended = await service.table(table.table_id)
    assert not ended.running and all(s.player_id != f"dc:{bob.id}" for s in ended.seats)
    assert (await service.stats(f"dc:{bob.id}")).line is None
    store = world.bot.store
    assert store is not None and await store.get_player(f"dc:{bob.id}") is None
    board = await service.leaderboard(f"dc:{world.channel.id}")
    assert [line.player_id for line in board.lines] == [f"dc:{alice.id}"]


async def test_cancel_erases_nothing(world: World) -> None:
    await world.bob.slash(world.channel, "basra settings", my_language="en")
    question = await world.bob.slash(world.channel, "basra forget")
    assert question.response is not None
    await press(world.bob, question.response, "keep")
    assert "Nothing was erased." in text_of(question.response)
    store = world.bot.store
    assert store is not None and await store.get_player(f"dc:{world.bob.id}") is not None
