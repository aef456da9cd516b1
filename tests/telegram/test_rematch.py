"""Rematch on Telegram: the button on a match result seats whoever presses it in a new lobby
with the same sides and settings, and the match starts when everyone who played is back."""

from __future__ import annotations

from pathlib import Path

from tests.fakes import FakeTelegram
from tests.telegram.world import World, start_match, to_move


async def test_a_rematch_starts_when_both_players_are_back(server: FakeTelegram, database: Path) -> None:
    alice, badr, carla = server.add_user("Alice"), server.add_user("Badr"), server.add_user("Carla")
    for user in (alice, badr, carla):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr, carla])
    async with World(server, database) as world:
        await world.basra.service.set_rules(f"tg:{group.id}", target=61)
        first = await start_match(world, group, alice, badr)
        await world.send(badr, group, "/resign")
        shown = reversed(server.messages(group, bot_only=True))
        result = next(m for m in shown if world.buttons(m, "rematch"))
        assert "The match is over" in result.text
        rematch = world.buttons(result, "rematch")[0]

        stranger = await world.forge(carla, result, rematch)  # Carla did not play it
        answer = server.callback_answer(stranger)
        assert answer is not None and answer.text == "You are not playing at this table."

        pressed = await world.press(badr, result, rematch)
        answer = server.callback_answer(pressed)
        assert answer is not None and answer.text.startswith("You are in.")
        lobby = server.last_message(group)
        assert "Basra: new table, one against one" in lobby.text and "Badr" in lobby.text
        assert not world.buttons(lobby, "start")  # Alice is not back yet

        pressed = await world.press(alice, result, rematch)
        answer = server.callback_answer(pressed)
        assert answer is not None and answer.text == "Everyone is back: the rematch has started."
        table = await world.table(group)
        assert table is not None and table.running and table.table_id != first.table_id
        assert table.rules.target == 61
        assert {s.name for s in table.seats} == {"Alice", "Badr"}


async def test_the_rematch_s_hands_arrive_though_the_last_match_went_further(
    server: FakeTelegram, database: Path
) -> None:
    """A hand's state is its table's version: the next match starts again from 1, below
    the last hand the player was sent, and its hands must not be taken for older ones."""
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database) as world:
        first = await start_match(world, group, alice, badr)
        for _ in range(8):
            table = await world.table(group)
            assert table is not None
            await world.play_any(to_move(table, alice, badr))
        await world.send(badr, group, "/resign")
        shown = reversed(server.messages(group, bot_only=True))
        result = next(m for m in shown if world.buttons(m, "rematch"))
        rematch = world.buttons(result, "rematch")[0]
        await world.press(badr, result, rematch)
        await world.press(alice, result, rematch)
        second = await world.table(group)
        assert second is not None and second.table_id != first.table_id
        assert second.version < (await world.basra.service.table(first.table_id)).version
        mover = to_move(second, alice, badr)
        hand = world.hand_message(mover)
        assert all(f"|{second.table_id}|" in data for data in world.buttons(hand, "card")), hand.text
        await world.play_any(mover)  # and it plays
        after = await world.table(group)
        assert after is not None and after.version > second.version
