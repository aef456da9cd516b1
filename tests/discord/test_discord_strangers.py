"""Strangers on Discord beyond one match of two: ``/basra play mode: 2v2`` seats four people
the pool found as two teams, each playing in their own DM; Rematch under a stranger 1-v-1's
result waits for that same opponent, who must press it too; the canned reactions are all
that passes from one stranger to another; ``/basra leaderboard scope: online`` ranks the
players of stranger matches alone. No DM shows anyone else's cards or id, in a text or in
a button's custom_id (``dc_pool.DirectScan``)."""

from __future__ import annotations

import re

import discord
import pytest
import simcord
from dc_config import BotFactory
from dc_pool import (
    CONFIG,
    WAVE,
    DirectPlayers,
    DirectScan,
    answer_text,
    click,
    dm,
    dm_table,
    one_round,
    pid,
    play,
    waiting_message,
    wave,
)
from dc_world import World, actions, body_of, buttons, open_lobby, press, public, text_of

from bots.discord import BasraBot
from bots.service import REACTIONS, Person, TableView, is_pool_chat

pytestmark = pytest.mark.usefixtures("fast_settle")

FSI, PDI = "\u2068", "\u2069"


@pytest.fixture
def simcord_bot(make_bot: BotFactory) -> BasraBot:
    return make_bot(config=CONFIG)


@pytest.fixture
def short(world: World) -> World:
    world.bot.service.tables.match_factory = one_round
    return world


def named(member: simcord.MemberActor) -> str:
    """A display name as messages show it: isolated."""
    return f"{FSI}{member.name}{PDI}"


async def seated_at(world: World, member: simcord.MemberActor) -> str | None:
    """The table the pool seated the member at, if it did."""
    status = await world.bot.service.pool_status(Person(pid(member), member.name))
    return status.table_id if status is not None and status.state == "seated" else None


async def pair(world: World, first: simcord.MemberActor, second: simcord.MemberActor) -> TableView:
    """Both ask for an opponent, and the next wave seats them together: their match."""
    await play(world, first)
    await second.user.slash("basra play")
    await wave(world)
    table_id = await seated_at(world, first)
    assert table_id is not None and table_id == await seated_at(world, second)
    return await world.bot.service.table(table_id)


def results_in(member: simcord.MemberActor) -> list[discord.Message]:
    """The match results the member reads in their DM (the last table message carries it)."""
    return [m for m in dm(member) if "The match is over" in body_of(m) and not m.flags.ephemeral]


def reactions_read(member: simcord.MemberActor) -> list[str]:
    """The reactions the member was shown: short messages of their own, content only."""
    words = "|".join(re.escape(w) for w in ("Good luck", "Well played", "Good game", "Thanks"))
    return [m.content for m in dm(member)
            if not m.flags.ephemeral and not m.embeds and re.search(f": \\S+ (?:{words})$", m.content or "")]


def everything_to(member: simcord.MemberActor) -> str:
    """Every text and custom_id the member was ever shown in their DM."""
    return "\n".join(f"{body_of(m)}\n{' '.join(b.custom_id or '' for b in buttons(m))}" for m in dm(member))


# -- two against two --------------------------------------------------------------------


