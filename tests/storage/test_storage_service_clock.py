"""The service's heartbeat and the "never chose" state of chat settings."""

from __future__ import annotations

from storage import ChatSettings, Store, open_store


async def test_the_last_heartbeat_survives_reopening(database: str) -> None:
    async with open_store(database) as store:
        assert await store.last_alive("tg") is None
        await store.note_alive("tg", 100.0)
        await store.note_alive("tg", 130.5)
        await store.note_alive("dc", 7.0)
    async with open_store(database) as store:
        assert await store.last_alive("tg") == 130.5
        assert await store.last_alive("dc") == 7.0


async def test_a_chat_that_never_chose_settings_is_told_apart(store: Store) -> None:
    assert await store.find_chat_settings("tg:-1") is None
    chosen = ChatSettings(chat_id="tg:-1", turn_seconds=120)
    await store.put_chat_settings(chosen)
    assert await store.find_chat_settings("tg:-1") == chosen
    assert await store.get_chat_settings("tg:-1") == chosen
