"""A restart in the middle of a match: a new bot on the same database carries on."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

import pytest
from dc_config import SPEEDUP
from dc_world import (
    Players,
    PublicScan,
    World,
    actions,
    current_table,
    custom_id,
    open_hand,
    open_lobby,
    press,
    public,
    table_message,
    text_of,
)

from bots.discord.bot import BasraBot

# The conftest fixture make_bot builds a bot on a given database.
BotFactory = Callable[..., BasraBot]

pytestmark = pytest.mark.usefixtures("fast_settle")


async def test_a_match_goes_on_after_a_restart_and_old_buttons_still_work(
    world: World, make_bot: BotFactory
) -> None:
    alice, bob = world.alice, world.bob
    await world.bot.service.set_rules(f"dc:{world.channel.id}", target=1)
    lobby = await open_lobby(world, alice, "1v1")
    await press(bob, lobby, "join")
    await press(alice, lobby, "start")
    table = await current_table(world)
    players = Players(world, table.table_id, PublicScan(world))
    for _ in range(5):
        await players.play_turn()
    board = table_message(world)
    before = await current_table(world)
    old_hands = dict(players.hands)

    first = world.bot
    await first.close()
    # A new process takes seconds to start: the old one's rate-limit windows have passed.
    await world.env.advance_time(6.0 / SPEEDUP)
    second = make_bot()
    await world.env.restart_bot(second)
    assert world.bot is second and first.is_closed()

    # The restored match is the same, and its table message is the same message.
    after = await current_table(world)
    assert (after.version, after.floor, after.to_move) == (before.version, before.floor, before.to_move)
    assert table_message(world).id == board.id
    # A hand opened by the first process: its card buttons reach the new one and work.
    mover = world.member(before.seats[before.to_move or 0].player_id)
    hand = old_hands[mover.id]
    card = next(a for a in actions(hand) if a.verb == "card")
    preview = await mover.click(hand, custom_id=card.encode())
    assert preview.acknowledged and preview.response is not None and "Selected:" in text_of(preview.response)
    await mover.click(hand, custom_id=custom_id(hand, "play"))
    assert (await current_table(world)).version > before.version
    assert table_message(world).id == board.id  # edited in place by the new process

    # The other player's old hand could not be refreshed (its token died with the process
    # that held it); pressing it answers with the fresh hand. Then play on to the end.
    other = bob if mover is alice else alice
    stale = next(a for a in actions(old_hands[other.id]) if a.verb == "card")
    answer = await other.click(old_hands[other.id], custom_id=stale.encode())
    assert answer.acknowledged and answer.response is not None
    assert answer.response.content == "The table has moved on; here is the current view."
    final = await players.play_to_end()
    assert final.status == "finished"
    assert "The match is over" in text_of(public(world)[-1])


async def test_a_lobby_opened_before_a_restart_still_takes_players(
    world: World, make_bot: BotFactory
) -> None:
    lobby = await open_lobby(world, world.alice, "1v1")
    await world.bot.close()
    await world.env.restart_bot(make_bot())

    joined = await press(world.bob, lobby, "join")
    started = await press(world.alice, lobby, "start")

    assert joined.acknowledged and started.acknowledged
    assert "The match has started." in text_of(lobby)
    hand = await open_hand(world, world.bob)
    assert len([a for a in actions(hand) if a.verb == "card"]) == 4


async def test_a_match_of_another_bot_on_the_same_database_is_left_alone(
    world: World, make_bot: BotFactory
) -> None:
    bot = world.bot
    assert bot.platform.owner == f"dc:{bot.application_id}"
    lobby = await open_lobby(world, world.alice, "1v1")
    await press(world.bob, lobby, "join")
    await press(world.alice, lobby, "start")
    table = await current_table(world)
    assert bot.store is not None
    record = await bot.store.get_table(table.table_id)
    assert record is not None and record.owner == bot.platform.owner
    await bot.close()
    # The same file, as if another application (another token) had opened this match.
    with sqlite3.connect(make_bot().options.database) as conn:
        conn.execute("UPDATE tables SET owner = 'dc:1' WHERE table_id = ?", (table.table_id,))
    board = text_of(table_message(world))
    await world.env.advance_time(6.0 / SPEEDUP)
    await world.env.restart_bot(make_bot())

    assert await world.bot.service.open_table(f"dc:{world.channel.id}") is None
    assert text_of(table_message(world)) == board  # not redrawn, not closed
    answer = await world.bob.click(table_message(world), custom_id=custom_id(table_message(world), "hand"))
    assert answer.acknowledged and answer.response is not None and answer.response.ephemeral
    assert text_of(answer.response) == "This game no longer exists."  # no hand of that match
    lobby = await open_lobby(world, world.alice, "1v1")  # this bot's own game, same channel
    assert "join" in [a.verb for a in actions(lobby)]
