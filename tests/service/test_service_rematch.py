"""Rematch: the button on a finished match opens a lobby with the same seats and settings;
everyone who presses it is seated on their old side, and it starts when all are back."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from bots.i18n import translator
from bots.service import LobbyView, NotRunning, NotSeated, ServiceError, TableExists, TableService, TableView
from bots.service.errors import RematchStarting
from bots.service.notices import Notice
from tests.service.helpers import ALICE, BADR, CARLA, DINA, GROUP, FakePlatform


async def finished_1v1(service: TableService) -> str:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    await service.start_match(lobby.table_id, ALICE)
    await service.resign(lobby.table_id, BADR.player_id)
    return lobby.table_id


async def test_the_first_press_opens_the_lobby_and_the_last_one_back_starts_the_match(
    service: TableService,
) -> None:
    await service.set_rules(GROUP, target=61)
    old = await finished_1v1(service)
    lobby = await service.rematch(old, BADR)
    assert isinstance(lobby, LobbyView) and lobby.status == "lobby" and lobby.mode == "1v1"
    assert [s.player_id for s in lobby.seats] == [BADR.player_id]
    assert await service.rematch(old, BADR) == lobby  # pressing again changes nothing
    started = await service.rematch(old, ALICE)
    assert isinstance(started, TableView) and started.running and started.table_id == lobby.table_id
    assert {s.player_id for s in started.seats} == {ALICE.player_id, BADR.player_id}
    assert started.rules.target == 61 and started.rated


async def test_partners_come_back_on_their_own_sides(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE, "2v2")
    await service.join(lobby.table_id, BADR, team=0)
    await service.join(lobby.table_id, CARLA, team=1)
    await service.join(lobby.table_id, DINA, team=1)
    first = await service.start_match(lobby.table_id, ALICE)
    await service.resign(lobby.table_id, CARLA.player_id)
    for person in (DINA, BADR, CARLA):
        waiting = await service.rematch(lobby.table_id, person)
        assert isinstance(waiting, LobbyView)
    again = await service.rematch(lobby.table_id, ALICE)
    assert isinstance(again, TableView) and again.running
    sides = {s.player_id: s.team for s in again.seats}
    assert sides == {s.player_id: s.team for s in first.seats}


async def test_a_practice_match_comes_back_at_once_with_the_same_computers(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.add_computer(lobby.table_id, ALICE, "expert")
    first = await service.start_match(lobby.table_id, ALICE)
    await service.resign(first.table_id, ALICE.player_id)
    again = await service.rematch(first.table_id, ALICE)
    assert isinstance(again, TableView) and again.running and again.table_id != first.table_id
    assert [s.computer for s in again.seats] == [s.computer for s in first.seats] == [None, "expert"]


async def test_only_its_players_and_only_when_the_chat_is_free(service: TableService) -> None:
    old = await finished_1v1(service)
    with pytest.raises(NotSeated):
        await service.rematch(old, CARLA)
    await service.new_lobby(GROUP, CARLA)
    with pytest.raises(TableExists):
        await service.rematch(old, ALICE)


async def test_resign_as_a_rematch_starts_says_so_and_once_it_has_begun_resigns_it(
    service: TableService, platform: FakePlatform
) -> None:
    """``/resign`` meets the practice rematch while it is a lobby for a moment (its computer
    being seated): it says that a new match is starting and resigns nothing, rather than that
    "the match has not started" as the new hand arrives. Sent again, it resigns the new one."""
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.add_computer(lobby.table_id, ALICE, "beginner")
    first = await service.start_match(lobby.table_id, ALICE)
    await service.resign_in_chat(GROUP, ALICE.player_id)
    answers: list[object] = []
    deliver = platform.deliver

    async def resign_meanwhile(notices: Sequence[Notice]) -> None:
        await deliver(notices)
        if not answers and any(n.kind == "lobby_updated" for n in notices):
            try:
                answers.append(await service.resign_in_chat(GROUP, ALICE.player_id))
            except ServiceError as error:
                answers.append(error)

    platform.deliver = resign_meanwhile  # type: ignore[method-assign]
    again = await service.rematch(first.table_id, ALICE)
    assert isinstance(again, TableView) and again.running  # the rematch went on
    [refused] = answers
    assert isinstance(refused, RematchStarting)
    assert refused.message(translator("en")).startswith("A new match is starting here, so nothing was")
    assert (await service.table(again.table_id)).running
    ended = await service.resign_in_chat(GROUP, ALICE.player_id)
    assert ended.table_id == again.table_id and not ended.running and ended.winner == 1


async def test_resign_in_a_rematch_lobby_that_waits_for_its_players_says_a_new_match_is_starting(
    service: TableService,
) -> None:
    old = await finished_1v1(service)
    await service.rematch(old, BADR)
    with pytest.raises(RematchStarting):
        await service.resign_in_chat(GROUP, BADR.player_id)
    lobby = await service.new_lobby("tg:-200", ALICE)  # a lobby of its own: not started, as before
    with pytest.raises(NotRunning) as refused:
        await service.resign_in_chat("tg:-200", ALICE.player_id)
    assert type(refused.value) is NotRunning and lobby.status == "lobby"
