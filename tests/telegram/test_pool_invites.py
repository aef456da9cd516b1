"""Bringing a partner to a two against two on Telegram: Bring a partner under a 2-v-2 search's
waiting message answers with a link to send to a friend; the friend who presses it joins the
searcher as partner, both waiting messages say they look for two opponents together, and a
wave with two more people seats the partners on one team. Every refusal is one localized line
and changes nothing. "Play someone again" under a 2-v-2's result looks for a 2-v-2 again."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

from bots.i18n import translator
from bots.service import (
    AlreadyPlaying,
    InviteBlocked,
    InviteExpired,
    InviterLeft,
    InviterPlaying,
    InviteWhileLooking,
    OwnInvite,
    ServiceError,
)
from tests.fakes import FakeMessage, FakeTelegram, FakeUser
from tests.telegram.test_pool import (
    person,
    pool_world,
    quiet_logs,
    result_of,
    state_of,
    stranger_table,
    waves,
)
from tests.telegram.test_pool_more import four, isolated, newest_with, nothing_of_the_others
from tests.telegram.world import World

LINK = re.compile(r"https://t\.me/(\w+)\?start=(\S+)")
#: How a 2-v-2 search's waiting message starts, alone and with a partner, in both languages.
ALONE = ("Looking for players: two against two…", "أبحث عن لاعبين: اثنان ضد اثنين…")
TOGETHER = ("Looking for two opponents", "أبحث عن منافسَين")


async def bring_a_partner(world: World, user: FakeUser) -> tuple[FakeMessage, str]:
    """The user presses Bring a partner under their 2-v-2 search's waiting message: the
    message that holds the link, and the link's payload."""
    looking = newest_with(world, user, *ALONE)
    pressed = await world.press_verb(user, looking, "invite")
    answer = world.server.callback_answer(pressed)
    assert answer is not None and not answer.text
    sent = newest_with(world, user, "Your invitation to play two against two", "دعوتك للعب اثنين ضد اثنين")
    found = LINK.search(sent.text)
    assert found is not None, sent.text
    bot, payload = found.groups()
    assert bot == world.app.bot.username
    return sent, payload


async def pool_of(world: World, *users: FakeUser) -> list[tuple[str, str | None] | None]:
    """Each user's place in the pool: their state and the partner they wait with."""
    store = world.basra.store
    assert store is not None
    entries = [await store.pool_entry(f"tg:{u.id}") for u in users]
    return [None if e is None else (e.state, e.partner) for e in entries]


async def refused(world: World, user: FakeUser, payload: str, error: ServiceError, *others: FakeUser) -> None:
    """The user presses the link: its answer is ``error``'s line in their language, and
    nobody's place in the pool changed."""
    before = await pool_of(world, user, *others)
    await world.send(user, None, f"/start {payload}")
    said = world.server.last_message(world.server.private_chat(user)).text
    command = "/resign" if isinstance(error, AlreadyPlaying) else "/practice"
    assert said == error.message(translator(user.language_code), command=command)
    assert await pool_of(world, user, *others) == before


