"""Playing through the service: previews, plays, refusals, versions (issue 3, RULES.md §3)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bots.service import (
    BadInput,
    CardNotInHand,
    HandUpdated,
    ManualClock,
    MatchOver,
    MustCapture,
    NoSuchPlan,
    NotSeated,
    NotYourTurn,
    StaleView,
    TableService,
    TableUpdated,
)
from storage import SqliteStore
from tests.service.helpers import (
    ALICE,
    BADR,
    CARLA,
    DINA,
    GROUP,
    QUIET,
    FakePlatform,
    deck_for,
    factory,
    play_out,
)

HANDS = ["6C 10C KS 9D", "5C 5D 8S 8H"]
FLOOR = "AH 2H 3S 4D"


@pytest.fixture
async def dealt(db_path: Path, clock: ManualClock, platform: FakePlatform) -> AsyncIterator[TableService]:
    async with (
        SqliteStore(db_path) as store,
        TableService(
            store, [platform], clock=clock, config=QUIET, match_factory=factory(deck_for(HANDS, FLOOR))
        ) as svc,
    ):
        yield svc


async def started(service: TableService) -> str:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    table = await service.start_match(lobby.table_id, ALICE)
    assert table.floor == tuple(FLOOR.split()) and table.to_move == 0
    return table.table_id


async def test_a_card_with_two_maximal_plans_previews_both_numbered(dealt: TableService) -> None:
    table_id = await started(dealt)
    before = await dealt.table(table_id)
    hand = await dealt.preview(table_id, ALICE.player_id, "6C")
    assert hand.preview is not None
    assert [(p.number, p.taken) for p in hand.preview.plans] == [
        (1, ("AH", "2H", "3S")),
        (2, ("2H", "4D")),
    ]
    assert hand.preview.selected == 1 and not hand.preview.takes_nothing
    assert (await dealt.table(table_id)) == before  # a preview changes nothing


async def test_a_sweep_of_the_floor_previews_as_basra(dealt: TableService) -> None:
    table_id = await started(dealt)
    hand = await dealt.preview(table_id, ALICE.player_id, "10C")
    assert hand.preview is not None and hand.preview.plans[0].basra
    assert hand.preview.plans[0].taken == tuple(FLOOR.split())


async def test_a_card_that_takes_nothing_says_so(dealt: TableService) -> None:
    table_id = await started(dealt)
    hand = await dealt.preview(table_id, ALICE.player_id, "KS")
    assert hand.preview is not None and hand.preview.takes_nothing and hand.preview.plans == ()


async def test_preview_works_off_turn_but_confirm_says_whose_turn(dealt: TableService) -> None:
    table_id = await started(dealt)
    hand = await dealt.preview(table_id, BADR.player_id, "5C")
    assert hand.preview is not None and not hand.your_turn
    with pytest.raises(NotYourTurn) as refused:
        await dealt.play(table_id, BADR.player_id, hand.version, "5C")
    assert refused.value.fields["name"] == "Alice"
    assert refused.value.fresh is not None


async def test_the_chosen_plan_is_the_one_played(dealt: TableService, platform: FakePlatform) -> None:
    table_id = await started(dealt)
    hand = await dealt.hand(table_id, ALICE.player_id)
    after = await dealt.play(table_id, ALICE.player_id, hand.version, "6C", 2)
    assert after.table.floor == ("AH", "3S")
    assert after.table.last_play is not None
    assert after.table.last_play.taken == ("2H", "4D") and not after.table.last_play.basra
    assert after.version > hand.version
    assert "6C" not in after.hand


async def test_basra_is_played_and_described(dealt: TableService) -> None:
    table_id = await started(dealt)
    hand = await dealt.hand(table_id, ALICE.player_id)
    after = await dealt.play(table_id, ALICE.player_id, hand.version, "10C")
    assert after.table.floor == ()
    assert after.table.last_play is not None and after.table.last_play.basra
    assert after.table.round_basras == (1, 0)


async def test_refusals_name_what_was_wrong_and_change_nothing(dealt: TableService) -> None:
    table_id = await started(dealt)
    hand = await dealt.hand(table_id, ALICE.player_id)
    with pytest.raises(CardNotInHand):
        await dealt.play(table_id, ALICE.player_id, hand.version, "5C")
    with pytest.raises(NoSuchPlan):
        await dealt.play(table_id, ALICE.player_id, hand.version, "6C", 3)
    with pytest.raises(MustCapture):
        await dealt.play(table_id, ALICE.player_id, hand.version, "6C", 0)
    with pytest.raises(BadInput):
        await dealt.play(table_id, ALICE.player_id, hand.version, "6X")
    with pytest.raises(NotSeated):
        await dealt.play(table_id, CARLA.player_id, hand.version, "6C")
    assert (await dealt.hand(table_id, ALICE.player_id)) == hand


async def test_a_stale_press_is_refused_with_a_fresh_view(dealt: TableService) -> None:
    table_id = await started(dealt)
    old = await dealt.hand(table_id, ALICE.player_id)
    await dealt.play(table_id, ALICE.player_id, old.version, "KS")
    bob = await dealt.hand(table_id, BADR.player_id)
    await dealt.play(table_id, BADR.player_id, bob.version, "8S")
    with pytest.raises(StaleView) as refused:
        await dealt.play(table_id, ALICE.player_id, old.version, "9D")
    fresh = refused.value.fresh
    assert fresh is not None and fresh.version > bob.version
    assert "9D" in fresh.hand  # type: ignore[union-attr]


async def test_a_double_pressed_confirm_plays_once(dealt: TableService, platform: FakePlatform) -> None:
    table_id = await started(dealt)
    hand = await dealt.hand(table_id, ALICE.player_id)
    await dealt.play(table_id, ALICE.player_id, hand.version, "KS")
    with pytest.raises(StaleView):
        await dealt.play(table_id, ALICE.player_id, hand.version, "KS")
    table = await dealt.table(table_id)
    assert table.floor.count("KS") == 1 and table.to_move == 1


async def test_every_action_tells_the_table_each_hand_and_the_next_player(
    dealt: TableService, platform: FakePlatform
) -> None:
    table_id = await started(dealt)
    hand = await dealt.hand(table_id, ALICE.player_id)
    platform.clear()
    await dealt.play(table_id, ALICE.player_id, hand.version, "KS")
    assert platform.kinds() == ["table_updated", "hand_updated", "hand_updated", "your_turn"]
    hands = {n.player_id: n.hand for n in platform.notices if isinstance(n, HandUpdated)}
    assert set(hands) == {ALICE.player_id, BADR.player_id}
    assert hands[BADR.player_id].hand == tuple(HANDS[1].split())
    assert platform.notices[-1].player_id == BADR.player_id


async def test_the_public_table_holds_counts_never_hand_cards(
    dealt: TableService, platform: FakePlatform
) -> None:
    table_id = await started(dealt)
    table = next(n.table for n in platform.notices if isinstance(n, TableUpdated))
    assert [s.cards for s in table.seats] == [4, 4]
    assert not hasattr(table, "hand")
    hidden = set(" ".join(HANDS).split())
    assert hidden.isdisjoint(set(table.floor))
    assert table_id


async def test_a_whole_1v1_match_between_people(
    service: TableService, clock: ManualClock, platform: FakePlatform
) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    await service.start_match(lobby.table_id, ALICE)
    final = await play_out(service, clock, lobby.table_id)
    assert final.status == "finished" and final.winner in (0, 1)
    assert max(final.scores) >= 121 and final.scores[0] != final.scores[1]
    rounds = platform.of("round_ended")
    assert len(rounds) == final.round_no and rounds[-1].result.match_over
    for notice in rounds:
        sides = notice.result.sides
        total = sum(s.points for s in sides)
        basras = sum(s.basras for s in sides)
        majority = sum(s.majority for s in sides)
        assert total == 13 + 10 * basras + majority  # 43 points = 30 majority + 13 in cards
        assert majority == (0 if notice.result.carry_out else 30 + notice.result.carry_in)
    result = platform.of("match_ended")[-1].result
    assert result.reason == "target" and result.counted and result.rated
    assert await service.open_table(GROUP) is None


async def test_a_whole_2v2_match_between_people(
    service: TableService, clock: ManualClock, platform: FakePlatform
) -> None:
    lobby = await service.new_lobby(GROUP, ALICE, "2v2")
    for person in (BADR, CARLA, DINA):
        await service.join(lobby.table_id, person)
    await service.start_match(lobby.table_id, ALICE)
    final = await play_out(service, clock, lobby.table_id)
    assert final.status == "finished" and final.players == 4
    result = platform.of("match_ended")[-1].result
    outcomes = {s.team: s.outcome for s in result.seats}
    assert outcomes[result.winner] == "win" and outcomes[1 - result.winner] == "loss"
    assert result.counted and not result.rated


async def test_computer_seats_play_their_own_turns(
    service: TableService, clock: ManualClock, platform: FakePlatform
) -> None:
    table = await service.practice(GROUP, ALICE, players=4)
    assert sum(s.is_computer for s in table.seats) == 3
    await clock.run_due()
    now = await service.table(table.table_id)
    assert now.to_move == 0 or now.seats[now.to_move].player_id == ALICE.player_id
    final = await play_out(service, clock, table.table_id)
    assert final.status == "finished"
    result = platform.of("match_ended")[-1].result
    assert result.practice and not result.counted


async def test_a_finished_match_refuses_plays(service: TableService, clock: ManualClock) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    await service.start_match(lobby.table_id, ALICE)
    hand = await service.hand(lobby.table_id, ALICE.player_id)
    await service.resign(lobby.table_id, BADR.player_id)
    with pytest.raises(MatchOver):
        await service.play(lobby.table_id, ALICE.player_id, hand.version, hand.hand[0])


async def test_nothing_is_delivered_before_it_is_committed(db_path: Path, clock: ManualClock) -> None:
    class Checking(FakePlatform):
        store: SqliteStore

        async def deliver(self, notices: object) -> None:
            for notice in notices:  # type: ignore[attr-defined]
                if isinstance(notice, TableUpdated):
                    stored = await self.store.get_table(notice.table_id)
                    assert stored is not None and stored.version == notice.table.version
            await super().deliver(notices)  # type: ignore[arg-type]

    platform = Checking()
    async with (
        SqliteStore(db_path) as store,
        TableService(store, [platform], clock=clock, config=QUIET) as svc,
    ):
        platform.store = store
        table = await svc.practice(GROUP, ALICE, players=4)
        final = await play_out(svc, clock, table.table_id)
        assert final.status == "finished" and len(platform.of("table_updated")) > 50


async def test_a_player_sits_in_several_chats_and_each_hand_belongs_to_one_match(
    service: TableService,
) -> None:
    first = await service.new_lobby(GROUP, ALICE)
    await service.join(first.table_id, BADR)
    await service.start_match(first.table_id, ALICE)
    second = await service.new_lobby("tg:-500", CARLA)
    await service.join(second.table_id, ALICE)
    await service.start_match(second.table_id, CARLA)
    hands = await service.hands_of(ALICE.player_id)
    assert [h.table_id for h in hands] == [first.table_id, second.table_id]
    assert {h.table.chat_id for h in hands} == {GROUP, "tg:-500"}
    with pytest.raises(NotSeated):
        await service.hand(second.table_id, BADR.player_id)
