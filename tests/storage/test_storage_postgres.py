"""PostgreSQL itself: its schema made once whoever starts first, the database's own
refusals, failures as one line without the password, and several stores (processes)
on one database never doing one thing twice."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import asyncpg
import pytest

from storage import PostgresStore, StorageError, Store, TableRecord, VersionConflict, open_store
from storage.schema import load_migrations

NewTable = Callable[..., TableRecord]
BOT = "tg:1"


async def _fetch(url: str, sql: str) -> list[asyncpg.Record]:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetch(sql)
    finally:
        await conn.close()


async def test_a_url_opens_a_postgres_store_shared_by_processes(postgres_schema: str) -> None:
    async with open_store(postgres_schema) as store:
        assert isinstance(store, PostgresStore) and store.shared
    async with open_store(postgres_schema.replace("postgresql://", "postgres://", 1)) as store:
        assert isinstance(store, PostgresStore)


async def test_stores_starting_at_once_on_an_empty_database_migrate_it_once(postgres_schema: str) -> None:
    stores = [open_store(postgres_schema) for _ in range(4)]
    await asyncio.gather(*(s.open() for s in stores))
    for store in stores:
        await store.close()
    rows = await _fetch(postgres_schema, "SELECT version, name FROM schema_version ORDER BY version")
    assert [(r["version"], r["name"]) for r in rows] == [
        (m.version, m.name) for m in load_migrations("postgresql")
    ]
    async with open_store(postgres_schema):  # and opening again migrates nothing
        pass
    assert len(await _fetch(postgres_schema, "SELECT * FROM schema_version")) == len(rows)


async def test_a_database_from_a_newer_program_is_refused(postgres_schema: str) -> None:
    async with open_store(postgres_schema):
        pass
    await _fetch(postgres_schema, "INSERT INTO schema_version VALUES (999, 'future', 0)")
    with pytest.raises(StorageError, match="newer"):
        await open_store(postgres_schema).open()


async def test_the_database_itself_refuses_a_doubled_event_and_a_second_open_table(
    postgres_schema: str, new_table: NewTable
) -> None:
    async with open_store(postgres_schema) as store:
        table = await store.create_table(new_table())
        await store.append_events(table.table_id, 0, [{"kind": "play"}])
    with pytest.raises(asyncpg.UniqueViolationError, match="events_pkey"):
        await _fetch(
            postgres_schema,
            f"INSERT INTO events VALUES ('{table.table_id}', 1, 'play', '{{}}', 0)",
        )
    with pytest.raises(asyncpg.UniqueViolationError, match="tables_one_open_per_chat"):
        await _fetch(
            postgres_schema,
            "INSERT INTO tables (table_id, chat_id, platform, status, mode, created_by, created_at,"
            f" updated_at) VALUES ('t2', '{table.chat_id}', 'tg', 'running', '1v1', 'x', 0, 0)",
        )


async def test_an_unreachable_server_is_one_line_without_the_password() -> None:
    store = open_store("postgresql://basra:hunter2@127.0.0.1:1/basra")
    assert isinstance(store, PostgresStore)
    with pytest.raises(StorageError) as refused:
        await store.open()
    message = str(refused.value)
    assert message.startswith("cannot open postgresql://basra:***@127.0.0.1:1/basra")
    assert "hunter2" not in message and "\n" not in message


async def test_a_store_whose_connections_were_cut_fails_as_a_storage_error_and_goes_on(
    postgres_schema: str,
) -> None:
    async with open_store(f"{postgres_schema}&application_name=basra-cut") as store:
        await _fetch(
            postgres_schema,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'basra-cut'",
        )
        outcomes = []
        for _ in range(3):
            try:
                outcomes.append(await store.last_alive("x"))
            except StorageError as error:
                outcomes.append(type(error))
        assert outcomes[-1] is None  # the pool made a new connection
        assert set(outcomes) <= {None, StorageError}


# Several processes on one database ---------------------------------------------


async def test_racing_claimers_never_share_a_table(postgres_schema: str, new_table: NewTable) -> None:
    async with open_store(postgres_schema) as one, open_store(postgres_schema) as two:
        tables = [
            await one.create_table(new_table(chat_id=f"tg:-{n}", owner=BOT, due_at=float(n)))
            for n in range(40)
        ]
        claims = await asyncio.gather(
            *(
                (one if n % 2 else two).claim_due([BOT], 100.0, f"holder-{n}", 60.0, limit=3)
                for n in range(20)
            )
        )
    taken = [table_id for claim in claims for table_id in claim]
    assert len(taken) == len(set(taken)) == len(tables)


async def test_racing_single_claims_have_one_winner(postgres_schema: str, new_table: NewTable) -> None:
    async with open_store(postgres_schema) as one, open_store(postgres_schema) as two:
        table = await one.create_table(new_table(owner=BOT))
        won = await asyncio.gather(
            *((one if n % 2 else two).claim(table.table_id, 100.0, f"h{n}", 60.0) for n in range(10))
        )
    assert sum(won) == 1


async def test_hold_excludes_across_stores(postgres_schema: str, new_table: NewTable) -> None:
    inside = 0
    most = 0

    async def hold(store: Store, n: int) -> None:
        nonlocal inside, most
        async with store.hold("table-1"):
            inside += 1
            most = max(most, inside)
            await asyncio.sleep(0.005)
            inside -= 1

    async with open_store(postgres_schema) as one, open_store(postgres_schema) as two:
        await asyncio.gather(*(hold(one if n % 2 else two, n) for n in range(12)))
        assert most == 1
        # A store's writes inside a hold go through: they use other connections.
        async with one.hold("table-1"), two.hold("table-2"):
            table = await one.create_table(new_table())
            await two.update_table(table.model_copy(update={"warned": True}))


async def test_a_hold_of_a_closed_connection_is_let_go_by_the_server(postgres_schema: str) -> None:
    async with open_store(postgres_schema) as one, open_store(postgres_schema) as two:
        holding = asyncio.Event()

        async def hold_forever() -> None:
            async with one.hold("k"):
                holding.set()
                await asyncio.sleep(3600)

        task = asyncio.create_task(hold_forever())
        await holding.wait()
        task.cancel()  # as a process that dies mid-block
        with pytest.raises(asyncio.CancelledError):
            await task
        async with asyncio.timeout(5), two.hold("k"):
            pass


async def test_a_rate_window_is_shared_by_stores(postgres_schema: str) -> None:
    async with open_store(postgres_schema) as one, open_store(postgres_schema) as two:
        now = 1000.0
        waits = await asyncio.gather(
            *((one if n % 2 else two).take_window("chat", 5, 10.0, now + n * 0.001) for n in range(30))
        )
        assert sum(1 for w in waits if w == 0.0) == 5
        assert all(0 < w <= 10.1 for w in waits if w != 0.0)  # calls' own clocks differ a little
        assert await two.take_window("chat", 5, 10.0, now + 10.5) == 0.0  # they have all left


async def test_appends_from_two_stores_at_one_version_have_one_winner(
    postgres_schema: str, new_table: NewTable
) -> None:
    async with open_store(postgres_schema) as one, open_store(postgres_schema) as two:
        table = await one.create_table(new_table(status="running"))
        for version in range(5):
            outcomes = await asyncio.gather(
                one.append_events(table.table_id, version, [{"kind": "play", "by": 1}]),
                two.append_events(table.table_id, version, [{"kind": "play", "by": 2}]),
                return_exceptions=True,
            )
            assert sorted(type(o).__name__ for o in outcomes) == ["TableRecord", "VersionConflict"]
            assert all(isinstance(o, TableRecord | VersionConflict) for o in outcomes)
        assert [e.version for e in await two.load_events(table.table_id)] == [1, 2, 3, 4, 5]
