"""One damaged table never stops the bot's process: ``python -m bots.telegram`` started on a
database where one match has an event row that no longer folds and another has seats that
are not seats keeps serving the third group; each damaged table is named in one log line,
its group told once, and it is closed so the group can play again. On SQLite (where the
damage can be text that is not JSON at all) and on PostgreSQL."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import asyncpg

from tests.fakes import FakeChat, FakeMessage, FakeTelegram, FakeUser
from tests.fakes.telegram_http import HttpFront
from tests.storage.backends import new_schema
from tests.telegram.test_process import Process, data_for, play_one, until

TOLD = ("تعذّر", "damaged", "تالف")  # the set-aside notice, whichever catalog speaks


def told_set_aside(server: FakeTelegram, group: FakeChat) -> list[FakeMessage]:
    return [m for m in server.messages(group, bot_only=True) if "table_set_aside" in m.text
            or any(word in m.text for word in TOLD)]


async def open_match(front: HttpFront, server: FakeTelegram, group: FakeChat,
                     alice: FakeUser, badr: FakeUser) -> FakeMessage:
    front.send(alice, group, "/newgame")
    lobby = await until("the lobby", lambda: next(
        (m for m in server.messages(group, bot_only=True) if data_for(m, "join")), None))
    assert isinstance(lobby, FakeMessage)
    front.press(badr, lobby, data_for(lobby, "join") or "")
    await until("the start button", lambda: data_for(lobby, "start"))
    front.press(alice, lobby, data_for(lobby, "start") or "")
    await until("the table", lambda: data_for(lobby, "hand"))
    return lobby


async def table_ids(database: str) -> dict[str, str]:
    """Each open table's id by its chat."""
    sql = "SELECT chat_id, table_id FROM tables WHERE status = 'running'"
    if database.startswith("postgresql"):
        conn = await asyncpg.connect(database)
        try:
            return {row[0]: row[1] for row in await conn.fetch(sql)}
        finally:
            await conn.close()
    with sqlite3.connect(database) as db:
        found = {row[0]: row[1] for row in db.execute(sql)}
    db.close()
    return found


async def damage(database: str, bad_event: str, bad_seats: str) -> None:
    """An event row that does not fold, and seats that are not seats (on SQLite, not even
    JSON: PostgreSQL's json type refuses that much)."""
    if database.startswith("postgresql"):
        conn = await asyncpg.connect(database)
        try:
            await conn.execute("UPDATE events SET data = '{\"kind\": \"dealt\", \"nonsense\": 1}'::json"
                               " WHERE table_id = $1 AND version = 2", bad_event)
            await conn.execute("UPDATE tables SET seats = '[{\"broken\": true}]'::json WHERE table_id = $1",
                               bad_seats)
        finally:
            await conn.close()
        return
    with sqlite3.connect(database) as db:
        db.execute("PRAGMA ignore_check_constraints = ON")  # as damage to the file would
        db.execute("UPDATE events SET data = '{\"kind\": \"dealt\", \"nonsen'"
                   " WHERE table_id = ? AND version = 2", (bad_event,))
        db.execute("UPDATE tables SET seats = '[{\"seat\": 0, ' WHERE table_id = ?", (bad_seats,))
    db.close()


async def serves_the_others(database: str, folder: Path) -> None:
    server = FakeTelegram()
    front = HttpFront(server)
    url = await front.start()
    people = [(server.add_user(f"A{n}"), server.add_user(f"B{n}")) for n in range(3)]
    for pair in people:
        for user in pair:
            server.private_chat(user)
    groups = [server.add_group(f"Cafe {n}", list(pair)) for n, pair in enumerate(people)]
    process = Process(url, server.token, folder / "basra.sqlite3",
                      BASRA_DATABASE=database)
    try:
        await until("the bot to poll", lambda: any(c.method == "getUpdates" for c in server.api_calls), 60)
        # The three side by side: each group's lobby is edited at the group's own pace.
        await asyncio.gather(*(open_match(front, server, group, alice, badr)
                               for group, (alice, badr) in zip(groups, people, strict=True)))
        code, stderr = await process.stop()
        assert code == 0, stderr[-2000:]
        ids = await table_ids(database)
        good, bad_event, bad_seats = (ids[f"tg:{g.id}"] for g in groups)
        await damage(database, bad_event, bad_seats)

        process = Process(url, server.token, folder / "basra.sqlite3",
                          BASRA_DATABASE=database)
        polls = sum(c.method == "getUpdates" for c in server.api_calls)
        # Polling starts once start-up (the service's own start included) is over.
        await until("the bot to poll again",
                    lambda: sum(c.method == "getUpdates" for c in server.api_calls) > polls, 60)
        assert process.popen.poll() is None, process.stderr()[-3000:]
        # Every group speaks; the damaged ones are told, once each, and the good one plays on.
        for group, (alice, _) in zip(groups, people, strict=True):
            front.send(alice, group, "/score")

        async def told_then_new_game(group: FakeChat, alice: FakeUser) -> None:
            try:
                await until("the damaged table's notice", lambda: told_set_aside(server, group))
            except AssertionError:
                seen = [m.text for m in server.messages(group)]
                raise AssertionError(f"{process.stderr()[-5000:]}\n{seen}") from None
            front.send(alice, group, "/newgame")  # a new game: the damaged one is closed
            await until("a new lobby", lambda: data_for(server.last_message(group), "join"))

        # (The good group's play and the damaged groups' notices and new games, side by side.)
        await asyncio.gather(play_one(front, server, list(people[0])),
                             *(told_then_new_game(group, alice)
                               for group, (alice, _) in zip(groups[1:], people[1:], strict=True)))
        await play_one(front, server, list(people[0]))
        assert [len(told_set_aside(server, g)) for g in groups] == [0, 1, 1]
        assert process.popen.poll() is None
        stderr = process.stderr()
        assert "Traceback" not in stderr, stderr[-3000:]
        for table_id in (bad_event, bad_seats):
            lines = [line for line in stderr.splitlines() if table_id in line]
            assert len(lines) == 1, lines
        assert good not in stderr
    finally:
        code, stderr = await process.stop()
        await front.stop()
    assert code == 0 and "Traceback" not in stderr, stderr[-2000:]


async def test_the_process_sets_a_damaged_table_aside_on_sqlite(tmp_path: Path) -> None:
    await serves_the_others(str(tmp_path / "basra.sqlite3"), tmp_path)


async def test_the_process_sets_a_damaged_table_aside_on_postgresql(tmp_path: Path) -> None:
    async with new_schema() as url:
        await serves_the_others(url, tmp_path)
