"""Rematch on Discord: the button on the final table seats whoever presses it (told alone) in
a new lobby in the channel, and the match starts when everyone who played is back."""

from __future__ import annotations

import pytest
from dc_world import World, actions, current_table, open_lobby, press, public, text_of

pytestmark = pytest.mark.usefixtures("fast_settle")


async def test_a_rematch_starts_when_both_players_are_back(world: World) -> None:
    alice, bob = world.alice, world.bob
    lobby = await open_lobby(world, alice, "1v1")
    await press(bob, lobby, "join")
    await press(alice, lobby, "start")
    first = await current_table(world)
    await bob.slash(world.channel, "basra resign")
    result = next(m for m in reversed(public(world)) if "rematch" in [a.verb for a in actions(m)])
    assert "The match is over" in text_of(result)

    stranger = await press(world.carol, result, "rematch")
    assert stranger.ephemeral and stranger.response is not None
    assert stranger.response.content == "You are not playing at this table."

    waiting = await press(bob, result, "rematch")
    assert waiting.ephemeral and waiting.response is not None
    assert waiting.response.content.startswith("You are in.")
    assert "Basra: new table, one against one" in text_of(public(world)[-1])

    started = await press(alice, result, "rematch")
    assert started.response is not None
    assert started.response.content == "Everyone is back: the rematch has started."
    table = await current_table(world)
    assert table.running and table.table_id != first.table_id
    assert {s.player_id for s in table.seats} == {f"dc:{alice.id}", f"dc:{bob.id}"}
