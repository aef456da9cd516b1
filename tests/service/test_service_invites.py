"""Bringing a partner to the pairing pool: an invitation a friend uses puts the two in the pool
as partners, whom a wave seats as one team of a 2-v-2 against the other pair it finds; every
refusal changes nothing. On both backends."""

from __future__ import annotations

import random
import re

import pytest

from bots.service import (
    INVITE_SECONDS,
    AlreadyPlaying,
    BadInput,
    InviteBlocked,
    InviteExpired,
    InviterLeft,
    InviterPlaying,
    InviteWhileLooking,
    ManualClock,
    OwnInvite,
    Person,
    PoolLooking,
    PoolNotHere,
    PoolPaired,
    PoolTogether,
    ServiceError,
    TableService,
)
from storage import PoolEntry, Store
from tests.service.helpers import ALICE, BADR, CARLA, DINA
from tests.service.test_service_pool import CONFIG, DANA, PoolPlatform, private
from tests.storage.backends import BACKENDS

pytestmark = pytest.mark.parametrize("backend", BACKENDS, indirect=True)

EMAD = Person("tg:5", "Emad", "en")


async def entries(store: Store, *people: Person) -> list[PoolEntry | None]:
    return [await store.pool_entry(p.player_id) for p in people]


async def partnered(pool: TableService, tg: PoolPlatform) -> str:
    """Alice looks for a 2-v-2 and brings Badr with an invitation: its token."""
    await pool.pool_join(ALICE, private(ALICE), "2v2")
    made = await pool.pool_invite(ALICE, private(ALICE))
    await pool.pool_accept(BADR, private(BADR), made.token)
    return made.token


async def test_a_friend_who_uses_the_invitation_waits_as_partner_and_a_wave_seats_them_as_one_team(
    pool: TableService, tg: PoolPlatform, store: Store
) -> None:
    waiting = await pool.pool_join(ALICE, private(ALICE), "2v2")
    assert not waiting.partnered
    made = await pool.pool_invite(ALICE, private(ALICE))
    assert made.mode == "2v2" and made.seconds == INVITE_SECONDS and made.searching
    assert re.fullmatch(r"[A-Za-z0-9_-]{16}", made.token)  # random, and no id in it

    joined = await pool.pool_accept(BADR, private(BADR), made.token)

    assert (joined.state, joined.mode, joined.partnered) == ("waiting", "2v2", True)
    assert joined.partners == ("Alice",)
    alice, badr = await entries(store, ALICE, BADR)
    assert alice is not None and badr is not None
    assert (alice.partner, badr.partner) == (BADR.player_id, ALICE.player_id)
    assert alice.state == badr.state == "waiting"
    together = [n for n in tg.told if isinstance(n, PoolTogether)]
    assert [(n.view.player_id, n.view.partners, n.view.partnered) for n in together] == [
        (ALICE.player_id, ("بدر",), True)
    ]
    status = await pool.pool_status(ALICE)
    assert status is not None and status.partnered and status.partners == ()

    assert await pool.pool_wave() == 0  # two alone are no table
    for person in (CARLA, DINA):
        await pool.pool_join(person, private(person), "2v2")
    assert await pool.pool_wave() == 1
    paired = {n.view.player_id: n.view for n in tg.told if isinstance(n, PoolPaired)}
    assert paired[ALICE.player_id].partners == ("بدر",) and paired[BADR.player_id].partners == ("Alice",)
    assert set(paired[ALICE.player_id].opponents) == {"Carla", "دينا"}
    table_id = paired[ALICE.player_id].table_id
    assert table_id is not None
    table = await pool.table(table_id)
    seat_a, seat_b = table.seat_of(ALICE.player_id), table.seat_of(BADR.player_id)
    assert seat_a is not None and seat_b is not None and seat_a.team == seat_b.team
    assert table.mode == "2v2" and table.running


