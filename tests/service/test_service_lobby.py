"""Lobbies: who sits, on which team, who may start, and how a lobby ends (issue 3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots.service import (
    AlreadySeated,
    LobbyFull,
    LobbyNotOpen,
    ManualClock,
    NotCreator,
    NotReady,
    PracticeTable,
    TableExists,
    TableService,
    TeamFull,
    UnknownLevel,
)
from storage import SqliteStore
from tests.service.helpers import ALICE, BADR, CARLA, DINA, GROUP, FakePlatform


async def test_a_lobby_seats_its_creator_and_is_shown_in_the_chat(
    service: TableService, platform: FakePlatform
) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    assert [s.player_id for s in lobby.seats] == [ALICE.player_id]
    assert (lobby.capacity, lobby.mode, lobby.status) == (2, "1v1", "lobby")
    assert platform.kinds() == ["lobby_updated"]
    assert platform.notices[0].chat_id == GROUP
    assert await service.open_table(GROUP) == lobby


async def test_one_open_table_per_chat(service: TableService) -> None:
    await service.new_lobby(GROUP, ALICE)
    with pytest.raises(TableExists):
        await service.new_lobby(GROUP, BADR)
    other = await service.new_lobby("tg:-200", BADR)
    assert other.chat_id == "tg:-200"


async def test_a_person_cannot_sit_twice_and_a_full_table_refuses(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    with pytest.raises(AlreadySeated):
        await service.join(lobby.table_id, ALICE)
    await service.join(lobby.table_id, BADR)
    with pytest.raises(LobbyFull):
        await service.join(lobby.table_id, CARLA)


async def test_2v2_teams_partners_sit_opposite(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE, "2v2")
    await service.join(lobby.table_id, BADR, team=0)
    with pytest.raises(TeamFull):
        await service.join(lobby.table_id, CARLA, team=0)
    await service.join(lobby.table_id, CARLA)  # placed on the smaller team
    view = await service.join(lobby.table_id, DINA)
    assert [s.team for s in view.seats] == [0, 0, 1, 1]
    table = await service.start_match(lobby.table_id, ALICE)
    by_seat = [s.player_id for s in table.seats]
    # Team A (Alice, Badr) takes seats 0 and 2; team B seats 1 and 3.
    assert by_seat == [ALICE.player_id, CARLA.player_id, BADR.player_id, DINA.player_id]
    assert [s.team for s in table.seats] == [0, 1, 0, 1]


async def test_choosing_a_team_moves_a_seated_player(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE, "2v2")
    await service.join(lobby.table_id, BADR)
    view = await service.choose_team(lobby.table_id, BADR, 0)
    assert [s.team for s in view.seats] == [0, 0]
    view = await service.choose_team(lobby.table_id, CARLA, 1)  # not seated yet: joins
    assert view.seat_of(CARLA.player_id) is not None
    assert view.seat_of(CARLA.player_id).team == 1  # type: ignore[union-attr]


async def test_only_the_creator_starts_adds_computers_or_cancels(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    for action in (
        service.start_match(lobby.table_id, BADR),
        service.add_computer(lobby.table_id, BADR),
        service.cancel(lobby.table_id, BADR),
    ):
        with pytest.raises(NotCreator):
            await action


async def test_a_lobby_with_empty_seats_cannot_start(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE, "2v2")
    await service.join(lobby.table_id, BADR)
    with pytest.raises(NotReady):
        await service.start_match(lobby.table_id, ALICE)


async def test_a_computer_fills_a_seat_and_makes_it_practice(
    service: TableService, clock: ManualClock
) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    view = await service.add_computer(lobby.table_id, ALICE, "beginner")
    assert view.seats[1].computer == "beginner" and view.can_start
    with pytest.raises(UnknownLevel):
        await service.add_computer(lobby.table_id, ALICE, "grandmaster")
    table = await service.start_match(lobby.table_id, ALICE)
    assert table.practice and table.mode == "practice" and not table.rated


async def test_the_creator_may_take_a_computer_back_out(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE, "2v2")
    await service.add_computer(lobby.table_id, ALICE)
    view = await service.remove_computer(lobby.table_id, ALICE)
    assert [s.player_id for s in view.seats] == [ALICE.player_id]


async def test_a_practice_lobby_fills_empty_places_with_computers(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE, "practice", players=4)
    await service.join(lobby.table_id, BADR, team=1)
    table = await service.start_match(lobby.table_id, ALICE)
    assert [s.computer is None for s in table.seats] == [True, True, False, False]
    assert table.practice


async def test_cancelling_closes_the_lobby_and_frees_the_chat(
    service: TableService, platform: FakePlatform
) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    closed = await service.cancel(lobby.table_id, ALICE)
    assert closed.status == "cancelled"
    assert platform.kinds()[-1] == "lobby_closed" and platform.notices[-1].reason == "cancelled"  # type: ignore[union-attr]
    with pytest.raises(LobbyNotOpen):
        await service.join(lobby.table_id, BADR)
    assert await service.open_table(GROUP) is None
    await service.new_lobby(GROUP, BADR)


async def test_the_last_person_leaving_cancels_and_the_creator_role_passes_on(
    service: TableService, platform: FakePlatform
) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    view = await service.leave(lobby.table_id, ALICE)
    assert view.creator_id == BADR.player_id  # type: ignore[union-attr]
    await service.leave(lobby.table_id, BADR)
    assert platform.kinds()[-1] == "lobby_closed"
    assert await service.open_table(GROUP) is None


async def test_an_idle_lobby_expires_after_15_minutes(
    service: TableService, clock: ManualClock, platform: FakePlatform
) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    await clock.advance(10 * 60)
    await service.join(lobby.table_id, BADR)  # activity restarts the idle time
    await clock.advance(14 * 60)
    assert (await service.lobby(lobby.table_id)).status == "lobby"
    await clock.advance(60)
    assert (await service.lobby(lobby.table_id)).status == "expired"
    assert platform.notices[-1].kind == "lobby_closed"
    assert platform.notices[-1].reason == "expired"  # type: ignore[union-attr]
    assert await service.open_table(GROUP) is None


async def test_starting_closes_the_lobby_then_shows_table_hands_and_turn(
    service: TableService, platform: FakePlatform
) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    platform.clear()
    table = await service.start_match(lobby.table_id, ALICE)
    assert platform.kinds() == ["lobby_closed", "table_updated", "hand_updated", "hand_updated", "your_turn"]
    assert [n.player_id for n in platform.notices[2:]] == [
        ALICE.player_id,
        BADR.player_id,
        table.seats[table.to_move or 0].player_id,
    ]
    assert len(platform.batches) == 1


# -- whether a match counts, decided from who sits (issue 14) ---------------------------


async def test_a_one_against_one_practice_table_takes_nobody_else(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE, "practice", players=2)
    assert not lobby.joinable and not lobby.counted and not lobby.rated
    with pytest.raises(PracticeTable):
        await service.join(lobby.table_id, BADR)
    table = await service.start_match(lobby.table_id, ALICE)
    assert table.practice and not table.rated


async def test_a_two_against_two_practice_table_keeps_a_seat_for_a_computer(
    service: TableService, db_path: Path
) -> None:
    lobby = await service.new_lobby(GROUP, ALICE, "practice", players=4)
    assert lobby.joinable
    await service.join(lobby.table_id, BADR, team=0)
    view = await service.join(lobby.table_id, CARLA, team=1)
    assert not view.joinable  # three people: the fourth seat is the computer's
    with pytest.raises(PracticeTable):
        await service.join(lobby.table_id, DINA)
    table = await service.start_match(lobby.table_id, ALICE)
    assert [s.computer is not None for s in table.seats] == [False, False, False, True]
    assert not table.rated
    await service.resign(table.table_id, CARLA.player_id)
    for person in (ALICE, BADR, CARLA):  # practice reaches nobody's record
        assert (await service.stats(person.player_id)).line is None
    async with SqliteStore(db_path) as store:
        record = await store.get_table(table.table_id)
    assert record is not None and (record.mode, record.rated) == ("practice", False)


async def test_a_computer_makes_a_lobby_practice_and_the_lobby_says_so(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    assert lobby.counted and lobby.rated
    with_computer = await service.add_computer(lobby.table_id, ALICE, "beginner")
    assert not with_computer.counted and not with_computer.rated
    table = await service.start_match(lobby.table_id, ALICE)
    assert table.practice and not table.rated
    people = await service.new_lobby("tg:-300", BADR, "2v2")
    assert people.counted and not people.rated  # ratings move in 1-v-1 only


async def test_a_leave_press_once_the_match_runs_is_refused_not_a_resignation(
    service: TableService,
) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    await service.start_match(lobby.table_id, ALICE)
    with pytest.raises(LobbyNotOpen) as refused:
        await service.leave(lobby.table_id, BADR)
    assert refused.value.fresh is not None and refused.value.fresh.status == "running"
    assert (await service.table(lobby.table_id)).running


async def test_after_a_resignation_the_table_shows_the_cards_as_they_were(service: TableService) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    table = await service.start_match(lobby.table_id, ALICE)
    held = [s.cards for s in table.seats]
    assert held == [4, 4]
    final = await service.resign(lobby.table_id, BADR.player_id)
    assert not final.running and [s.cards for s in final.seats] == held
