"""The turn clock as a channel sees it: a warning that mentions the player, then the result."""

from __future__ import annotations

import pytest
from dc_world import World, current_table, open_lobby, pinged, press, public, text_of

pytestmark = pytest.mark.usefixtures("fast_settle")


async def test_a_1v1_turn_that_runs_out_warns_then_ends_the_match(world: World) -> None:
    await world.alice.slash(world.channel, "basra settings", clock=60)
    lobby = await open_lobby(world, world.alice, "1v1")
    await press(world.bob, lobby, "join")
    await press(world.alice, lobby, "start")
    table = await current_table(world)
    late = world.member(table.seats[table.to_move or 0].player_id)

    await world.env.advance_time(31)

    warning = public(world)[-1]
    assert "Hurry" in text_of(warning) and pinged(world, warning) == [late.id]
    assert len([m for m in public(world) if m.raw_mentions]) == 1  # it replaced the turn ping

    await world.env.advance_time(30)

    final = await world.bot.service.table(table.table_id)
    assert final.status == "finished" and final.end_reason == "timeout"
    result = text_of(public(world)[-1])
    assert "ran out of time" in result and late.name in result
    assert not any(m.raw_mentions for m in public(world))
