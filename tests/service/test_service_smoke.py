from __future__ import annotations

from bots.service import ManualClock, TableService
from tests.service.helpers import ALICE, BADR, GROUP, FakePlatform, play_out


async def test_a_whole_1v1_match(service: TableService, clock: ManualClock, platform: FakePlatform) -> None:
    lobby = await service.new_lobby(GROUP, ALICE)
    await service.join(lobby.table_id, BADR)
    table = await service.start_match(lobby.table_id, ALICE)
    assert table.running
    final = await play_out(service, clock, table.table_id)
    assert final.status == "finished"
    print(platform.kinds()[-5:])
