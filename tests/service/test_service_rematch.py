"""Rematch: the button on a finished match opens a lobby with the same seats and settings;
everyone who presses it is seated on their old side, and it starts when all are back."""

from __future__ import annotations

import pytest

from bots.service import LobbyView, NotSeated, TableExists, TableService, TableView
from tests.service.helpers import ALICE, BADR, CARLA, DINA, GROUP


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
