"""Playing someone online on Discord: ``/basra play`` puts a person in the pairing pool, a
wave pairs two people, and each plays the match the pool found in their own DM with the
bot, through its buttons, without ever seeing the other's cards or id (``dc_pool``)."""

from __future__ import annotations

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
from dc_world import World, actions, as_message, custom_id, text_of

from bots.discord import BasraBot
from bots.service import Person, TableView, is_pool_chat

pytestmark = pytest.mark.usefixtures("fast_settle")


@pytest.fixture
def simcord_bot(make_bot: BotFactory) -> BasraBot:
    return make_bot(config=CONFIG)


@pytest.fixture
def short(world: World) -> World:
    world.bot.service.tables.match_factory = one_round
    return world


async def pair(world: World, first: simcord.MemberActor, second: simcord.MemberActor, *,
               asked: bool = False) -> TableView:
    """Both ask for an opponent (the first in the server, unless ``asked`` already; the
    second in their DM), and the next wave seats them: their match."""
    if not asked:
        answer = await play(world, first)
        assert answer.ephemeral and "direct messages" in answer_text(answer)
    answer = await second.user.slash("basra play")
    assert answer.acknowledged and answer.ephemeral
    await wave(world)
    status = await world.bot.service.pool_status(Person(pid(first), first.name))
    assert status is not None and status.state == "seated" and status.table_id is not None
    return await world.bot.service.table(status.table_id)



async def test_two_people_are_paired_and_play_a_whole_match_each_in_their_dm(short: World) -> None:
    world = short
    alice, bob = world.alice, world.bob
    service = world.bot.service

    asked = await play(world, alice)
    looking = waiting_message(alice)
    text = text_of(looking)
    assert "Looking for an opponent" in text and "\\(provisional\\)" in text  # markdown-escaped
    assert [a.verb for a in actions(looking)] == ["unseek"] and not as_message(looking).flags.ephemeral
    assert asked.ephemeral and "direct messages" in answer_text(asked) and dm(bob) == []

    table = await pair(world, alice, bob, asked=True)

    assert table.running and table.rated and is_pool_chat(table.chat_id)
    for member, other in ((alice, bob), (bob, alice)):
        found = waiting_message(member)
        assert f"Opponent found: \u2068{other.name}\u2069" in text_of(found), text_of(found)
        assert str(other.id) not in text_of(found) and actions(found) == []
        assert "My hand" in text_of(dm_table(member))
    # The table message of one DM is that person's own: the two DMs hold different messages.
    assert dm_table(alice).id != dm_table(bob).id
    # Nothing of the match went to the server's channel.
    assert world.channel.history() == []
    # Playing someone while a match runs is refused, pointing at the resign command.
    again = await play(world, alice)
    assert "/basra resign" in answer_text(again) and again.ephemeral

    scan = DirectScan(world, [(alice, pid(bob)), (bob, pid(alice))])
    await scan.check(table.table_id)
    players = DirectPlayers(world, table.table_id, scan)
    final = await players.play_to_end()

    assert final.status == "finished" and final.winner is not None and players.plays >= 48
    assert scan.checked > players.plays
    profile = await world.bot.store.get_player(pid(alice))
    assert profile is not None and profile.rated_matches == 1
    for member in (alice, bob):
        # The table message carries the result now, and no "My hand".
        assert not any(a.verb == "hand" for m in dm(member) if not m.flags.ephemeral for a in actions(m))
        results = [m for m in dm(member) if "The match is over" in text_of(m) and not m.flags.ephemeral]
        assert results, f"no result in {member.name}'s DM"
        assert [a.verb for a in actions(results[-1])] == ["again", "seek", "block", *["react"] * 4]
        assert not any(a.verb == "rematch" for m in dm(member) for a in actions(m))
        # The turn pings are gone once the match is over.
        assert not [m for m in dm(member) if m.raw_mentions and not m.flags.ephemeral]

    result = [m for m in dm(alice) if "The match is over" in text_of(m) and not m.flags.ephemeral][-1]
    blocked = await click(alice, result, "block")
    assert blocked.ephemeral and f"\u2068{bob.name}\u2069" in answer_text(blocked)
    assert await world.bot.store.blocked_pairs([pid(alice), pid(bob)])

    sought = await click(alice, result, "seek")
    assert sought.ephemeral and "direct messages" in answer_text(sought)
    status = await service.pool_status(Person(pid(alice), alice.name))
    assert status is not None and status.state == "waiting"
    assert "Looking for an opponent" in text_of(waiting_message(alice))


async def test_resign_in_the_dm_resigns_the_match_the_pool_found(short: World) -> None:
    world = short
    carol, dave = world.carol, world.dave
    table = await pair(world, carol, dave)

    resigned = await carol.user.slash("basra resign")

    assert resigned.acknowledged and resigned.ephemeral and "You resigned" in answer_text(resigned)
    final = await world.bot.service.table(table.table_id)
    assert final.status == "finished" and final.end_reason == "resigned"
    await world.env.settle()
    for member in (carol, dave):
        assert any("resigned" in text_of(m) and "The match is over" in text_of(m) and not m.flags.ephemeral
                   for m in dm(member))
    # Nothing else to resign now.
    after = await carol.user.slash("basra resign")
    assert after.ephemeral and "no game" in answer_text(after)