async def test_four_strangers_play_two_against_two_each_in_their_dm(world: World) -> None:
    people = world.members
    service = world.bot.service

    asked = await people[0].slash(world.channel, "basra play", mode="2v2")
    assert asked.ephemeral and "direct messages" in answer_text(asked)
    for member in people[1:]:
        answer = await member.user.slash("basra play", mode="2v2")
        assert answer.acknowledged and answer.ephemeral
    looking = waiting_message(people[3])
    assert "Looking for players: two against two" in body_of(looking)
    assert "4 people are looking, you included." in body_of(looking)
    entries = await world.bot.store.pool_entries(["dc"], "waiting")
    assert sorted(e.mode for e in entries) == ["2v2"] * 4

    await wave(world)

    table_ids = {await seated_at(world, member) for member in people}
    assert len(table_ids) == 1 and None not in table_ids
    (table_id,) = table_ids
    assert table_id is not None
    table = await service.table(table_id)
    assert table.running and is_pool_chat(table.chat_id) and len(table.seats) == 4
    team_of = {s.player_id: s.team for s in table.seats}
    for member in people:
        partner = next(m for m in people if m is not member and team_of[pid(m)] == team_of[pid(member)])
        opponents = [m for m in people if team_of[pid(m)] != team_of[pid(member)]]
        found = body_of(waiting_message(member))
        assert "Players found: two against two" in found, found
        assert f"Your partner: {named(partner)}" in found
        line = next(x for x in found.splitlines() if x.startswith("Opponents: "))
        assert all(named(m) in line for m in opponents) and named(partner) not in line
        assert actions(waiting_message(member)) == []
        shown = dm_table(member)
        assert "My hand" in text_of(shown)
        assert [a.verb for a in actions(shown)] == ["hand", *["react"] * len(REACTIONS)]
    # Each DM holds its own table message; nothing went to the server's channel.
    assert len({dm_table(m).id for m in people}) == 4
    assert public(world) == []

    scan = DirectScan(world, [(v, pid(o)) for v in people for o in people if o is not v])
    await scan.check(table_id)
    players = DirectPlayers(world, table_id, scan)
    for _ in range(2 * len(people)):  # two cards each
        await players.play_turn()
    assert set(players.hands) == {m.id for m in people} and players.plays == 8
    for member in people:  # one table message per DM, the seat's own, edited in place
        tables = [m for m in dm(member) if not m.flags.ephemeral and "Basra · round 1" in body_of(m)]
        assert len(tables) == 1, f"{len(tables)} table messages in {member.name}'s DM"

    quitter = people[1]
    resigned = await quitter.user.slash("basra resign")
    assert resigned.ephemeral and "You resigned" in answer_text(resigned)
    final = await service.table(table_id)
    assert final.status == "finished" and final.end_reason == "resigned"
    assert final.winner is not None and final.winner != team_of[pid(quitter)]
    await world.env.settle()
    await scan.check(table_id)
    for member in people:
        result = results_in(member)
        assert result, f"no result in {member.name}'s DM"
        assert "resigned" in body_of(result[-1]) and named(quitter) in body_of(result[-1])
        # Two against two has no Rematch: look again, block, react.
        assert [a.verb for a in actions(result[-1])] == ["seek", "block", *["react"] * len(REACTIONS)]
        assert not any(a.verb == "hand" for m in dm(member) if not m.flags.ephemeral for a in actions(m))
    assert public(world) == []


# -- rematch between strangers ----------------------------------------------------------


