"""Results, profiles, ratings, leaderboards (RULES.md §6-7, issue 3)."""

from __future__ import annotations

from bots.service import ManualClock, TableService
from tests.service.helpers import ALICE, BADR, CARLA, DINA, GROUP, FakePlatform, play_out


async def start(service: TableService, chat: str = GROUP, *people: object) -> str:
    seated = people or (ALICE, BADR)
    lobby = await service.new_lobby(chat, seated[0], "2v2" if len(seated) == 4 else "1v1")  # type: ignore[arg-type]
    for person in seated[1:]:
        await service.join(lobby.table_id, person)  # type: ignore[arg-type]
    await service.start_match(lobby.table_id, seated[0])  # type: ignore[arg-type]
    return lobby.table_id


async def test_nothing_reaches_a_profile_before_the_match_ends(service: TableService) -> None:
    table_id = await start(service)
    hand = await service.hand(table_id, (await service.table(table_id)).seats[0].player_id or "")
    assert hand
    stats = await service.stats(ALICE.player_id)
    assert stats.line is None
    assert (await service.leaderboard()).lines == ()


async def test_resigning_a_1v1_gives_win_24_loss_3_and_moves_both_ratings(
    service: TableService, platform: FakePlatform
) -> None:
    table_id = await start(service)
    await service.resign(table_id, BADR.player_id)
    result = platform.of("match_ended")[-1].result
    assert result.reason == "resigned" and result.winner == 0 and result.resigned_seat == 1
    alice = await service.stats(ALICE.player_id)
    badr = await service.stats(BADR.player_id)
    assert alice.line is not None and badr.line is not None
    assert (alice.line.wins, alice.line.points, alice.line.matches) == (1, 24, 1)
    assert (badr.line.losses, badr.line.points) == (1, 3)
    assert alice.line.rating > 1500 > badr.line.rating
    assert alice.rated_matches == 1 and len(alice.rating_history) == 1
    by_seat = {s.player_id: s for s in result.seats}
    assert by_seat[ALICE.player_id].rating_before == 1500
    assert by_seat[ALICE.player_id].rating_after == alice.line.rating
    board = await service.leaderboard(GROUP)
    assert [line.player_id for line in board.lines] == [ALICE.player_id, BADR.player_id]


async def test_resigning_in_2v2_loses_for_the_whole_side(
    service: TableService, platform: FakePlatform
) -> None:
    table_id = await start(service, GROUP, ALICE, BADR, CARLA, DINA)
    table = await service.table(table_id)
    quitter = table.seat_of(CARLA.player_id)
    assert quitter is not None
    await service.resign(table_id, CARLA.player_id)
    result = platform.of("match_ended")[-1].result
    losers = {s.player_id for s in result.seats if s.outcome == "loss"}
    winners = {s.player_id for s in result.seats if s.outcome == "win"}
    partner = next(s.player_id for s in table.seats if s.team == quitter.team and s.seat != quitter.seat)
    assert losers == {CARLA.player_id, partner}
    assert len(winners) == 2
    assert not result.rated  # only 1-v-1 between people is rated
    for pid in winners:
        line = (await service.stats(pid)).line
        assert line is not None and line.points == 24 and line.rating == 1500


async def test_practice_never_counts(
    service: TableService, clock: ManualClock, platform: FakePlatform
) -> None:
    table = await service.practice(GROUP, ALICE)
    await play_out(service, clock, table.table_id)
    assert (await service.stats(ALICE.player_id)).line is None
    await service.practice(GROUP, ALICE)
    await clock.run_due()
    await service.resign_in_chat(GROUP, ALICE.player_id)
    assert (await service.stats(ALICE.player_id)).line is None
    assert (await service.leaderboard()).lines == ()


async def test_a_finished_match_records_basras_and_best_round(
    service: TableService, clock: ManualClock, platform: FakePlatform
) -> None:
    table_id = await start(service)
    await play_out(service, clock, table_id)
    result = platform.of("match_ended")[-1].result
    for seat in result.seats:
        line = (await service.stats(seat.player_id)).line
        assert line is not None and line.matches == 1
        best = max(r.sides[seat.team].points for r in result.rounds)
        assert line.best_round == best
    basras = sum(s.basras for r in result.rounds for s in r.sides)
    lines = [(await service.stats(s.player_id)).line for s in result.seats]
    assert sum(line.basras for line in lines if line) == basras


async def test_leaderboards_per_chat_and_global(service: TableService, platform: FakePlatform) -> None:
    first = await start(service, GROUP, ALICE, BADR)
    await service.resign(first, BADR.player_id)
    second = await start(service, "tg:-300", CARLA, BADR)
    await service.resign(second, CARLA.player_id)
    here = await service.leaderboard(GROUP)
    everywhere = await service.leaderboard()
    assert {line.player_id for line in here.lines} == {ALICE.player_id, BADR.player_id}
    assert {line.player_id for line in everywhere.lines} == {ALICE.player_id, BADR.player_id, CARLA.player_id}
    badr_here = (await service.stats(BADR.player_id, GROUP)).line
    badr_all = (await service.stats(BADR.player_id)).line
    assert badr_here is not None and badr_all is not None
    assert (badr_here.matches, badr_all.matches, badr_all.wins) == (1, 2, 1)