async def test_an_invitation_is_good_once(pool: TableService, store: Store) -> None:
    token = await partnered(pool, PoolPlatform())
    before = await entries(store, ALICE, BADR, CARLA)
    with pytest.raises(InviteExpired):
        await pool.pool_accept(CARLA, private(CARLA), token)
    assert await entries(store, ALICE, BADR, CARLA) == before
    # A second invitation of Alice's, once she has a partner, brings nobody else either.
    with pytest.raises(BadInput):
        await pool.pool_invite(ALICE, private(ALICE))


async def test_two_invitations_bring_one_partner(pool: TableService, store: Store) -> None:
    await pool.pool_join(ALICE, private(ALICE), "2v2")
    first = await pool.pool_invite(ALICE, private(ALICE))
    second = await pool.pool_invite(ALICE, private(ALICE))
    assert first.token != second.token
    await pool.pool_accept(BADR, private(BADR), second.token)
    with pytest.raises(InviteExpired):
        await pool.pool_accept(CARLA, private(CARLA), first.token)
    assert await store.pool_entry(CARLA.player_id) is None
    invite = await store.pool_invite(first.token)
    assert invite is not None and invite.used_by is None


async def test_an_invitation_expires(pool: TableService, clock: ManualClock, store: Store) -> None:
    await pool.pool_join(ALICE, private(ALICE), "2v2")
    made = await pool.pool_invite(ALICE, private(ALICE))
    clock.jump(INVITE_SECONDS)
    with pytest.raises(InviteExpired):
        await pool.pool_accept(BADR, private(BADR), made.token)
    assert await store.pool_entry(BADR.player_id) is None
    alice = await store.pool_entry(ALICE.player_id)
    assert alice is not None and alice.partner is None
    for garbled in ("", "short", "tg:1", "x" * 41, "no such token at all"):
        with pytest.raises(InviteExpired):
            await pool.pool_accept(BADR, private(BADR), garbled)


async def refused(pool: TableService, store: Store, token: str, person: Person, error: type[ServiceError],
                  *others: Person) -> ServiceError:
    """Using ``token`` is refused with ``error``, and nothing changes: the pool's entries and
    the invitation stay as they were."""
    people = (person, *others)
    before, invite = await entries(store, *people), await store.pool_invite(token)
    with pytest.raises(error) as caught:
        await pool.pool_accept(person, private(person), token)
    assert await entries(store, *people) == before
    assert await store.pool_invite(token) == invite and (invite is None or invite.used_by is None)
    return caught.value


async def test_each_refusal_changes_nothing(pool: TableService, store: Store, clock: ManualClock) -> None:
    await pool.pool_join(ALICE, private(ALICE), "2v2")
    made = await pool.pool_invite(ALICE, private(ALICE))
    token = made.token

    await refused(pool, store, token, ALICE, OwnInvite)

    await pool.pool_join(BADR, private(BADR))  # Badr looks for a 1-v-1 already
    await refused(pool, store, token, BADR, InviteWhileLooking, ALICE)
    await pool.pool_cancel(BADR)

    practice = await pool.practice(private(CARLA), CARLA)  # Carla plays the computer
    await refused(pool, store, token, CARLA, AlreadyPlaying, ALICE)
    await pool.resign(practice.table_id, CARLA.player_id)

    await store.block_player(DINA.player_id, ALICE.player_id, clock.now())
    await refused(pool, store, token, DINA, InviteBlocked, ALICE)

    alice_practice = await pool.practice(private(ALICE), ALICE)  # Alice plays meanwhile
    error = await refused(pool, store, token, BADR, InviterPlaying, ALICE)
    assert error.fields == {"name": "Alice"}
    await pool.resign(alice_practice.table_id, ALICE.player_id)

    await pool.pool_cancel(ALICE)  # Alice stopped looking since
    error = await refused(pool, store, token, BADR, InviterLeft, ALICE)
    assert error.fields == {"name": "Alice"}

    await pool.pool_join(ALICE, private(ALICE))  # and looks for a 1-v-1 now
    await refused(pool, store, token, BADR, InviterLeft, ALICE)