async def test_a_rematch_one_asks_alone_seats_nobody(short: World) -> None:
    world = short
    alice, bob, carol = world.alice, world.bob, world.carol
    table = await pair(world, alice, bob)
    await bob.user.slash("basra resign")
    await world.env.settle()
    result = results_in(alice)[-1]
    assert [a.verb for a in actions(result)][:3] == ["again", "seek", "block"]
    seen_by_bob = len(dm(bob))

    asked = await click(alice, result, "again", table_id=table.table_id)

    assert asked.ephemeral and f"You asked {named(bob)} for a rematch" in answer_text(asked)
    waiting = waiting_message(alice)
    assert f"Rematch with {named(bob)}: waiting for them" in body_of(waiting)
    assert str(bob.id) not in everything_to(alice)
    # Someone else looking now is never seated in bob's place.
    await carol.user.slash("basra play")
    for _ in range(int(CONFIG.pool_wait_seconds // WAVE) + 2):
        await wave(world)
    status = await world.bot.service.pool_status(Person(pid(alice), alice.name))
    assert status is not None and status.state == "waiting"
    assert await seated_at(world, carol) is None
    assert await world.bot.service.open_table(f"dc:{alice.user.dm_channel.id}") is None
    # After the wait the computer is offered, still naming whom the rematch waits for.
    offer = waiting_message(alice)
    assert offer.id == waiting.id
    assert f"{named(bob)} has not pressed Rematch yet" in body_of(offer)
    assert [a.verb for a in actions(offer)] == ["solo", "wait", "unseek"]
    kept = await click(alice, offer, "wait")
    assert kept.response is not None and f"Rematch with {named(bob)}" in body_of(kept.response)
    # Pressing it again changes nothing: still one search.
    again = await click(alice, result, "again", table_id=table.table_id)
    assert again.ephemeral and "already looking" in answer_text(again)
    # bob was told nothing of it: nothing of one stranger reaches the other but reactions.
    assert dm(bob)[seen_by_bob:] == []


async def test_after_a_restart_a_rematch_still_names_whom_it_waits_for(
    short: World, make_bot: BotFactory
) -> None:
    world = short
    alice, bob = world.alice, world.bob
    await pair(world, alice, bob)
    await bob.user.slash("basra resign")
    await world.env.settle()
    await click(alice, results_in(alice)[-1], "again")
    waiting = waiting_message(alice)

    await world.bot.close()
    await world.env.restart_bot(make_bot(config=CONFIG))
    for _ in range(4):  # the count is refreshed at least every 30 seconds
        await wave(world)

    edited = waiting_message(alice)
    assert edited.id == waiting.id and edited.edited_at is not None
    assert f"Rematch with {named(bob)}: waiting for them" in body_of(edited)
    assert "looking, you included" not in body_of(edited)


async def test_a_rematch_both_ask_for_is_a_new_match_of_the_same_two(short: World) -> None:
    world = short
    alice, bob = world.alice, world.bob
    service = world.bot.service
    first = await pair(world, alice, bob)
    await DirectPlayers(world, first.table_id, DirectScan(world, [(alice, pid(bob)), (bob, pid(alice))])
                        ).play_to_end()
    await world.env.settle()

    await click(alice, results_in(alice)[-1], "again")
    await wave(world)
    assert await seated_at(world, alice) is None  # bob has not asked yet
    await click(bob, results_in(bob)[-1], "again")
    await wave(world)

    table_id = await seated_at(world, alice)
    assert table_id is not None and table_id != first.table_id and table_id == await seated_at(world, bob)
    second = await service.table(table_id)
    assert second.running and is_pool_chat(second.chat_id)
    assert {s.player_id for s in second.seats} == {pid(alice), pid(bob)}
    for member, other in ((alice, bob), (bob, alice)):
        assert f"Opponent found: {named(other)}" in body_of(waiting_message(member))
        assert dm_table(member).id != dm_table(other).id
    scan = DirectScan(world, [(alice, pid(bob)), (bob, pid(alice))])
    await scan.check(table_id)
    await DirectPlayers(world, table_id, scan).play_turn()
    assert public(world) == []


# -- reactions --------------------------------------------------------------------------


async def test_reactions_show_the_senders_display_name_and_a_fourth_in_a_minute_is_refused(
    world: World,
) -> None:
    alice, bob = world.alice, world.bob
    table = await pair(world, alice, bob)
    shown = dm_table(alice)
    assert [a.arg for a in actions(shown) if a.verb == "react"] == list(REACTIONS)
    assert all(a.table_id == table.table_id for a in actions(shown))

    sent = []
    for key in ("good_luck", "well_played", "thanks"):
        answer = await click(alice, dm_table(alice), "react", arg=key)
        assert answer.ephemeral
        sent.append(answer_text(answer))
    assert sent == ["Sent: 👋 Good luck", "Sent: 👏 Well played", "Sent: 🙏 Thanks"]

    too_many = await click(alice, dm_table(alice), "react", arg="good_game")

    assert too_many.ephemeral
    assert re.fullmatch(r"That is enough reactions for now: try again in \d+ s\.", answer_text(too_many))
    await world.env.settle()
    read = reactions_read(bob)
    assert read == [f"{named(alice)}: 👋 Good luck", f"{named(alice)}: 👏 Well played",
                    f"{named(alice)}: 🙏 Thanks"]
    # A reaction mentions nobody and names the sender by display name only.
    for message in dm(bob):
        if message.content in read:
            assert message.raw_mentions == [] and not message.components
    assert str(alice.id) not in everything_to(bob) and str(bob.id) not in everything_to(alice)
    assert reactions_read(alice) == []  # the sender is told privately, not in their DM

    # A minute later the reactions are back; bob answers once the match is over, from its result.
    await world.env.advance_time(60)
    again = await click(alice, dm_table(alice), "react", arg="good_game")
    assert again.ephemeral and answer_text(again) == "Sent: 🤝 Good game"
    await bob.user.slash("basra resign")
    await world.env.settle()
    thanks = await click(bob, results_in(bob)[-1], "react", arg="thanks")
    assert thanks.ephemeral and answer_text(thanks) == "Sent: 🙏 Thanks"
    await world.env.settle()
    assert reactions_read(alice) == [f"{named(bob)}: 🙏 Thanks"]
    assert reactions_read(bob)[-1] == f"{named(alice)}: 🤝 Good game"


# -- the online ladder ------------------------------------------------------------------


async def test_the_online_ladder_ranks_the_players_of_stranger_matches_only(world: World) -> None:
    alice, bob, carol, dave = world.alice, world.bob, world.carol, world.dave
    await pair(world, alice, bob)
    await bob.user.slash("basra resign")
    # carol and dave play a match of the channel: it counts everywhere, not online.
    lobby = await open_lobby(world, carol, "1v1")
    await press(dave, lobby, "join")
    await press(carol, lobby, "start")
    await dave.slash(world.channel, "basra resign")
    await world.env.settle()
    # A channel's people talk in the channel: its match has no reactions.
    assert public(world) and not any(a.verb in ("react", "again") for m in public(world) for a in actions(m))

    online = await carol.slash(world.channel, "basra leaderboard", scope="online")

    assert online.ephemeral and online.response is not None
    board = body_of(online.response).strip()
    assert board.startswith("**Online ladder**"), board
    assert named(alice) in board and named(bob) in board
    assert named(carol) not in board and named(dave) not in board
    assert board.index(named(alice)) < board.index(named(bob))  # alice won
    everywhere = await carol.slash(world.channel, "basra leaderboard", scope="global")
    assert everywhere.response is not None
    assert all(named(m) in body_of(everywhere.response) for m in (alice, bob, carol, dave))
    in_dm = await alice.user.slash("basra leaderboard", scope="online")
    assert in_dm.response is not None and body_of(in_dm.response).strip() == board
