"""A person erased: their profile and ratings go, their seats stay, anonymous; and finished
matches older than the operator keeps them go whole."""

from __future__ import annotations

from collections.abc import Callable

from storage import ChatSettings, Seat, Store, TableRecord
from storage.erasure import placeholder_for
from tests.storage.test_storage_results import finish_1v1

NewTable = Callable[..., TableRecord]


async def test_an_erased_person_leaves_no_profile_rating_or_settings(
    store: Store, new_table: NewTable
) -> None:
    await finish_1v1(store, new_table, "tg:-1", "tg:1", "tg:2")
    await store.set_player_language("tg:1", "en")
    await store.put_chat_settings(ChatSettings(chat_id="tg:1", language="en"))
    await store.keep_refs("t-any", {"hand:tg:1": [1, 2], "hand:tg:2": [3, 4], "table": [5, 6]})

    assert await store.forget_player("tg:1", "tg:erased-a") is True

    assert await store.get_player("tg:1") is None
    assert await store.rating_history("tg:1") == []
    assert await store.find_chat_settings("tg:1") is None
    assert await store.message_refs("t-any") == {"hand:tg:2": [3, 4], "table": [5, 6]}
    assert [s.player_id for s in await store.leaderboard()] == ["tg:2"]
    assert [s.player_id for s in await store.leaderboard("tg:-1")] == ["tg:2"]
    assert await store.player_stats("tg:1") is None
    other = await store.get_player("tg:2")
    assert other is not None and other.matches == 1


async def test_their_seats_become_one_anonymous_placeholder(store: Store, new_table: NewTable) -> None:
    seats = (Seat(player_id="tg:1", name="Ana", team=0), Seat(player_id="tg:2", name="Bob", team=1))
    played = []
    for chat in ("tg:-1", "tg:-2"):
        table = await store.create_table(new_table(chat_id=chat, created_by="tg:1", seats=seats))
        played.append(await store.update_table(table.model_copy(update={"status": "finished"})))
    lobby = await store.create_table(new_table(
        chat_id="tg:-3", created_by="tg:2", seats=seats[1:], header={"expected": ["tg:1", "tg:2"]}))

    anonymous = placeholder_for("tg:1")
    assert await store.forget_player("tg:1", anonymous)

    for before in played:
        after = await store.get_table(before.table_id)
        assert after is not None
        assert after.seats == (Seat(player_id=anonymous, name=None, team=0), seats[1])
        assert after.created_by == anonymous
        assert after.revision == before.revision + 1
    waiting = await store.get_table(lobby.table_id)
    assert waiting is not None and waiting.header == {"expected": [anonymous, "tg:2"]}
    assert await store.open_rows(player="tg:1") == []


async def test_a_practice_in_their_private_chat_moves_to_the_placeholder(
    store: Store, new_table: NewTable
) -> None:
    finished = await finish_1v1(store, new_table, "tg:1", "tg:1", "tg:2")

    assert await store.forget_player("tg:1", "tg:erased-b")

    moved = await store.get_table(finished.table_id)
    assert moved is not None and moved.chat_id == "tg:erased-b"
    assert [s.player_id for s in await store.leaderboard("tg:erased-b")] == ["tg:2"]


async def test_erasing_someone_never_stored_finds_nothing(store: Store) -> None:
    assert await store.forget_player("tg:404", "tg:erased-c") is False


async def test_finished_matches_older_than_kept_go_with_their_results(
    store: Store, new_table: NewTable, clock: Callable[[], float]
) -> None:
    old = await finish_1v1(store, new_table, "tg:-1", "tg:1", "tg:2")
    cut = clock()
    running = await store.create_table(new_table(chat_id="tg:-2"))
    await store.update_table(running.model_copy(update={"status": "running"}))
    recent = await finish_1v1(store, new_table, "tg:-3", "tg:1", "tg:2")

    assert await store.prune_finished(cut) == 1

    assert await store.get_table(old.table_id) is None
    assert await store.load_events(old.table_id) == []
    assert await store.get_table(recent.table_id) is not None
    assert await store.get_table(running.table_id) is not None
    assert [s.player_id for s in await store.leaderboard("tg:-1")] == []
    assert [h.table_id for h in await store.rating_history("tg:1")] == [recent.table_id]
    profile = await store.get_player("tg:1")
    assert profile is not None and profile.matches == 2  # totals stay
    assert await store.prune_finished(cut) == 0
