"""Whole matches through slash commands and button clicks, on simcord's in-memory Discord."""

from __future__ import annotations

import math

import pytest
from dc_world import (
    Players,
    PublicScan,
    World,
    actions,
    current_table,
    open_lobby,
    pinged,
    press,
    public,
    table_message,
    text_of,
    true_match,
)

pytestmark = pytest.mark.usefixtures("fast_settle")


def table_messages(world: World) -> list[int]:
    return [m.id for m in public(world) if m.embeds and "Basra · round" in (m.embeds[0].description or "")]


async def test_a_1v1_between_people_is_played_to_its_real_end(world: World) -> None:
    alice, bob = world.alice, world.bob
    # A real variant keeps it shorter: the match goes to 100.
    settings = await alice.slash(world.channel, "basra settings", variant="target 100", on=True)
    assert settings.acknowledged and settings.ephemeral

    lobby = await open_lobby(world, alice, "1v1")
    metadata = lobby.message.interaction_metadata
    assert metadata is not None and metadata.user.id == alice.id  # "alice used /basra new"
    assert "Match to 100" in text_of(lobby)
    await press(bob, lobby, "join")
    await press(alice, lobby, "start")
    assert actions(lobby) == [] and "The match has started." in text_of(lobby)

    table = await current_table(world)
    first_table = table_message(world)
    # The player to move is mentioned, and pinged, in a short message of its own.
    mover = world.member(table.seats[table.to_move or 0].player_id)
    ping = public(world)[-1]
    assert ping.raw_mentions == [mover.id] and pinged(world, ping) == [mover.id]
    players = Players(world, table.table_id, PublicScan(world))

    final = await players.play_to_end()

    assert final.status == "finished" and max(final.scores) >= 100 and final.winner is not None
    match = await true_match(world, table.table_id)
    assert match.over and match.scores == final.scores
    texts = [text_of(m) for m in public(world)]
    # One table message per round, edited in place, then a result message per round and one for the match.
    assert len(table_messages(world)) == final.round_no and table_messages(world)[0] == first_table.id
    assert sum("Round" in t and "is over" in t for t in texts) == final.round_no
    assert sum("The match is over" in t and "won!" in t for t in texts) == 1
    assert all(m.edited_at is not None for m in public(world) if m.id in table_messages(world))
    # Each round's message was last edited with the play that ended the round.
    rounds = [text_of(m) for m in public(world) if m.id in table_messages(world)]
    assert all("End of the round" in t and " played " in t for t in rounds[:-1])
    assert "The match is over" in rounds[-1] and " played " in rounds[-1]
    # The last table message has no "My hand" any more, only the match's Rematch and Record;
    # the turn pings are gone.
    assert [a.verb for a in actions(public(world)[-1])] == ["rematch", "record"]
    assert not any(m.raw_mentions for m in public(world))
    assert players.scan is not None and players.scan.checked > players.plays


async def test_a_2v2_of_four_people_is_played_to_the_end(world: World) -> None:
    alice, bob, carol, dave = world.members
    await world.bot.service.set_rules(f"dc:{world.channel.id}", target=1)  # one round is enough
    lobby = await open_lobby(world, alice, "2v2")
    await press(bob, lobby, "join")
    await press(carol, lobby, "team", arg="0")  # alice's partner
    await press(dave, lobby, "join")
    await press(alice, lobby, "start")

    table = await current_table(world)
    assert table.players == 4
    by_seat = [s.player_id for s in table.seats]
    assert {by_seat[0], by_seat[2]} == {f"dc:{alice.id}", f"dc:{carol.id}"}  # partners sit opposite

    players = Players(world, table.table_id, PublicScan(world))
    final = await players.play_to_end()

    assert final.status == "finished" and final.round_no == 1 and players.plays == 48
    result = text_of(public(world)[-1])
    assert "won!" in result and "Team" in result


async def test_practice_with_computer_partners_plays_to_the_end(world: World) -> None:
    await world.bot.service.set_rules(f"dc:{world.channel.id}", target=1)
    lobby = await open_lobby(world, world.alice, "practice", players=4)
    await press(world.alice, lobby, "start")
    table = await current_table(world)
    assert sum(s.is_computer for s in table.seats) == 3 and table.practice

    players = Players(world, table.table_id, PublicScan(world))
    final = await players.play_to_end()

    assert final.status == "finished" and players.plays == 12  # the computers played the other 36
    assert "nothing counted" in text_of(public(world)[-1])


async def test_a_whole_match_against_the_expert_in_arabic(world: World) -> None:
    """A match to 121 against the strongest computer, in Arabic. The expert thinks for up
    to 150 ms a play without holding up the table; no public message shows a card in a
    hand, and Discord's rate limits are never met (the fixture checks)."""
    await world.alice.slash(world.channel, "basra settings", language="ar")
    lobby = await open_lobby(world, world.alice, "1v1")
    await press(world.alice, lobby, "computer", arg="expert")
    await press(world.alice, lobby, "start")
    table = await current_table(world)
    scan = PublicScan(world)
    players = Players(world, table.table_id, scan)
    final = await players.play_to_end()

    assert final.status == "finished" and final.winner is not None and final.round_no >= 2
    assert scan.checked >= players.plays
    # Markdown escapes the parentheses of the computer's name as the bot sends it.
    winner = "\u2068alice\u2069" if final.winner == 0 else "الكمبيوتر \\(خبير\\)"
    ending = text_of(public(world)[-1])
    assert "انتهت المباراة" in ending and f"الفائز: {winner}!" in ending, ending


async def test_the_turn_mention_only_ever_names_the_player_to_move(world: World) -> None:
    alice, bob = world.alice, world.bob
    await world.bot.service.set_rules(f"dc:{world.channel.id}", target=1)
    lobby = await open_lobby(world, alice, "2v2")
    await press(bob, lobby, "join")
    for _ in range(2):
        await press(alice, lobby, "computer", arg="beginner")
    await press(alice, lobby, "start")
    table = await current_table(world)
    assert sum(s.is_computer for s in table.seats) == 2

    players = Players(world, table.table_id)
    for _ in range(12):
        table = await players.play_turn()
        if not table.running:
            break
        mover = table.seats[table.to_move or 0].player_id
        # Once both hands are open nobody needs a ping; none may name the wrong person.
        pings = [m.raw_mentions for m in public(world) if m.raw_mentions]
        assert len(pings) <= 1 and all(f"dc:{ids[0]}" == mover for ids in pings), (pings, mover)
    assert players.plays == 12


async def test_the_turn_clock_counts_down_by_itself(world: World) -> None:
    lobby = await open_lobby(world, world.alice, "1v1")
    await press(world.bob, lobby, "join")
    await press(world.alice, lobby, "start")
    table = await current_table(world)
    assert table.deadline is not None
    # A live timestamp: Discord shows "in 59 minutes" and counts it down between edits.
    stamp = f"<t:{math.ceil(table.deadline)}:R>"
    assert f"time is up {stamp}" in (table_message(world).embeds[0].description or "")
    mover = world.member(table.seats[table.to_move or 0].player_id)
    hand = await Players(world, table.table_id).hand_of(mover)
    assert stamp in text_of(hand)
    await world.env.advance_time(30)  # the next turn's clock starts later
    after = await Players(world, table.table_id, hands={mover.id: hand}).play_turn()
    assert after.deadline is not None and after.deadline > table.deadline
    assert f"<t:{math.ceil(after.deadline)}:R>" in (table_message(world).embeds[0].description or "")
