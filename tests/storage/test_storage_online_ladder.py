"""The online ladder: a leaderboard of the matches between strangers the pairing pool seated."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bots.service import ids
from storage import Standing, Store, TableRecord
from storage.pool import POOL_CHAT_MARK, is_pool_chat
from tests.storage.test_storage_results import finish_1v1

NewTable = Callable[..., TableRecord]

STRANGERS = ("tg:pool-abc123", "tg:pool-def456")


def totals(line: Standing) -> tuple[object, ...]:
    """A line without its rank."""
    return tuple(line.model_dump(exclude={"rank"}).values())


async def play_two_stranger_matches_and_a_group_match(store: Store, new_table: NewTable) -> None:
    await finish_1v1(store, new_table, STRANGERS[0], "tg:1", "tg:2", winner_basras=2, best_round=60)
    await finish_1v1(store, new_table, STRANGERS[1], "tg:3", "tg:1")
    await finish_1v1(store, new_table, "tg:-100123", "tg:1", "tg:4", winner_basras=5, best_round=100)
    # "pool-" that is not right after the platform: a chat's own name, no stranger match.
    await finish_1v1(store, new_table, "term:carpool-1", "tg:5", "tg:2")


async def test_the_online_ladder_ranks_the_strangers_players_by_those_matches_alone(
    store: Store, new_table: NewTable
) -> None:
    await play_two_stranger_matches_and_a_group_match(store, new_table)

    ladder = await store.leaderboard(online=True)
    assert {s.player_id for s in ladder} == {"tg:1", "tg:2", "tg:3"}
    assert [s.rank for s in ladder] == [1, 2, 3]
    for line in ladder:
        profile = await store.get_player(line.player_id)
        assert profile is not None and line.rating == profile.rating
    assert [s.rating for s in ladder] == sorted((s.rating for s in ladder), reverse=True)

    by_player = {s.player_id: s for s in ladder}
    one = by_player["tg:1"]
    assert (one.matches, one.wins, one.draws, one.losses) == (2, 1, 0, 1)
    assert (one.points, one.basras, one.best_round) == (24 + 3, 2, 60)
    everywhere = await store.player_stats("tg:1")
    assert everywhere is not None
    assert (everywhere.matches, everywhere.basras, everywhere.best_round) == (3, 7, 100)
    two = by_player["tg:2"]
    assert (two.matches, two.wins, two.losses, two.points) == (1, 0, 1, 3)

    # A player of one stranger match has the totals that match's chat scope gives them.
    for chat in STRANGERS:
        for line in await store.leaderboard(chat):
            if line.player_id != "tg:1":
                assert totals(by_player[line.player_id]) == totals(line)

    assert await store.leaderboard(online=True, limit=2) == ladder[:2]
    assert [s.player_id for s in await store.leaderboard("tg:-100123")] == ["tg:1", "tg:4"]


async def test_player_stats_online_gives_one_players_line_and_rank(store: Store, new_table: NewTable) -> None:
    await play_two_stranger_matches_and_a_group_match(store, new_table)
    ladder = await store.leaderboard(online=True)

    for line in ladder:
        assert await store.player_stats(line.player_id, online=True) == line
    assert await store.player_stats("tg:4", online=True) is None
    assert await store.player_stats("tg:5", online=True) is None
    assert await store.player_stats("nobody", online=True) is None


async def test_no_stranger_match_means_an_empty_ladder(store: Store, new_table: NewTable) -> None:
    assert await store.leaderboard(online=True) == []
    await finish_1v1(store, new_table, "tg:-100123", "tg:1", "tg:2")
    assert await store.leaderboard(online=True) == []
    assert await store.player_stats("tg:1", online=True) is None


async def test_a_chat_and_the_online_ladder_together_are_refused(store: Store) -> None:
    with pytest.raises(ValueError, match="online"):
        await store.leaderboard("tg:pool-abc123", online=True)
    with pytest.raises(ValueError, match="online"):
        await store.player_stats("tg:1", "tg:-100123", online=True)


def test_storage_knows_a_stranger_match_by_the_mark_the_service_writes() -> None:
    assert POOL_CHAT_MARK == ":" + ids.POOL_CHAT
    for platform in ids.PLATFORMS:
        chat = ids.pool_chat(platform, ids.new_table_id())
        assert is_pool_chat(chat) and ids.is_pool_chat(chat)
    for chat in ("tg:-100123", "dc:456", "term:carpool-1", "pool-abc123"):
        assert not is_pool_chat(chat)
