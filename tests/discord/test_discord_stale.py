"""Stale and out-of-turn presses change nothing and answer with a fresh view."""

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
    text_of,
)

pytestmark = pytest.mark.usefixtures("fast_settle")


async def start_1v1(world: World) -> str:
    lobby = await open_lobby(world, world.alice, "1v1")
    await press(world.bob, lobby, "join")
    await press(world.alice, lobby, "start")
    return (await current_table(world)).table_id


async def movers(world: World) -> tuple[simcord.MemberActor, simcord.MemberActor]:
    table = await current_table(world)
    mover = world.member(table.seats[table.to_move or 0].player_id)
    other = world.bob if mover is world.alice else world.alice
    return mover, other


async def test_a_hand_past_its_token_life_is_answered_with_a_fresh_one(world: World) -> None:
    await start_1v1(world)
    mover, waiting = await movers(world)
    waiting_hand = await open_hand(world, waiting)
    mover_hand = await open_hand(world, mover)
    before = await current_table(world)

    # 16 minutes later the waiting player's token is dead: the move cannot refresh that hand.
    await world.env.advance_time(16 * 60)
    mover_hand = await open_hand(world, mover)
    await play_first_card(mover, mover_hand)
    moved = await current_table(world)
    assert moved.version > before.version
    old_cards = [a for a in actions(waiting_hand) if a.verb == "card"]
    assert old_cards and all(a.version == before.version for a in old_cards)  # not refreshed

    # Pressing the old hand answers that press itself, with the current hand and a note.
    answer = await waiting.click(waiting_hand, custom_id=old_cards[0].encode())

    assert answer.acknowledged and answer.response is not None and answer.response.id == waiting_hand.id
    assert answer.response.content == "The table has moved on; here is the current view."
    assert all(a.version == moved.version for a in actions(waiting_hand) if a.verb == "card")
    assert (await current_table(world)).version == moved.version  # nothing changed
    # From now on this hand works again (its new token is fresh).
    fresh = next(a for a in actions(waiting_hand) if a.verb == "card")
    preview = await waiting.click(waiting_hand, custom_id=fresh.encode())
    assert preview.response is not None and "Selected:" in text_of(preview.response)


async def test_a_stale_confirm_plays_nothing(world: World) -> None:
    table_id = await start_1v1(world)
    mover, waiting = await movers(world)
    hand = await open_hand(world, mover)
    first = next(a for a in actions(hand) if a.verb == "card")
    await mover.click(hand, custom_id=first.encode())
    stale_confirm = custom_id(hand, "play")
    version = (await current_table(world)).version
    # The match moves on without this hand (the player also plays from a second hand message).
    second = await open_hand(world, mover)
    await mover.click(second, custom_id=custom_id(second, "card", card=first.card))
    await mover.click(second, custom_id=custom_id(second, "play"))
    assert (await current_table(world)).version > version
    version = (await current_table(world)).version
    hands_before = (await world.bot.service.hand(table_id, f"dc:{waiting.id}")).hand

    # The first hand message still shows the old confirm (its token was replaced): pressing it is refused.
    answer = await mover.click(hand, custom_id=stale_confirm)

    assert answer.acknowledged and answer.response is not None
    assert answer.response.content in (
        "The table has moved on; here is the current view.",
        f"It is {waiting.name}'s turn, not yours.",
    )
    assert (await current_table(world)).version == version
    assert (await world.bot.service.hand(table_id, f"dc:{waiting.id}")).hand == hands_before


async def test_confirm_out_of_turn_says_whose_turn_it_is(world: World) -> None:
    await start_1v1(world)
    mover, waiting = await movers(world)
    hand = await open_hand(world, waiting)
    first = next(a for a in actions(hand) if a.verb == "card")
    preview = await waiting.click(hand, custom_id=first.encode())
    assert preview.response is not None
    assert "Not your turn yet" in text_of(preview.response)  # a preview works off turn
    version = (await current_table(world)).version

    answer = await waiting.click(hand, custom_id=custom_id(hand, "play"))

    assert answer.response is not None and answer.response.content is not None
    assert "turn, not yours" in answer.response.content and mover.name in answer.response.content
    assert "Selected:" in text_of(answer.response)  # the card stays selected
    assert (await current_table(world)).version == version
