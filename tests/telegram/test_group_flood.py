"""One person repeating an informational command in a group cannot spend the budget the
group's tables share: a repeat within a minute is not answered again, and such answers
wait behind the tables' writes."""

from __future__ import annotations

from pathlib import Path

from tests.fakes import FakeChat, FakeTelegram
from tests.telegram.world import World, start_match, to_move


def helps(server: FakeTelegram, group: FakeChat, marker: str) -> int:
    return sum(1 for text in server.texts(group) if marker in text)


async def test_a_flood_of_help_is_answered_once_and_the_table_stays_live(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr, carla = server.add_user("Alice"), server.add_user("Badr"), server.add_user("Carla")
    for user in (alice, badr, carla):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr, carla])
    async with World(server, database) as world:
        table = await start_match(world, group, alice, badr)
        marker = "/newgame — "  # a line only the group's help has
        for _ in range(30):
            await world.send(carla, group, "/help")
        assert helps(server, group, marker) == 1
        await world.send(carla, group, f"/help@{server.bot_user.username}")
        assert helps(server, group, marker) == 1  # addressed to the bot, still the same repeat
        await world.send(badr, group, "/help")  # someone else asks: answered
        assert helps(server, group, marker) == 2
        await world.send(carla, group, "/rules")  # another question: answered
        rules = server.texts(group)[-1]
        assert "/newgame — " not in rules and rules
        # The table goes on as before: a play shows in the group.
        before = await world.table(group)
        assert before is not None and before.version == table.version
        await world.play_any(to_move(before, alice, badr))
        after = await world.table(group)
        assert after is not None and after.version > before.version


async def test_in_private_every_help_is_answered(server: FakeTelegram, database: Path) -> None:
    alice = server.add_user("Alice")
    chat = server.private_chat(alice)
    async with World(server, database) as world:
        for _ in range(3):
            await world.send(alice, None, "/help")
    assert sum(1 for text in server.texts(chat) if "/practice — " in text) == 3
