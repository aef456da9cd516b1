"""Lobbies on Discord as players found them: a practice table takes nobody else, a computer
makes a match practice and the lobby says so, a full lobby offers no Join, the buttons fit in
Discord's rows, and after a resignation the table shows the cards as they were."""

from __future__ import annotations

import pytest
from dc_world import World, actions, current_table, open_lobby, press, public, text_of

pytestmark = pytest.mark.usefixtures("fast_settle")


def verbs(message: object) -> list[str]:
    return [a.verb for a in actions(message)]  # type: ignore[arg-type]


async def test_a_practice_lobby_has_no_join_button(world: World) -> None:
    lobby = await open_lobby(world, world.alice, "practice")
    assert "join" not in verbs(lobby)
    assert "Practice: with the computer at the table, the result counts in nobody's record." in text_of(lobby)


async def test_a_computer_in_a_1v1_lobby_is_said_and_a_full_lobby_takes_nobody(world: World) -> None:
    lobby = await open_lobby(world, world.alice, "1v1")
    assert "Rated: the result moves both players' ratings." in text_of(lobby)
    assert verbs(lobby).count("computer") == 3  # one button per level, each fitting its row
    await press(world.alice, lobby, "computer", arg="expert")
    assert "Practice: with the computer at the table" in text_of(lobby)
    assert "join" not in verbs(lobby) and "computer" not in verbs(lobby)
    assert "Computer \\(expert\\)" in text_of(lobby)  # (markdown-escaped)


async def test_after_a_resignation_the_table_still_shows_the_cards_held(world: World) -> None:
    lobby = await open_lobby(world, world.alice, "1v1")
    await press(world.bob, lobby, "join")
    await press(world.alice, lobby, "start")
    table = await current_table(world)
    resigned = await world.bob.slash(world.channel, "basra resign")
    assert resigned.acknowledged
    final = await world.bot.service.table(table.table_id)
    assert not final.running and [s.cards for s in final.seats] == [4, 4]
    assert any("4 cards" in text_of(m) for m in public(world))