async def test_a_friend_presses_the_link_and_the_two_play_on_one_team_against_the_pair_found(
    server: FakeTelegram, database: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bots")
    users = four(server)
    amal, badr, carla, dina = users
    async with pool_world(server, database) as world:
        await world.send(amal, None, "/play 2v2")
        looking = newest_with(world, amal, *ALONE)
        assert looking.button_data() == ["b1|invite||0", "b1|unseek||0"]

        sent, payload = await bring_a_partner(world, amal)

        assert sent.message_id > looking.message_id
        lines = sent.text.split("\n")
        assert lines[0] == "Your invitation to play two against two"
        assert lines[1] == ("Send this link to a friend: when they press it, they join you as your partner, "
                            "and I look for two opponents for you both. It works once, for 10 minutes.")
        assert lines[2] == f"https://t.me/{world.app.bot.username}?start={payload}"
        assert len(payload) <= 64 and re.fullmatch(r"[A-Za-z0-9_-]+", payload)
        assert str(amal.id) not in payload
        assert await state_of(world, badr) is None

        await world.send(badr, None, f"/start {payload}")

        joined = newest_with(world, badr, *TOGETHER)
        assert joined.text.startswith(f"أبحث عن منافسَين لك ولشريكك {isolated('Amal')}…")
        assert joined.button_data() == ["b1|unseek||0"]
        told = newest_with(world, amal, *TOGETHER)
        assert told.message_id == looking.message_id  # the same message, edited
        title = f"Looking for two opponents for you and your partner {isolated('بدر')}…"
        assert told.text.startswith(title)
        assert told.button_data() == ["b1|unseek||0"]
        partners = [("waiting", f"tg:{badr.id}"), ("waiting", f"tg:{amal.id}")]
        assert await pool_of(world, amal, badr) == partners
        for user, other in ((amal, "بدر"), (badr, "Amal")):  # a restarted bot still names them
            status = await world.basra.service.pool_status(person(user))
            assert status is not None and (status.message or {}).get("partner") == other

        await waves(world, 12)  # two are no table; the wait is over, and the computer is offered
        offered = newest_with(world, amal, *TOGETHER)
        assert offered.message_id == looking.message_id
        assert offered.text.startswith(title)  # still naming Badr
        assert "Play the computer" in offered.text
        assert [d.split("|")[1] for d in offered.button_data()] == ["solo", "wait", "unseek"]
        assert await state_of(world, amal) == await state_of(world, badr) == "waiting"

        for user in (carla, dina):
            await world.send(user, None, "/play 2v2")
        await waves(world, 2)

        table = await stranger_table(world, amal)
        assert (await stranger_table(world, badr)).table_id == table.table_id
        assert table.running and table.mode == "2v2"
        team = {s.player_id: s.team for s in table.seats}
        assert team[f"tg:{amal.id}"] == team[f"tg:{badr.id}"] != team[f"tg:{carla.id}"]
        found = newest_with(world, amal, "Players found: two against two")
        assert found.message_id == looking.message_id
        assert f"Your partner: {isolated('بدر')}" in found.text and not found.button_data()
        assert f"شريكك: {isolated('Amal')}" in newest_with(world, badr, "وجدت لاعبين").text
    assert nothing_of_the_others(server, users) > 10
    assert not server.unanswered_callback_queries()
    quiet_logs(caplog, *users)


async def test_each_refusal_is_one_line_in_the_presser_s_language_and_changes_nothing(
    server: FakeTelegram, database: Path
) -> None:
    amal, badr, carla, dina = four(server)
    async with pool_world(server, database) as world:
        store = world.basra.store
        assert store is not None
        await world.send(amal, None, "/play 2v2")
        _, payload = await bring_a_partner(world, amal)

        await refused(world, amal, payload, OwnInvite())

        await world.send(badr, None, "/practice")  # Badr plays the computer
        await refused(world, badr, payload, AlreadyPlaying(), amal)
        await world.send(badr, None, "/resign")

        await world.send(carla, None, "/play")  # Carla looks for a 1-v-1
        await refused(world, carla, payload, InviteWhileLooking(), amal)

        await store.block_player(f"tg:{dina.id}", f"tg:{amal.id}", world.clock.now())
        await refused(world, dina, payload, InviteBlocked(), amal)

        await world.send(amal, None, "/practice")  # Amal plays the computer meanwhile
        await refused(world, badr, payload, InviterPlaying(name="Amal"), amal)
        await world.send(amal, None, "/resign")

        await world.press_verb(amal, newest_with(world, amal, *ALONE), "unseek")  # and stops looking
        await refused(world, badr, payload, InviterLeft(name="Amal"), amal)

        await world.send(amal, None, "/play 2v2")
        _, payload = await bring_a_partner(world, amal)
        world.clock.jump(601)  # ten minutes and a second later
        await refused(world, badr, payload, InviteExpired(), amal)

        _, payload = await bring_a_partner(world, amal)
        await world.send(badr, None, f"/start {payload}")
        assert await state_of(world, badr) == "waiting"
        await world.send(carla, None, "/play")
        await world.press_verb(carla, newest_with(world, carla, "Looking for an opponent"), "unseek")
        await refused(world, carla, payload, InviteExpired(), amal, badr)  # it was used


async def test_whose_partner_stops_looking_is_told_and_may_bring_another(
    server: FakeTelegram, database: Path
) -> None:
    amal, badr, carla, _ = four(server)
    async with pool_world(server, database) as world:
        await world.send(amal, None, "/play 2v2")
        looking = newest_with(world, amal, *ALONE)
        _, payload = await bring_a_partner(world, amal)
        await world.send(badr, None, f"/start {payload}")

        await world.press_verb(badr, newest_with(world, badr, *TOGETHER), "unseek")

        alone = newest_with(world, amal, *ALONE)
        assert alone.message_id == looking.message_id
        assert alone.text.split("\n")[1] == (
            "Your partner stopped looking, so I am looking for a partner for you too.")
        assert alone.button_data() == ["b1|invite||0", "b1|unseek||0"]
        assert await pool_of(world, amal, badr) == [("waiting", None), None]

        _, again = await bring_a_partner(world, amal)
        await world.send(carla, None, f"/start {again}")
        assert newest_with(world, amal, *TOGETHER).text.startswith(
            f"Looking for two opponents for you and your partner {isolated('Carla')}…")


async def test_play_someone_again_after_two_against_two_looks_for_two_against_two(
    server: FakeTelegram, database: Path
) -> None:
    users = four(server)
    async with pool_world(server, database) as world:
        for user in users:
            await world.send(user, None, "/play 2v2")
        await waves(world, 2)
        table = await stranger_table(world, users[0])
        await world.send(users[1], None, "/resign")
        done = await world.basra.service.table(table.table_id)
        assert not done.running
        result = result_of(world, users[0])
        assert world.buttons(result, "seek") == ["b1|seek||0|||2v2"]

        await world.press_verb(users[0], result, "seek")

        assert newest_with(world, users[0], *ALONE).message_id > result.message_id
        status = await world.basra.service.pool_status(person(users[0]))
        assert status is not None and (status.state, status.mode) == ("waiting", "2v2")
