"""A basic group upgraded to a supergroup gets a new chat id: the game follows it."""

from __future__ import annotations

from pathlib import Path

from tests.fakes import FakeTelegram
from tests.telegram.world import World


async def test_a_match_follows_its_group_to_the_supergroup_and_goes_on(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr], supergroup=False)
    async with World(server, database) as world:
        await world.send(alice, group, "/settings")
        await world.press_verb(alice, server.last_message(group), "variant")  # match to 100
        await world.send(alice, group, "/newgame")
        lobby = server.last_message(group)
        await world.press_verb(badr, lobby, "join")
        await world.press_verb(alice, lobby, "start")
        before = await world.table(group)
        assert before is not None
        mover = alice if before.seats[before.to_move or 0].player_id == f"tg:{alice.id}" else badr
        await world.play_any(mover)
        played = await world.table(group)
        assert played is not None and played.version > before.version
        old_messages = len(server.messages(group, bot_only=True))

        supergroup, notes = server.group_upgrades(group, alice)
        for note in notes:  # Telegram says it in both chats; the second changes nothing
            await world.deliver(note)

        assert await world.table(group) is None
        moved = await world.table(supergroup)
        assert moved is not None and moved.table_id == played.table_id
        assert moved.version == played.version and moved.floor == played.floor
        assert moved.rules.target == 100
        assert (await world.basra.service.settings(f"tg:{supergroup.id}")).rules.target == 100
        # The table is drawn anew in the supergroup, where the old message ids mean nothing.
        [table_message] = server.messages(supergroup, bot_only=True)
        assert table_message.button_data() or table_message.text

        other = badr if mover is alice else alice
        await world.play_any(other)
        after = await world.table(supergroup)
        assert after is not None and after.version > moved.version
        assert len(server.messages(group, bot_only=True)) == old_messages  # nothing more in the old chat
        assert server.messages(supergroup, bot_only=True)[0].edited
