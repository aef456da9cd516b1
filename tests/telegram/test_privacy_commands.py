"""/privacy says what is kept and why; /forget erases a person after one confirmation, on
SQLite and PostgreSQL, resigning their running match first; a command the bot does not
know gets one line pointing to /help, in a group only when it names this bot."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bots.render import Action
from bots.service import ServiceConfig
from tests.fakes import FakeTelegram
from tests.storage.backends import BACKENDS, postgres_schema
from tests.telegram.world import World, start_match

__all__ = ["postgres_schema"]

ENGLISH = ServiceConfig(computer_delay=0.0, warning_seconds=0, heartbeat_seconds=3600.0, language="en")
ARABIC = ServiceConfig(computer_delay=0.0, warning_seconds=0, heartbeat_seconds=3600.0, language="ar",
                       keep_finished_days=30)


@pytest.fixture(params=BACKENDS)
def store_at(request: pytest.FixtureRequest, database: Path) -> Path:
    """The bot's database: the SQLite file, or a PostgreSQL schema of its own."""
    if request.param == "sqlite":
        return database
    url: str = request.getfixturevalue("postgres_schema")
    return url  # type: ignore[return-value]  # World opens a URL as it opens a path


@pytest.mark.parametrize(("config", "words"), [
    (ENGLISH, ("What this bot keeps about you", "language you chose", "rating", "who sat where",
               "Each chat's settings", "Where the bot's messages are", "login to the web table",
               "no time limit", "/forget erases")),
    (ARABIC, ("ما يحفظه هذا البوت عنك", "اللغة التي اخترتها", "التصنيف", "من جلس في كل مقعد",
              "إعدادات كل محادثة", "مواضع رسائل البوت", "صفحة الطاولة", "بعد 30 يومًا",
              "يمسح /forget")),
])
async def test_privacy_says_what_is_kept_why_and_for_how_long(
    server: FakeTelegram, database: Path, config: ServiceConfig, words: tuple[str, ...]
) -> None:
    alice = server.add_user("Alice", language_code=None)
    group = server.add_group("Cafe", [alice])
    async with World(server, database, config=config) as world:
        for chat in (None, group):
            await world.send(alice, chat, "/privacy")
            shown = server.last_message(server.private_chat(alice) if chat is None else group).text
            for word in words:
                assert word in shown, (word, shown)


async def test_forget_erases_after_erase_is_pressed_resigning_the_running_match_first(
    server: FakeTelegram, store_at: Path
) -> None:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, store_at, config=ENGLISH) as world:
        table = await start_match(world, group, alice, badr)
        service = world.basra.service
        await world.send(alice, None, "/forget")
        question = world.latest_private(alice)
        assert "Erase everything this bot keeps about you?" in question.text
        assert (await service.table(table.table_id)).running  # nothing happens before Erase

        await world.press_verb(alice, question, "erase")

        assert "everything this bot kept about you is erased" in world.latest_private(alice).text
        assert not world.latest_private(alice).button_data()
        ended = await service.table(table.table_id)
        assert not ended.running
        assert all(s.player_id != f"tg:{alice.id}" for s in ended.seats)
        assert (await service.stats(f"tg:{alice.id}")).line is None
        board = await service.leaderboard(f"tg:{group.id}")
        assert [line.player_id for line in board.lines] == [f"tg:{badr.id}"]
        store = world.basra.store
        assert store is not None and await store.get_player(f"tg:{alice.id}") is None


async def test_cancel_or_a_late_erase_erases_nothing(server: FakeTelegram, database: Path) -> None:
    alice = server.add_user("Alice", language_code="ar")
    chat = server.private_chat(alice)
    async with World(server, database, config=ARABIC) as world:
        await world.send(alice, None, "/settings")  # a profile to keep
        await world.send(alice, None, "/forget")
        await world.press_verb(alice, world.latest_private(alice), "keep")
        assert world.latest_private(alice).text == "لم يُمسح شيء."
        await world.send(alice, None, "/forget")
        late = Action("erase", arg=str(int(time.time()) - 1)).encode()
        await world.forge(alice, world.latest_private(alice), late)
        assert "انتهت مهلة هذا السؤال" in world.latest_private(alice).text
        store = world.basra.store
        assert store is not None and await store.get_player(f"tg:{alice.id}") is not None
        assert server.messages(chat, bot_only=True)


async def test_forget_in_a_group_points_to_the_private_chat(server: FakeTelegram, database: Path) -> None:
    alice = server.add_user("Alice")
    group = server.add_group("Cafe", [alice])
    async with World(server, database, config=ENGLISH) as world:
        await world.send(alice, group, "/forget")
        answer = server.last_message(group)
        assert "send /forget" in answer.text and not answer.button_data()


@pytest.mark.parametrize(("config", "line"), [
    (ENGLISH, "I do not know that command. /help lists the ones I do."),
    (ARABIC, "لا أعرف هذا الأمر. أرسل /help لترى الأوامر التي أعرفها."),
])
async def test_an_unknown_command_gets_one_line_pointing_to_help(
    server: FakeTelegram, database: Path, config: ServiceConfig, line: str
) -> None:
    alice = server.add_user("Alice", language_code=None)
    chat = server.private_chat(alice)
    group = server.add_group("Cafe", [alice])
    async with World(server, database, config=config) as world:
        for typed in ("/poker", "/hepl"):
            await world.send(alice, None, typed)
            assert server.last_message(chat).text == line
        await world.send(alice, group, "/poker")  # perhaps another bot's: no answer
        assert server.messages(group, bot_only=True) == []
        await world.send(alice, group, f"/poker@{world.app.bot.username}")
        assert server.last_message(group).text == line
        assert len(server.messages(group, bot_only=True)) == 1