async def test_an_invitation_made_outside_a_search_enters_both(
    pool: TableService, tg: PoolPlatform, store: Store
) -> None:
    made = await pool.pool_invite(ALICE, private(ALICE))
    assert not made.searching and await store.pool_entry(ALICE.player_id) is None

    joined = await pool.pool_accept(BADR, private(BADR), made.token)

    assert joined.partnered and joined.partners == ("Alice",)
    alice = await store.pool_entry(ALICE.player_id)
    assert alice is not None and alice.partner == BADR.player_id
    assert (alice.state, alice.mode) == ("waiting", "2v2")
    [told] = [n for n in tg.told if isinstance(n, PoolTogether)]
    assert told.view.player_id == ALICE.player_id and told.view.partners == ("بدر",)


async def test_invitations_are_for_a_two_against_two_in_a_private_chat(pool: TableService) -> None:
    await pool.pool_join(ALICE, private(ALICE))
    with pytest.raises(BadInput):  # a 1-v-1 search brings no partner
        await pool.pool_invite(ALICE, private(ALICE))
    with pytest.raises(BadInput):
        await pool.pool_invite(BADR, private(BADR), "1v1")
    with pytest.raises(PoolNotHere):
        await pool.pool_invite(DANA, "dc:70")  # this service serves no Discord
    with pytest.raises(PoolNotHere):
        await pool.pool_invite(BADR, "dc:1")


async def test_whose_partner_stops_looking_looks_on_alone_and_is_told(
    pool: TableService, tg: PoolPlatform, store: Store
) -> None:
    await partnered(pool, tg)
    await pool.pool_cancel(BADR)
    alice = await store.pool_entry(ALICE.player_id)
    assert alice is not None and alice.state == "waiting" and alice.partner is None
    [parted] = [n for n in tg.told if isinstance(n, PoolLooking) and n.parted]
    assert parted.view.player_id == ALICE.player_id and not parted.view.partnered
    # She is anyone's partner again: three more make a table.
    for person in (CARLA, DINA, EMAD):
        await pool.pool_join(person, private(person), "2v2")
    assert await pool.pool_wave() == 1


async def test_a_telegram_person_brings_a_discord_friend(
    store: Store, clock: ManualClock, tg: PoolPlatform
) -> None:
    dc = PoolPlatform("dc")
    async with TableService(store, [tg, dc], clock=clock, config=CONFIG, rng=random.Random(7)) as svc:
        await svc.pool_join(ALICE, private(ALICE), "2v2")
        made = await svc.pool_invite(ALICE, private(ALICE))
        joined = await svc.pool_accept(DANA, "dc:70", made.token)
        assert joined.partners == ("Alice",) and joined.chat_id == "dc:70"
        assert [n.view.partners for n in tg.told if isinstance(n, PoolTogether)] == [("Dana",)]
        assert not [n for n in dc.told if isinstance(n, PoolTogether)]
        # And a Discord person brings a Telegram friend.
        dina = Person("dc:8", "Dina", "ar")
        await svc.pool_join(dina, "dc:80", "2v2")
        back = await svc.pool_invite(dina, "dc:80")
        await svc.pool_accept(CARLA, private(CARLA), back.token)
        assert [n.view.partners for n in dc.told if isinstance(n, PoolTogether)] == [("Carla",)]
        assert await svc.pool_wave() == 1
        paired = {n.view.player_id: n.view for n in [*tg.told, *dc.told] if isinstance(n, PoolPaired)}
        assert paired[ALICE.player_id].partners == ("Dana",) and paired[CARLA.player_id].partners == ("Dina",)


async def test_a_forgotten_person_leaves_no_invitation(pool: TableService, store: Store) -> None:
    await pool.pool_join(ALICE, private(ALICE), "2v2")
    made = await pool.pool_invite(ALICE, private(ALICE))
    await pool.forget(ALICE.player_id)
    assert await store.pool_invite(made.token) is None
    with pytest.raises(InviteExpired):
        await pool.pool_accept(BADR, private(BADR), made.token)
