"""Bringing a partner to a two against two on Discord: Bring a partner under a 2-v-2 search's
waiting message answers the presser alone with the command a friend uses,
``/basra play mode: 2v2 invite: <code>``; the friend who uses it joins the searcher as
partner, both waiting messages say they look for two opponents together, and a wave with two
more people seats the partners on one team. A refusal is one line for the one who asked, and
changes nothing. "Play someone again" under a 2-v-2's result looks for a 2-v-2 again."""

from __future__ import annotations

import re

import pytest
import simcord
from dc_config import BotFactory
from dc_pool import CONFIG, answer_text, click, dm, pid, waiting_message, wave
from dc_world import World, actions, body_of, buttons, public

from bots.discord import BasraBot
from bots.i18n import translator
from bots.service import InviteExpired, OwnInvite, Person

pytestmark = pytest.mark.usefixtures("fast_settle")

FSI, PDI = "\u2068", "\u2069"
COMMAND = re.compile(r"/basra play mode: 2v2 invite: ([A-Za-z0-9_-]+)")


@pytest.fixture
def simcord_bot(make_bot: BotFactory) -> BasraBot:
    return make_bot(config=CONFIG)


def named(member: simcord.MemberActor) -> str:
    return f"{FSI}{member.name}{PDI}"


async def bring_a_partner(member: simcord.MemberActor) -> tuple[str, str]:
    """The member presses Bring a partner under their 2-v-2 search's waiting message: what
    they alone were told, and the invitation's code in it."""
    pressed = await click(member, waiting_message(member), "invite")
    assert pressed.ephemeral
    told = answer_text(pressed)
    found = COMMAND.search(told.replace("\\", ""))  # as typed: markdown escapes left out
    assert found is not None, told
    return told, found.group(1)


async def place(world: World, *members: simcord.MemberActor) -> list[tuple[str, str | None] | None]:
    """Each member's place in the pool: their state and the partner they wait with."""
    store = world.bot.store
    assert store is not None
    entries = [await store.pool_entry(pid(m)) for m in members]
    return [None if e is None else (e.state, e.partner) for e in entries]


async def test_a_friend_uses_the_code_and_the_two_play_on_one_team_against_the_pair_found(
    world: World,
) -> None:
    alice, bob, carol, dave = world.members
    service = world.bot.service
    asked = await alice.user.slash("basra play", mode="2v2")
    assert asked.ephemeral
    looking = waiting_message(alice)
    assert "Looking for players: two against two" in body_of(looking)
    assert [a.verb for a in actions(looking)] == ["invite", "unseek"]
    assert "Bring a partner" in next(b.label or "" for b in buttons(looking))

    told, code = await bring_a_partner(alice)

    assert "Your invitation to play two against two" in told and "It works once, for 10 minutes." in told
    assert str(alice.id) not in code and len(code) >= 16
    assert dm(bob) == []

    joined = await bob.user.slash("basra play", mode="2v2", invite=code)

    assert joined.ephemeral and f"You joined {named(alice)}" in answer_text(joined)
    mine = waiting_message(bob)
    assert f"Looking for two opponents for you and your partner {named(alice)}" in body_of(mine)
    assert [a.verb for a in actions(mine)] == ["unseek"]
    theirs = waiting_message(alice)
    assert theirs.id == looking.id  # the same message, edited
    assert f"Looking for two opponents for you and your partner {named(bob)}" in body_of(theirs)
    assert [a.verb for a in actions(theirs)] == ["unseek"]
    assert await place(world, alice, bob) == [("waiting", pid(bob)), ("waiting", pid(alice))]
    stored = await service.pool_status(Person(pid(alice), alice.name))
    assert stored is not None and (stored.message or {}).get("partner") == bob.name

    for member in (carol, dave):
        await member.user.slash("basra play", mode="2v2")
    await wave(world)

    status = await service.pool_status(Person(pid(alice), alice.name))
    assert status is not None and status.state == "seated" and status.table_id is not None
    table = await service.table(status.table_id)
    team = {s.player_id: s.team for s in table.seats}
    assert team[pid(alice)] == team[pid(bob)] != team[pid(carol)] == team[pid(dave)]
    found = body_of(waiting_message(alice))
    assert "Players found: two against two" in found and f"Your partner: {named(bob)}" in found
    assert f"Your partner: {named(alice)}" in body_of(waiting_message(bob))
    assert public(world) == []


async def test_a_refused_code_says_why_to_the_one_who_used_it_and_changes_nothing(world: World) -> None:
    alice, bob = world.alice, world.bob
    await alice.user.slash("basra play", mode="2v2")
    _, code = await bring_a_partner(alice)
    english = translator("en")

    own = await alice.user.slash("basra play", mode="2v2", invite=code)
    assert own.ephemeral and answer_text(own) == OwnInvite().message(english)
    mistyped = await bob.user.slash("basra play", invite=code[:-1] + ("A" if code[-1] != "A" else "B"))
    assert mistyped.ephemeral and answer_text(mistyped) == InviteExpired().message(english)
    assert await place(world, alice, bob) == [("waiting", None), None]
    assert [a.verb for a in actions(waiting_message(alice))] == ["invite", "unseek"]

    used = await bob.user.slash("basra play", invite=code)  # the mode follows the invitation
    assert used.ephemeral and f"You joined {named(alice)}" in answer_text(used)
    again = await world.carol.user.slash("basra play", mode="2v2", invite=code)
    assert again.ephemeral and answer_text(again) == InviteExpired().message(english)
    assert await place(world, world.carol) == [None]


async def test_play_someone_again_after_two_against_two_looks_for_two_against_two(world: World) -> None:
    people = world.members
    for member in people:
        await member.user.slash("basra play", mode="2v2")
    await wave(world)
    quitter = people[1]
    await quitter.user.slash("basra resign")
    await world.env.settle()
    result = [m for m in dm(people[0]) if "The match is over" in body_of(m) and not m.flags.ephemeral][-1]
    [again] = [a for a in actions(result) if a.verb == "seek"]
    assert again.arg == "2v2"

    sought = await click(people[0], result, "seek", arg="2v2")

    assert sought.ephemeral and "direct messages" in answer_text(sought)
    status = await world.bot.service.pool_status(Person(pid(people[0]), people[0].name))
    assert status is not None and (status.state, status.mode) == ("waiting", "2v2")
    assert "Looking for players: two against two" in body_of(waiting_message(people[0]))
