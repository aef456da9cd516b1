"""A finished match's record: given once the match is over, never while it is played."""

from __future__ import annotations

import doctest
import json

import pytest

from bots.service import (
    ManualClock,
    MatchNotOver,
    NoFinishedMatch,
    NoSuchTable,
    TableService,
    records,
)
from bots.service.records import record_json
from core import Match
from tests.service.helpers import ALICE, BADR, GROUP, play_out, play_turn


async def started(service: TableService) -> str:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    return (await service.start_match(lobby.table_id, ALICE)).table_id


async def one_play(service: TableService, table_id: str) -> None:
    table = await service.table(table_id)
    assert table.to_move is not None
    mover = table.seats[table.to_move].player_id
    assert mover is not None
    await play_turn(service, table_id, mover)


async def test_a_finished_match_s_record_replays_to_its_final_scores(
    service: TableService, clock: ManualClock
) -> None:
    table_id = await started(service)
    final = await play_out(service, clock, table_id)
    record = await service.last_record(GROUP)
    assert record == await service.record(table_id)
    assert record.table_id == table_id and record.chat_id == GROUP
    assert record.name.startswith("basra-") and record.name.endswith(f"-{table_id[:6]}.json")
    data = json.loads(record.data)
    assert data["format"] == "basra-record/1"
    replayed = Match.from_record(data)
    assert replayed.scores == final.scores and replayed.winner is not None
    assert record.data.decode() == record_json(data) + "\n"


async def test_no_record_while_the_match_is_played_nor_before_any_finished(service: TableService) -> None:
    with pytest.raises(NoFinishedMatch):
        await service.last_record(GROUP)
    table_id = await started(service)
    await one_play(service, table_id)
    with pytest.raises(MatchNotOver):
        await service.record(table_id)
    with pytest.raises(NoFinishedMatch):
        await service.last_record(GROUP)
    with pytest.raises(NoSuchTable):
        await service.record("000000000000")


async def test_a_resigned_match_has_a_record_that_stops_at_the_resignation(service: TableService) -> None:
    table_id = await started(service)
    await one_play(service, table_id)
    await service.resign(table_id, BADR.player_id)
    data = json.loads((await service.last_record(GROUP)).data)
    assert len(data["plays"]) == 1 and len(data["decks"]) == 1


async def test_a_cancelled_lobby_after_a_match_leaves_that_match_the_last_record(
    service: TableService, clock: ManualClock
) -> None:
    table_id = await started(service)
    await play_out(service, clock, table_id)
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.cancel(lobby.table_id, ALICE)
    assert (await service.last_record(GROUP)).table_id == table_id
    with pytest.raises(NoSuchTable):
        await service.record(lobby.table_id)


def test_the_file_name_and_the_json_layout_are_as_their_examples_say() -> None:
    result = doctest.testmod(records)
    assert result.attempted >= 2 and result.failed == 0
