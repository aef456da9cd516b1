"""A round's last play reaches that round's table before its result (RULES.md §4, §5)."""

from __future__ import annotations

from pathlib import Path

from bots.i18n import translator
from bots.render import render_table
from bots.service import ManualClock, RoundClose, RoundEnded, TableService, TableUpdated
from storage import SqliteStore
from tests.service.helpers import ALICE, BADR, GROUP, FakePlatform, play_out


async def test_the_play_ending_a_round_is_shown_on_that_rounds_table_then_the_result_then_the_next_round(
    service: TableService, clock: ManualClock, platform: FakePlatform, db_path: Path
) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    await service.start_match(lobby.table_id, ALICE)
    final = await play_out(service, clock, lobby.table_id)
    async with SqliteStore(db_path) as store:
        events = [e.data for e in await store.load_events(lobby.table_id)]

    ended = [(b, i) for b in platform.batches for i, n in enumerate(b) if isinstance(n, RoundEnded)]
    assert len(ended) == final.round_no > 1
    for batch, i in ended:
        result = batch[i].result
        number = result.round_no
        closing = batch[i - 1]
        assert isinstance(closing, TableUpdated)
        table = closing.table
        # That round's table, as its last play left it.
        assert table.round_no == number and table.round_close is not None and table.floor == ()
        assert table.to_move is None and all(s.cards == 0 for s in table.seats)
        assert table.captured == tuple(side.cards for side in result.sides)
        last = [e for e in events if e["kind"] == "card_played" and e["round_no"] == number][-1]
        assert table.last_play is not None
        assert (table.last_play.seat, table.last_play.card) == (last["seat"], last["card"])
        taken = [e for e in events if e["kind"] == "cards_taken" and e["round_no"] == number]
        leftovers = [e for e in taken if e["last"]]
        if leftovers:
            assert table.round_close.leftovers == tuple(leftovers[0]["cards"])
            assert table.round_close.team == leftovers[0]["side"]
        else:
            assert table.round_close == RoundClose(number, (), None)
        # Then the next round's table, or the end of the match.
        after = [n.kind for n in batch[i + 1 :] if n.public]
        if result.match_over:
            assert after == ["match_ended"] and table.status == "finished"
        else:
            assert after == ["table_updated"] and batch[i + 1].table.round_no == number + 1  # type: ignore[union-attr]
        # Rendered: the last play and the leftovers, no button on a finished round.
        rendered = render_table(table, translator("en"))
        text = rendered.plain()
        assert " played " in text
        assert ("takes the cards left on the floor" in text) == bool(table.round_close.leftovers)
        assert ("End of the round" in text) != result.match_over
        assert rendered.buttons == ()
        assert "الأرض" in render_table(table, translator("ar")).plain()