async def test_cancel_leaves_the_pool_and_a_press_on_an_old_waiting_message_changes_nothing(
    world: World,
) -> None:
    alice = world.alice
    service = world.bot.service
    await play(world, alice)
    looking = waiting_message(alice)
    looking_cancel = custom_id(looking, "unseek")

    stopped = await click(alice, looking, "unseek")

    assert stopped.response is not None and stopped.response.id == looking.id
    assert "You stopped looking" in text_of(stopped.response) and actions(stopped.response) == []
    assert "/basra play" in text_of(stopped.response)
    # Its Cancel is gone: a second press cannot even be made (simcord refuses it as Discord would).
    with pytest.raises(simcord.SetupError):
        await alice.user.click(stopped.response, custom_id=looking_cancel)
    assert await service.pool_status(Person(pid(alice), alice.name)) is None

    # A new search, left from elsewhere (another process, say): its message still offers Cancel.
    await play(world, alice)
    current = waiting_message(alice)
    assert current.id != looking.id
    await service.pool_cancel(Person(pid(alice), alice.name))
    shown = text_of(current)

    refused = await click(alice, current, "unseek")

    assert refused.ephemeral and "not waiting for an opponent" in answer_text(refused)
    assert text_of(waiting_message(alice)) == shown and waiting_message(alice).id == current.id


async def test_asking_twice_keeps_one_search_and_one_waiting_message(world: World) -> None:
    alice = world.alice
    first = await play(world, alice)
    second = await alice.user.slash("basra play")

    assert first.ephemeral and second.ephemeral
    assert "already looking" in answer_text(second)
    assert [e.player_id for e in await world.bot.store.pool_entries(["dc"])] == [pid(alice)]
    assert len([m for m in dm(alice) if "Looking for an opponent" in text_of(m)]) == 1


async def test_someone_alone_may_keep_waiting_or_play_the_computer_in_their_dm(world: World) -> None:
    alice = world.alice
    service = world.bot.service
    await play(world, alice)
    for _ in range(int(CONFIG.pool_wait_seconds // WAVE) + 1):
        await wave(world)
    offer = waiting_message(alice)
    assert [a.verb for a in actions(offer)] == ["solo", "wait", "unseek"], text_of(offer)
    assert "Play the computer" in text_of(offer)

    kept = await click(alice, offer, "wait")
    assert kept.response is not None and kept.response.id == offer.id
    assert "Play the computer" in text_of(kept.response)
    status = await service.pool_status(Person(pid(alice), alice.name))
    assert status is not None and status.state == "waiting"

    await click(alice, offer, "solo")

    assert await service.pool_status(Person(pid(alice), alice.name)) is None
    practice = await service.open_table(f"dc:{alice.user.dm_channel.id}")
    assert isinstance(practice, TableView) and practice.practice and practice.running
    assert "My hand" in text_of(dm_table(alice))
    # The waiting message has become the practice's start, with no buttons left.
    started = next(m for m in dm(alice) if m.id == offer.id)
    assert actions(started) == [] and "started" in text_of(started)
    hand = await click(alice, dm_table(alice), "hand")
    assert hand.ephemeral and hand.response is not None
    assert [a.card for a in actions(hand.response) if a.verb == "card"] == list(
        (await service.hand(practice.table_id, pid(alice))).hand
    )


async def test_after_a_restart_the_pool_edits_the_same_waiting_message(
    world: World, make_bot: BotFactory
) -> None:
    alice, bob = world.alice, world.bob
    await play(world, alice)
    looking = waiting_message(alice)

    await world.bot.close()
    await world.env.restart_bot(make_bot(config=CONFIG))
    await bob.user.slash("basra play")
    await wave(world)

    found = waiting_message(alice)
    assert found.id == looking.id and f"Opponent found: \u2068{bob.name}\u2069" in text_of(found)
    assert len([m for m in dm(alice) if not m.flags.ephemeral and "pponent" in text_of(m)]) == 1
    assert "My hand" in text_of(dm_table(alice))


async def test_in_the_dm_only_practice_opens(world: World) -> None:
    alice = world.alice
    refused = await alice.user.slash("basra new", mode="1v1")
    assert refused.ephemeral and "/basra play" in answer_text(refused)
    assert await world.bot.service.open_table(f"dc:{alice.user.dm_channel.id}") is None

    opened = await alice.user.slash("basra new", mode="practice")
    assert opened.acknowledged and opened.response is not None and not opened.response.ephemeral
    await click(alice, opened.response, "start")

    practice = await world.bot.service.open_table(f"dc:{alice.user.dm_channel.id}")
    assert isinstance(practice, TableView) and practice.practice and practice.running
    assert "My hand" in text_of(dm_table(alice))


async def test_someone_who_takes_no_dms_is_told_and_not_left_in_the_pool(world: World) -> None:
    alice = world.alice
    world.env.inject_error("POST", "/channels/*/messages", status=403, code=50007,
                           message="Cannot send messages to this user")

    asked = await play(world, alice)

    told = answer_text(asked)
    assert asked.ephemeral and "cannot send you direct messages" in told, told
    assert await world.bot.service.pool_status(Person(pid(alice), alice.name)) is None
    assert dm(alice) == []
