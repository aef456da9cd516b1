"""Discord refusing or failing a request never loses a play: the service committed it first.

An injected 429 or 5xx reaches the bot as an ``HTTPException`` at once (simcord
bypasses discord.py's own waiting), which is the harder case: the bot tries again
with back-off, and a newer state of the message goes instead of a failed older one.
"""

from __future__ import annotations

import pytest
import simcord
from dc_world import (
    World,
    actions,
    current_table,
    custom_id,
    open_hand,
    open_lobby,
    play_first_card,
    press,
    public,
    table_message,
    text_of,
)

from storage import StorageError

pytestmark = pytest.mark.usefixtures("fast_settle")

NOT_SAVED = "That was not saved: the game's storage is failing. Nothing changed; try again in a moment."


async def start_1v1(world: World) -> None:
    lobby = await open_lobby(world, world.alice, "1v1")
    await press(world.bob, lobby, "join")
    await press(world.alice, lobby, "start")


async def mover_and_hand(world: World) -> tuple[simcord.MemberActor, simcord.ResponseMessage]:
    table = await current_table(world)
    mover = world.member(table.seats[table.to_move or 0].player_id)
    return mover, await open_hand(world, mover)


async def test_a_failed_table_edit_keeps_the_play_and_catches_up(world: World) -> None:
    await start_1v1(world)
    mover, hand = await mover_and_hand(world)
    before = await current_table(world)
    board = table_message(world)
    shown = board.embeds[0].description

    # Discord fails the play's table edit four times in a row.
    world.env.inject_error("PATCH", "/channels/*/messages/*", status=503, times=4)
    await play_first_card(mover, hand)

    after = await current_table(world)
    assert after.version > before.version and after.to_move != before.to_move  # played
    assert [kind for _, kind, status in world.bot.platform.failures] == ["table"] * 4
    assert "Your hand" in text_of(hand)  # the player saw their play through their own hand
    # Tried again until Discord took it: the same message shows the play.
    assert table_message(world).id == board.id
    assert table_message(world).embeds[0].description != shown
    assert world.bot.platform.dispatcher.counts["retried"] == 4


async def test_a_rate_limited_answer_to_a_confirm_is_retried_and_the_play_stands(world: World) -> None:
    await start_1v1(world)
    mover, hand = await mover_and_hand(world)
    first = next(a for a in actions(hand) if a.verb == "card")
    await mover.click(hand, custom_id=first.encode())
    before = await current_table(world)

    world.env.inject_error(
        "POST", "/interactions/*/*/callback", status=429, message="You are being rate limited."
    )
    confirm = next(a for a in actions(hand) if a.verb == "play")
    result = await mover.click(hand, custom_id=confirm.encode())

    assert result.acknowledged  # the second try answered the press
    assert (await current_table(world)).version > before.version
    assert first.card not in (await world.bot.service.hand(before.table_id, f"dc:{mover.id}")).hand
    assert world.env.errors == []


async def test_a_ping_that_failed_is_sent_again_and_the_old_one_goes(world: World) -> None:
    await start_1v1(world)
    mover, hand = await mover_and_hand(world)
    world.env.inject_error("POST", "/channels/*/messages", status=500, times=4)  # the next ping, 4 tries
    await play_first_card(mover, hand)

    assert [kind for _, kind, _ in world.bot.platform.failures] == ["ping"] * 4
    pings = [m for m in public(world) if m.raw_mentions]
    table = await current_table(world)
    to_move = world.member(table.seats[table.to_move or 0].player_id)
    assert to_move is not mover and [m.raw_mentions for m in pings] == [[to_move.id]]  # the old ping went


async def test_a_refusal_is_not_tried_again(world: World) -> None:
    await start_1v1(world)
    mover, hand = await mover_and_hand(world)
    before = table_message(world).embeds[0].description
    world.env.inject_error("PATCH", "/channels/*/messages/*", status=403, code=50013, times=1)
    await play_first_card(mover, hand)

    assert [(kind, status) for _, kind, status in world.bot.platform.failures] == [("table", 403)]
    assert world.bot.platform.dispatcher.counts["failed"] == 1
    assert table_message(world).embeds[0].description == before  # given up: Discord refused it
    # The next change of the table shows the latest state again.
    table = await current_table(world)
    nxt = world.member(table.seats[table.to_move or 0].player_id)
    await play_first_card(nxt, await open_hand(world, nxt))
    assert table_message(world).embeds[0].description != before


async def test_a_play_the_store_refuses_is_told_and_not_shown(world: World) -> None:
    await start_1v1(world)
    mover, hand = await mover_and_hand(world)
    before = await current_table(world)
    shown = table_message(world).embeds[0].description
    first = next(a for a in actions(hand) if a.verb == "card")
    await mover.click(hand, custom_id=first.encode())
    store = world.bot.store
    assert store is not None
    original = store._writer.write

    async def full(*args: object, **kwargs: object) -> object:
        raise StorageError("writing failed: database or disk is full")

    store._writer.write = full  # type: ignore[method-assign]
    try:
        result = await mover.click(hand, custom_id=custom_id(hand, "play"))
        assert result.acknowledged and result.response is not None and result.response.ephemeral
        assert result.response.content == NOT_SAVED
        assert (await current_table(world)).version == before.version
        assert table_message(world).embeds[0].description == shown
        # A command that writes is answered too.
        chose = await world.bob.slash(world.channel, "basra settings", my_language="en")
        assert chose.response is not None and chose.response.content == NOT_SAVED
    finally:
        store._writer.write = original  # type: ignore[method-assign]
    await mover.click(hand, custom_id=custom_id(hand, "play"))  # the same press, once it works
    assert (await current_table(world)).version > before.version
