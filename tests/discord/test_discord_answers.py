"""A press on Discord says what it did, to the presser alone; a practice lobby says what to do."""

from __future__ import annotations

import pytest
from dc_world import World, actions, open_lobby, press, text_of

pytestmark = pytest.mark.usefixtures("fast_settle")


async def test_a_lobby_press_is_followed_by_a_line_for_the_presser_alone(world: World) -> None:
    lobby = await open_lobby(world, world.alice, "2v2")
    joined = await press(world.bob, lobby, "join")
    said = [text_of(m) for m in joined.followups]
    assert said == ["You are in Team B."], said
    assert all(m.flags.ephemeral for m in (f.message for f in joined.followups))
    added = await press(world.alice, lobby, "computer", arg="strong")
    assert [text_of(m) for m in added.followups] == ["Computer (strong) joined Team A."]
    left = await press(world.bob, lobby, "leave")
    assert [text_of(m) for m in left.followups] == ["You left the table."]


@pytest.mark.parametrize(("lang", "what"), [
    ("en", "Add a computer of the level you want, or press Start"),
    ("ar", "أضف لاعب كمبيوتر"),
])
async def test_a_practice_lobby_with_a_free_seat_says_what_to_do_and_offers_start_and_cancel(
    world: World, lang: str, what: str
) -> None:
    await world.alice.slash(world.channel, "basra settings", language=lang)
    lobby = await open_lobby(world, world.alice, "practice")
    text = text_of(lobby)
    assert what in text and "Ready" not in text and "جاهزة" not in text
    shown = [a.verb for a in actions(lobby)]
    assert "start" in shown and "cancel" in shown


async def test_score_during_a_match_is_the_score_not_a_copy_of_the_table(world: World) -> None:
    lobby = await open_lobby(world, world.alice, "1v1")
    await press(world.bob, lobby, "join")
    await press(world.alice, lobby, "start")
    score = await world.bob.slash(world.channel, "basra score")
    assert score.ephemeral and score.response is not None
    shown = text_of(score.response)
    assert "(to 121\\)" in shown and "Round 1 · 5 deals left" in shown
    assert "Floor:" not in shown and not actions(score.response)
