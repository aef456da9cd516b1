"""Whole matches played by pressing buttons, with the real Application against the fake server."""

from __future__ import annotations

from pathlib import Path

from tests.fakes import FakeChat, FakeTelegram, FakeUser
from tests.telegram.world import HandLedger, World, ids


async def open_1v1(world: World, group: FakeChat, alice: FakeUser, badr: FakeUser) -> None:
    await world.send(alice, group, "/newgame")
    lobby = world.server.last_message(group)
    await world.press_verb(badr, lobby, "join")
    await world.press_verb(alice, lobby, "start")


async def test_a_whole_1v1_match_with_default_rules_is_played_by_pressing_buttons(
    server: FakeTelegram, database: Path
) -> None:
    alice, badr = server.add_user("Alice"), server.add_user("Badr")
    for user in (alice, badr):
        server.private_chat(user)
    group = server.add_group("Cafe", [alice, badr])
    async with World(server, database) as world:
        ledger = HandLedger.watch(world)
        await open_1v1(world, group, alice, badr)
        plays = await world.play_out(group, ids(alice, badr))
        assert plays % 48 == 0  # whole rounds of 2 × 24 cards
        result = await world.finished(group)
        assert result.status == "finished" and max(result.scores) >= 121
    rounds = plays // 48
    # One table message per round, edited in place: the lobby becomes the first, each next
    # one opens with the last round's result, and the last one ends with the match result.
    messages = server.messages(group, bot_only=True)
    assert len(messages) == rounds and all(m.edited for m in messages)
    assert "won" in messages[-1].text and "Round" in messages[-1].text
    for user in (alice, badr):
        assert len(world.hand_messages(user)) <= 1  # one live hand message
    ledger.assert_no_leak(server, group, [alice, badr])
    assert not server.unanswered_callback_queries()


async def test_a_2v2_match_with_teams_and_a_small_target(server: FakeTelegram, database: Path) -> None:
    people = [server.add_user(name) for name in ("Alice", "Badr", "Carla", "Dina")]
    for user in people:
        server.private_chat(user)
    alice, badr, carla, dina = people
    group = server.add_group("Majlis", people)
    async with World(server, database) as world:
        ledger = HandLedger.watch(world)
        await world.basra.service.set_rules(f"tg:{group.id}", target=30)
        await world.send(alice, group, "/newgame 2v2")
        lobby = server.last_message(group)
        await world.press_verb(carla, lobby, "team", 0)
        await world.press_verb(badr, lobby, "team", 1)
        await world.press_verb(dina, lobby, "team", 1)
        await world.press_verb(alice, lobby, "start")
        table = await world.table(group)
        assert table is not None
        by_seat = [s.player_id for s in table.seats]
        # Partners sit opposite: Alice and Carla (team A) in seats 0 and 2.
        assert {by_seat[0], by_seat[2]} == {f"tg:{alice.id}", f"tg:{carla.id}"}
        plays = await world.play_out(group, ids(*people))
        assert plays % 48 == 0  # 4 × 4 cards × 3 deals a round
        assert max((await world.finished(group)).scores) >= 30
    ledger.assert_no_leak(server, group, people)


async def test_a_1v1_against_a_computer_added_in_the_lobby(server: FakeTelegram, database: Path) -> None:
    alice = server.add_user("Alice", language_code="ar")
    server.private_chat(alice)
    group = server.add_group("Cafe", [alice])
    async with World(server, database) as world:
        ledger = HandLedger.watch(world)
        await world.basra.service.set_rules(f"tg:{group.id}", target=20)
        await world.send(alice, group, "/newgame")
        lobby = server.last_message(group)
        await world.press_verb(alice, lobby, "computer")
        await world.press_verb(alice, lobby, "start")
        await world.play_out(group, ids(alice))
        assert (await world.finished(group)).status == "finished"
    ledger.assert_no_leak(server, group, [alice])
