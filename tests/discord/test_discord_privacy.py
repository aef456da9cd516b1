"""Hands stay private: ephemeral to their owner, refused to others, absent from logs."""

from __future__ import annotations

import logging
import re

import pytest
import simcord
from dc_world import (
    Players,
    PublicScan,
    World,
    actions,
    current_table,
    custom_id,
    open_lobby,
    press,
    public,
    table_message,
    text_of,
)

pytestmark = pytest.mark.usefixtures("fast_settle")

CARD_IN_TEXT = re.compile(r"(?<![0-9A-Za-z])(10|[2-9AJQK])[CDHS](?![0-9A-Za-z])|[♠♥♦♣]")


async def start_1v1(world: World) -> str:
    lobby = await open_lobby(world, world.alice, "1v1")
    await press(world.bob, lobby, "join")
    await press(world.alice, lobby, "start")
    return (await current_table(world)).table_id


async def test_a_hand_is_seen_and_pressed_by_its_owner_only(world: World) -> None:
    table_id = await start_1v1(world)
    alice, bob, carol = world.alice, world.bob, world.carol

    opened = await press(alice, table_message(world), "hand")

    assert opened.ephemeral and opened.response is not None
    hand = opened.response
    cards = (await world.bot.service.hand(table_id, f"dc:{alice.id}")).hand
    assert [a.card for a in actions(hand) if a.verb == "card"] == list(cards)
    seen_by = {m.name: [x.id for x in world.channel.history(viewer=m)] for m in (alice, bob, carol)}
    assert hand.id in seen_by["alice"] and hand.id not in seen_by["bob"] and hand.id not in seen_by["carol"]
    assert hand.id not in [m.id for m in public(world)]
    # Discord itself keeps others from pressing it (simcord refuses the click like the client would).
    for other in (bob, carol):
        with pytest.raises(simcord.SetupError, match="not visible"):
            await other.click(hand, custom_id=custom_id(hand, "card", card=cards[0]))


async def test_presses_by_people_without_a_seat_are_refused_privately(world: World) -> None:
    alice, bob, carol = world.alice, world.bob, world.carol
    lobby = await open_lobby(world, alice, "1v1")
    await press(bob, lobby, "join")

    for verb in ("start", "cancel"):
        refused = await press(bob, lobby, verb)  # only the creator may
        assert refused.ephemeral and refused.response is not None
        assert refused.response.content == "Only the player who opened the table can do that."
    assert "join" not in [a.verb for a in actions(lobby)]  # full: no Join button any more
    # (a stale client's Join is refused as "The table is full.": tests/service)
    await press(alice, lobby, "start")
    table = await current_table(world)

    stranger = await press(carol, table_message(world), "hand")

    assert stranger.ephemeral and stranger.response is not None
    assert stranger.response.content == "You are not playing at this table."
    assert stranger.response.id not in [m.id for m in world.channel.history(viewer=alice)]
    assert (await current_table(world)).version == table.version  # nothing changed


async def test_no_hand_card_in_public_messages_or_log_lines(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    await world.bot.service.set_rules(f"dc:{world.channel.id}", target=1)
    table_id = await start_1v1(world)
    # A failure on the way is logged too: the log line must not say what was sent.
    world.env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=2)
    scan = PublicScan(world)
    players = Players(world, table_id, scan)
    for _ in range(10):
        await players.play_turn()
    refused = await press(world.carol, table_message(world), "hand")
    assert refused.ephemeral
    await players.play_to_end()

    assert scan.checked > 20
    ours = [r for r in caplog.records if r.name.split(".")[0] in ("bots", "storage", "core", "discord")]
    assert any("sending a table failed" in r.getMessage() for r in ours)
    leaks = [r.getMessage() for r in ours if CARD_IN_TEXT.search(r.getMessage())]
    assert leaks == []
    assert "The match is over" in text_of(public(world)[-1])

