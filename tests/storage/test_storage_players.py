"""Chat settings and player profiles outlive the bot process."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from storage import (
    DEFAULT_MU,
    ChatSettings,
    MatchResult,
    NotFound,
    SeatOutcome,
    Store,
    TableRecord,
    open_store,
)


async def test_new_profiles_start_at_openskill_plackett_luce_defaults(
    store: Store,
) -> None:
    from openskill.models import PlackettLuce

    fresh = PlackettLuce().rating()
    created = await store.upsert_player("tg:1", "Ali")
    assert (created.mu, created.sigma, created.rating) == (
        fresh.mu,
        fresh.sigma,
        fresh.ordinal(),
    )
    assert await store.get_player("tg:1") == created


async def test_a_chat_that_chose_nothing_reads_as_the_defaults(store: Store) -> None:
    assert await store.get_chat_settings("dc:456") == ChatSettings(chat_id="dc:456")


async def test_chat_settings_survive_a_restart_and_can_be_changed(database: str) -> None:
    chosen = ChatSettings(
        chat_id="tg:-100123",
        language="ar",
        rules={"target": 100, "optional_capture": True},
        turn_seconds=90,
        ai_delay_ms=0,
    )
    async with open_store(database) as store:
        await store.put_chat_settings(chosen)
        await store.put_chat_settings(ChatSettings(chat_id="dc:1", language="en"))
    async with open_store(database) as store:
        assert await store.get_chat_settings("tg:-100123") == chosen
        await store.put_chat_settings(chosen.model_copy(update={"language": None, "rules": {}}))
    async with open_store(database) as store:
        changed = await store.get_chat_settings("tg:-100123")
        other = await store.get_chat_settings("dc:1")
    assert (changed.language, changed.rules, changed.turn_seconds) == (None, {}, 90)
    assert other.language == "en"


async def test_renaming_a_player_keeps_their_totals(
    store: Store, new_table: Callable[..., TableRecord]
) -> None:
    created = await store.upsert_player("tg:42", "Amr")
    assert (created.name, created.matches, created.mu) == ("Amr", 0, DEFAULT_MU)
    table = await store.create_table(new_table(mode="practice"))
    await store.record_result(
        MatchResult(
            table_id=table.table_id,
            outcomes=(
                SeatOutcome(seat=0, player_id="tg:42", outcome="draw", profile_points=8),
                SeatOutcome(seat=1, outcome="draw"),
            ),
        )
    )
    renamed = await store.upsert_player("tg:42", "Amr ♦")
    assert (renamed.name, renamed.matches, renamed.draws, renamed.points) == ("Amr ♦", 1, 1, 8)
    assert renamed.created_at == created.created_at
    assert renamed.updated_at > created.updated_at


async def test_a_player_language_is_kept_and_can_be_cleared(database: str) -> None:
    async with open_store(database) as store:
        await store.upsert_player("dc:7", "Sara")
        await store.set_player_language("dc:7", "ar")
    async with open_store(database) as store:
        assert (await store.get_player("dc:7")).language == "ar"
        await store.set_player_language("dc:7", None)
        assert (await store.get_player("dc:7")).language is None


async def test_unknown_players_read_as_none_and_cannot_get_a_language(
    store: Store,
) -> None:
    assert await store.get_player("tg:404") is None
    with pytest.raises(NotFound, match="tg:404"):
        await store.set_player_language("tg:404", "en")
