"""The turn clock in a player's own chat: one notification a turn, and its play named as
played for *you*."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots.service import ServiceConfig
from tests.fakes import FakeTelegram
from tests.telegram.world import World

CLOCKED = ServiceConfig(computer_delay=0.0, warning_seconds=30, heartbeat_seconds=3600.0, language="en")
HURRY = {"en": "Hurry: 30 seconds left", "ar": "أسرع"}
FOR_YOU = {"en": "(played for you: time ran out)", "ar": "(لُعبت عنك تلقائيًا: انتهى الوقت)"}


@pytest.mark.parametrize("lang", ["en", "ar"])
async def test_an_absent_2v2_player_s_warning_edits_her_turn_message(
    server: FakeTelegram, database: Path, lang: str
) -> None:
    people = [server.add_user(name, language_code=lang) for name in ("Alice", "Badr", "Carla", "Dina")]
    for user in people:
        server.private_chat(user)
    alice, badr, carla, dina = people
    group = server.add_group("Majlis", people)
    async with World(server, database, config=CLOCKED) as world:
        await world.basra.service.set_turn_seconds(f"tg:{group.id}", 60)
        await world.send(alice, group, "/newgame 2v2")
        lobby = server.last_message(group)
        await world.press_verb(carla, lobby, "team", 0)
        await world.press_verb(badr, lobby, "team", 1)
        await world.press_verb(dina, lobby, "team", 1)
        await world.press_verb(alice, lobby, "start")
        table = await world.table(group)
        assert table is not None and table.to_move is not None
        late = next(u for u in people if f"tg:{u.id}" == table.seats[table.to_move].player_id)
        chat = server.private_chat(late)
        turn = world.hand_message(late)
        before = len(server.messages(chat, bot_only=True))

        await world.clock.advance(31)
        await world.basra.idle()
        # No second message: the warning is folded into the turn's own message.
        assert len(server.messages(chat, bot_only=True)) == before
        assert HURRY[lang] in turn.text and world.buttons(turn, "card")

        await world.clock.advance(30)
        await world.basra.idle()
        assert not any(m.deleted for m in server.messages(chat, bot_only=True))
        assert FOR_YOU[lang] in turn.text, turn.text
        # The group reads that it was played for them.
        assert not any(FOR_YOU[lang] in text for text in server.texts(group))
