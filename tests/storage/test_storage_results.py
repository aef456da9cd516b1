"""Finished matches reach profiles, ratings and leaderboards exactly once."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from openskill.models import PlackettLuce

from storage import (
    DEFAULT_MU,
    DEFAULT_SIGMA,
    ChatSettings,
    MatchResult,
    NotFound,
    PlayerProfile,
    RatingChange,
    SeatOutcome,
    Store,
    TableRecord,
    VersionConflict,
    open_store,
)

NewTable = Callable[..., TableRecord]
MODEL = PlackettLuce()


def rated_move(winner: PlayerProfile, loser: PlayerProfile) -> tuple[RatingChange, ...]:
    """What the service does: rate a 1-v-1 with openskill from the profiles it read."""
    before = [MODEL.create_rating([p.mu, p.sigma], name=p.player_id) for p in (winner, loser)]
    after = MODEL.rate([[before[0]], [before[1]]], ranks=[1, 2])
    return tuple(
        RatingChange(
            player_id=p.player_id,
            before_mu=p.mu,
            before_sigma=p.sigma,
            before_rating=p.rating,
            after_mu=new.mu,
            after_sigma=new.sigma,
            after_rating=new.ordinal(),
        )
        for p, [new] in zip((winner, loser), after, strict=True)
    )


async def finish_1v1(
    store: Store,
    new_table: NewTable,
    chat_id: str,
    winner: str,
    loser: str,
    *,
    winner_basras: int = 0,
    best_round: int = 40,
) -> MatchResult:
    table = await store.create_table(new_table(chat_id=chat_id, rated=True))
    await store.update_table(table.model_copy(update={"status": "finished"}))
    profiles = [await store.get_player(p) or await store.upsert_player(p, p.upper()) for p in (winner, loser)]
    result = MatchResult(
        table_id=table.table_id,
        outcomes=(
            SeatOutcome(
                seat=0,
                player_id=winner,
                outcome="win",
                score=130,
                profile_points=24,
                basras=winner_basras,
                best_round=best_round,
            ),
            SeatOutcome(
                seat=1,
                player_id=loser,
                outcome="loss",
                score=90,
                profile_points=3,
                best_round=best_round // 2,
            ),
        ),
        ratings=rated_move(*profiles),
    )
    assert await store.record_result(result)
    return result


async def test_a_result_moves_every_profile_total(store: Store, new_table: NewTable) -> None:
    await finish_1v1(store, new_table, "tg:-1", "tg:1", "tg:2", winner_basras=3, best_round=70)
    await finish_1v1(store, new_table, "tg:-1", "tg:1", "tg:2", winner_basras=1, best_round=50)
    winner, loser = await store.get_player("tg:1"), await store.get_player("tg:2")
    assert (winner.matches, winner.wins, winner.losses, winner.points) == (2, 2, 0, 48)
    assert (winner.basras, winner.best_round, winner.rated_matches) == (4, 70, 2)
    assert (loser.matches, loser.wins, loser.losses, loser.points) == (2, 0, 2, 6)
    assert winner.mu > DEFAULT_MU > loser.mu
    assert winner.rating > loser.rating


async def test_a_retried_finish_counts_once(database: str, store: Store, new_table: NewTable) -> None:
    result = await finish_1v1(store, new_table, "tg:-1", "tg:1", "tg:2")
    profiles = [await store.get_player(p) for p in ("tg:1", "tg:2")]
    history = await store.rating_history("tg:1")
    await store.close()
    async with open_store(database) as reopened:
        assert await reopened.record_result(result) is False
        assert [await reopened.get_player(p) for p in ("tg:1", "tg:2")] == profiles
        assert await reopened.rating_history("tg:1") == history
        assert len(history) == 1


async def test_a_rating_computed_from_a_stale_read_is_refused(
    store: Store, new_table: NewTable
) -> None:
    stale = [await store.upsert_player(p, p) for p in ("tg:1", "tg:2")]
    await finish_1v1(store, new_table, "tg:-1", "tg:1", "tg:2")
    after_first = await store.get_player("tg:1")

    table = await store.create_table(new_table(chat_id="tg:-2", rated=True))
    late = MatchResult(
        table_id=table.table_id,
        outcomes=(
            SeatOutcome(seat=0, player_id="tg:1", outcome="win"),
            SeatOutcome(seat=1, player_id="tg:2", outcome="loss"),
        ),
        ratings=rated_move(*stale),
    )
    with pytest.raises(VersionConflict, match="tg:1"):
        await store.record_result(late)
    assert await store.get_player("tg:1") == after_first
    assert await store.leaderboard("tg:-2") == []


async def test_a_result_for_an_unknown_table_is_not_found(store: Store) -> None:
    with pytest.raises(NotFound):
        await store.record_result(
            MatchResult(table_id="nope", outcomes=(SeatOutcome(seat=0, outcome="win"),))
        )


async def test_the_last_action_and_the_result_commit_together(
    store: Store, new_table: NewTable
) -> None:
    table = await store.create_table(new_table(mode="practice", status="running"))
    result = MatchResult(
        table_id=table.table_id,
        outcomes=(
            SeatOutcome(seat=0, player_id="tg:42", name="Amr", outcome="win", basras=2),
            SeatOutcome(seat=1, outcome="loss"),
        ),
    )
    finished = table.model_copy(update={"status": "finished", "result": {"winner": 0}})
    stored = await store.append_events(
        table.table_id, 0, [{"kind": "match_over"}], table=finished, result=result
    )
    assert (stored.status, stored.result, stored.version) == ("finished", {"winner": 0}, 1)
    profile = await store.get_player("tg:42")
    assert (profile.name, profile.matches, profile.wins, profile.basras) == ("Amr", 1, 1, 2)
    assert (profile.mu, profile.sigma, profile.rated_matches) == (DEFAULT_MU, DEFAULT_SIGMA, 0)

    with pytest.raises(VersionConflict):
        await store.append_events(table.table_id, 0, [{"kind": "match_over"}], table=finished, result=result)
    assert (await store.get_player("tg:42")).matches == 1


async def test_leaderboards_rank_by_rating_then_points_per_chat_and_overall(
    store: Store, new_table: NewTable
) -> None:
    await finish_1v1(store, new_table, "tg:-1", "tg:1", "tg:2")
    await finish_1v1(store, new_table, "tg:-1", "tg:1", "tg:3")
    await finish_1v1(store, new_table, "dc:9", "tg:2", "dc:4")
    await finish_1v1(store, new_table, "dc:9", "tg:2", "dc:4")
    await finish_1v1(store, new_table, "dc:9", "tg:2", "dc:4")

    overall = await store.leaderboard()
    assert [s.player_id for s in overall] == ["tg:2", "tg:1", "tg:3", "dc:4"]
    assert [s.rank for s in overall] == [1, 2, 3, 4]
    assert [s.rating for s in overall] == sorted((s.rating for s in overall), reverse=True)
    assert (overall[0].matches, overall[0].wins, overall[0].losses, overall[0].points) == (
        4,
        3,
        1,
        75,
    )

    telegram_chat = await store.leaderboard("tg:-1")
    assert [s.player_id for s in telegram_chat] == ["tg:2", "tg:1", "tg:3"]
    tg2_here = telegram_chat[0]
    assert (tg2_here.matches, tg2_here.wins, tg2_here.losses, tg2_here.points) == (1, 0, 1, 3)
    assert [s.player_id for s in await store.leaderboard("dc:9")] == ["tg:2", "dc:4"]
    assert [s.player_id for s in await store.leaderboard(limit=2)] == ["tg:2", "tg:1"]
    assert await store.leaderboard("tg:-404") == []

    assert await store.player_stats("tg:3") == overall[2]
    assert await store.player_stats("tg:1", "tg:-1") == telegram_chat[1]
    assert await store.player_stats("dc:4", "tg:-1") is None


async def test_equal_ratings_rank_by_profile_points(store: Store, new_table: NewTable) -> None:
    for chat, winner, loser in (("tg:-1", "tg:1", "tg:2"), ("tg:-2", "tg:3", "tg:4")):
        table = await store.create_table(new_table(chat_id=chat, mode="2v2"))
        await store.record_result(
            MatchResult(
                table_id=table.table_id,
                outcomes=(
                    SeatOutcome(seat=0, player_id=winner, outcome="win", profile_points=24),
                    SeatOutcome(seat=1, player_id=loser, outcome="loss", profile_points=3),
                ),
            )
        )
    assert [s.player_id for s in await store.leaderboard()] == ["tg:1", "tg:3", "tg:2", "tg:4"]


async def test_rating_history_lists_moves_newest_first(store: Store, new_table: NewTable) -> None:
    first = await finish_1v1(store, new_table, "tg:-1", "tg:1", "tg:2")
    second = await finish_1v1(store, new_table, "tg:-1", "tg:2", "tg:1")
    history = await store.rating_history("tg:1")
    assert [h.table_id for h in history] == [second.table_id, first.table_id]
    assert history[0].before_mu == history[1].after_mu
    assert history[0].after_mu == (await store.get_player("tg:1")).mu
    assert len(await store.rating_history("tg:1", limit=1)) == 1


async def test_a_chat_that_gets_a_new_id_takes_its_settings_results_and_closed_tables(
    store: Store, new_table: NewTable
) -> None:
    await finish_1v1(store, new_table, "tg:-1", "tg:1", "tg:2")
    closed = await store.create_table(new_table(chat_id="tg:-1"))
    await store.update_table(closed.model_copy(update={"status": "cancelled"}))
    lobby = await store.create_table(new_table(chat_id="tg:-1"))
    await store.put_chat_settings(ChatSettings(chat_id="tg:-1", language="ar", rules={"target": 100}))
    await store.put_chat_settings(ChatSettings(chat_id="tg:-7", language="en"))
    standings = await store.leaderboard("tg:-1")

    await store.move_chat("tg:-1", "tg:-1009")
    await store.move_chat("tg:-7", "tg:-1009")  # the new id keeps the settings it has

    assert await store.leaderboard("tg:-1") == []
    assert await store.leaderboard("tg:-1009") == standings
    moved = await store.find_chat_settings("tg:-1009")
    assert moved is not None and moved.language == "ar" and moved.rules == {"target": 100}
    assert await store.find_chat_settings("tg:-1") is None
    assert (await store.get_table(closed.table_id)).chat_id == "tg:-1009"
    # The open table is its keeper's to move (with a row write that checks its revision).
    assert (await store.get_table(lobby.table_id)).chat_id == "tg:-1"
    assert await store.open_table_for_chat("tg:-1") == await store.get_table(lobby.table_id)


async def test_a_chat_moved_again_changes_nothing(store: Store, new_table: NewTable) -> None:
    """Telegram's notice may come after the bot has already followed the group (or before)."""
    await finish_1v1(store, new_table, "tg:-1", "tg:1", "tg:2")
    closed = await store.create_table(new_table(chat_id="tg:-1"))
    await store.update_table(closed.model_copy(update={"status": "cancelled"}))
    await store.put_chat_settings(ChatSettings(chat_id="tg:-1", language="ar", rules={"target": 100}))
    await store.move_chat("tg:-1", "tg:-1009")
    # Meanwhile the supergroup chose other settings, and a match finished there.
    await store.put_chat_settings(ChatSettings(chat_id="tg:-1009", language="en"))
    await finish_1v1(store, new_table, "tg:-1009", "tg:2", "tg:1")
    standings = await store.leaderboard("tg:-1009")
    moved = await store.get_table(closed.table_id)

    await store.move_chat("tg:-1", "tg:-1009")

    assert await store.leaderboard("tg:-1009") == standings
    assert [line.matches for line in standings] == [2, 2]
    assert await store.leaderboard("tg:-1") == []
    assert await store.get_table(closed.table_id) == moved  # not even a new revision
    settings = await store.find_chat_settings("tg:-1009")
    assert settings is not None and settings.language == "en" and settings.rules == {}
    assert await store.find_chat_settings("tg:-1") is None


async def test_a_row_read_before_its_chat_moved_is_not_written_back_over_the_move(
    store: Store, new_table: NewTable
) -> None:
    """A row written from a copy read before its chat moved must not undo the move."""
    table = await store.create_table(new_table(chat_id="tg:-1"))
    read = await store.update_table(table.model_copy(update={"status": "finished"}))

    await store.move_chat("tg:-1", "tg:-1009")

    kept = read.model_copy(update={"rated": True})
    with pytest.raises(VersionConflict, match="revision"):
        await store.update_table(kept)
    again = await store.get_table(table.table_id)
    assert again.chat_id == "tg:-1009" and again.revision == read.revision + 1
    stored = await store.update_table(again.model_copy(update={"rated": True}))
    assert stored.chat_id == "tg:-1009" and stored.rated
