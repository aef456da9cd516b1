"""Chat settings: variants (RULES.md §8), clock, languages for chats and people."""

from __future__ import annotations

import pytest

from bots.service import BadSetting, ManualClock, Person, TableService
from tests.service.helpers import ALICE, BADR, GROUP, FakePlatform, play_out


async def test_variants_are_chosen_per_chat_and_reach_the_match(
    service: TableService, clock: ManualClock, platform: FakePlatform
) -> None:
    view = await service.set_variant(GROUP, "target 100", True)
    assert dict(view.variants)["target 100"] and view.rules.target == 100
    await service.set_variant(GROUP, "small majority", True)
    view = await service.set_variant(GROUP, "small majority", False)
    assert view.rules.majority_points == 30 and view.rules.target == 100
    lobby = await service.new_lobby(GROUP, ALICE)
    assert lobby.rules.target == 100
    await service.join(lobby.table_id, BADR)
    table = await service.start_match(lobby.table_id, ALICE)
    assert table.rules.target == 100
    final = await play_out(service, clock, table.table_id)
    assert max(final.scores) >= 100
    assert (await service.settings("tg:-999")).rules.target == 121  # another chat


async def test_an_open_lobby_follows_the_chats_settings_until_it_starts(
    service: TableService, platform: FakePlatform
) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    platform.clear()
    await service.set_variant(GROUP, "7D by count", True)
    await service.set_turn_seconds(GROUP, 60)
    updated = platform.of("lobby_updated")[-1].lobby
    assert updated.rules.seven_diamonds_basra == "count" and updated.turn_seconds == 60
    assert (await service.lobby(lobby.table_id)).turn_seconds == 60


async def test_optional_capture_lets_a_capturing_card_be_laid(
    service: TableService, clock: ManualClock
) -> None:
    await service.set_variant(GROUP, "optional capture", True)
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    await service.start_match(lobby.table_id, ALICE)
    for _ in range(200):
        table = await service.table(lobby.table_id)
        mover = table.seats[table.to_move or 0].player_id or ""
        hand = await service.hand(lobby.table_id, mover)
        for card in hand.hand:
            preview = (await service.preview(lobby.table_id, mover, card)).preview
            assert preview is not None
            if preview.plans:
                assert preview.can_lay
                after = await service.play(lobby.table_id, mover, hand.version, card, 0)
                assert after.table.floor[-1] == card
                return
        await service.play(lobby.table_id, mover, hand.version, hand.hand[0])
    raise AssertionError("no capturing card came up")


async def test_bad_settings_are_refused(service: TableService) -> None:
    with pytest.raises(BadSetting):
        await service.set_variant(GROUP, "no such variant", True)
    with pytest.raises(BadSetting):
        await service.set_turn_seconds(GROUP, 2)
    with pytest.raises(BadSetting):
        await service.set_rules(GROUP, target=0)
    with pytest.raises(BadSetting):
        await service.set_chat_language(GROUP, "fr")


async def test_languages_person_then_chat_then_platform_then_default(
    service: TableService, platform: FakePlatform
) -> None:
    assert await service.language(GROUP) == "ar"  # BASRA_LANGUAGE default
    assert await service.language(GROUP, ALICE) == "en"  # Alice's app is in English
    await service.set_chat_language(GROUP, "en")
    assert await service.language(GROUP) == "en"
    assert await service.language(GROUP, BADR) == "en"  # the chat's choice beats the platform's
    assert await service.set_player_language(BADR, "ar") == "ar"
    assert await service.language(GROUP, BADR) == "ar"  # the person's own choice wins
    silent = Person("tg:77", "Mona")
    await service.set_chat_language(GROUP, None)
    assert await service.language(GROUP, silent) == "ar"


async def test_notices_carry_each_readers_language(service: TableService, platform: FakePlatform) -> None:
    await service.set_player_language(BADR, "ar")
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    platform.clear()
    await service.start_match(lobby.table_id, ALICE)
    langs = {(n.kind, n.player_id): n.lang for n in platform.notices}
    assert langs[("table_updated", None)] == "ar"
    assert langs[("hand_updated", ALICE.player_id)] == "en"
    assert langs[("hand_updated", BADR.player_id)] == "ar"
