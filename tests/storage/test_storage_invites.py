"""Invitations to the pairing pool ("bring a partner"): kept whole, good once and until they
expire, used once however many press at once (in two processes too), forgotten a day after
they expire and when their maker or user is erased. On both backends."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from pydantic import ValidationError

from storage import PoolInvite, Store, open_store

NOW = 1_700_000_000.0
DAY = 86400.0
MINUTES_10 = 600.0


def invite(token: str = "AbC-12_xyZ890qwe", inviter: str = "tg:1", made_at: float = NOW,
           **fields: Any) -> PoolInvite:
    values: dict[str, Any] = {
        "token": token, "inviter": inviter, "chat_id": inviter, "name": f"Player {inviter}",
        "made_at": made_at, "until": made_at + MINUTES_10,
    }
    values.update(fields)
    return PoolInvite(**values)


async def test_an_invitation_is_kept_whole_and_a_taken_token_is_refused(store: Store) -> None:
    made = invite(name="سارة ♠", lang="ar", searching=True)
    assert await store.make_invite(made)
    assert await store.pool_invite(made.token) == made
    assert not await store.make_invite(invite(made.token, "tg:2"))  # the token is taken
    assert await store.pool_invite(made.token) == made
    assert await store.pool_invite("NoSuchToken1234") is None


async def test_an_invitation_is_used_once_and_only_while_it_is_good(store: Store) -> None:
    first, late = invite("FirstToken123456"), invite("LateToken1234567")
    for made in (first, late):
        assert await store.make_invite(made)

    used = await store.use_invite(first.token, "tg:2", NOW + 60)
    assert used == first.model_copy(update={"used_by": "tg:2", "used_at": NOW + 60})
    assert await store.use_invite(first.token, "tg:3", NOW + 61) is None  # good once
    assert await store.pool_invite(first.token) == used

    assert await store.use_invite(late.token, "tg:2", late.until) is None  # expired at ``until``
    assert await store.pool_invite(late.token) == late
    assert await store.use_invite("NoSuchToken1234", "tg:2", NOW) is None


async def test_many_presses_at_once_use_an_invitation_once(store: Store) -> None:
    made = invite()
    await store.make_invite(made)
    used = await asyncio.gather(*(store.use_invite(made.token, f"tg:{n}", NOW + 1) for n in range(2, 10)))
    [winner] = [u for u in used if u is not None]
    assert await store.pool_invite(made.token) == winner


async def test_two_processes_using_one_invitation_at_once_use_it_once(postgres_schema: str) -> None:
    async with open_store(postgres_schema) as first, open_store(postgres_schema) as second:
        for attempt in range(5):
            made = invite(f"Token{attempt}abcdefghij")
            await first.make_invite(made)
            used = await asyncio.gather(first.use_invite(made.token, "tg:2", NOW + 1),
                                        second.use_invite(made.token, "tg:3", NOW + 1))
            assert sum(u is not None for u in used) == 1


async def test_making_one_forgets_those_expired_a_day_before(store: Store) -> None:
    old, recent = invite("OldToken12345678"), invite("RecentToken12345", made_at=NOW + DAY)
    for made in (old, recent):
        await store.make_invite(made)
    await store.make_invite(invite("NewToken12345678", made_at=old.until + DAY + 1))
    assert await store.pool_invite(old.token) is None
    assert await store.pool_invite(recent.token) == recent


async def test_an_erased_person_leaves_no_invitation_they_made_or_used(store: Store) -> None:
    made, used, other = invite("MadeToken1234567"), invite("UsedToken1234567", "tg:2"), invite(
        "OtherToken123456", "tg:3")
    for each in (made, used, other):
        await store.make_invite(each)
    await store.use_invite(used.token, "tg:1", NOW + 1)

    assert await store.forget_player("tg:1", "tg:erased-a") is True  # no profile, only invitations

    assert await store.pool_invite(made.token) is None
    assert await store.pool_invite(used.token) is None
    assert await store.pool_invite(other.token) == other
    assert await store.forget_player("tg:1", "tg:erased-b") is False


async def test_invitations_outlast_the_store_closed_and_opened_again(database: str) -> None:
    made = invite(searching=True)
    async with open_store(database) as store:
        await store.make_invite(made)
    async with open_store(database) as store:
        assert await store.pool_invite(made.token) == made
        assert await store.use_invite(made.token, "tg:2", NOW + 1) is not None


@pytest.mark.parametrize("token", ["short", "has space in it1", "tg:1-and-more-of-it", "x" * 41])
def test_a_token_is_opaque_and_fits_a_link(token: str) -> None:
    with pytest.raises(ValidationError):
        invite(token)
