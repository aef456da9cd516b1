"""What a player saw acknowledged survives the bot being killed outright."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from storage import SqliteStore

REPO = Path(__file__).resolve().parents[2]

# Opens the store, creates a running match, appends two actions, reports "ok"
# and then waits to be killed, never closing the connection.
CHILD = """
import asyncio, sys
from storage import SqliteStore, TableRecord

async def main():
    store = SqliteStore(sys.argv[1])
    await store.open()
    table = await store.create_table(TableRecord(
        table_id="killed-match", chat_id="tg:-1", mode="1v1", created_by="tg:1",
        status="running"))
    table = await store.append_events(
        table.table_id, 0, [{"kind": "deal", "seed": 5}],
        table=table.model_copy(update={"deadline": 1234.5}))
    await store.append_events(table.table_id, 1, [{"kind": "play", "card": "10D"}])
    print("ok", flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


async def test_an_acknowledged_append_survives_sigkill(db_path: Path) -> None:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        CHILD,
        str(db_path),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env=env,
    )
    try:
        assert child.stdout is not None
        line = await asyncio.wait_for(child.stdout.readline(), timeout=30)
        assert line == b"ok\n", (await child.stderr.read()).decode() if child.stderr else line
        os.kill(child.pid, signal.SIGKILL)
        assert await child.wait() == -signal.SIGKILL
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()

    async with SqliteStore(db_path) as store:
        table = await store.get_table("killed-match")
        events = await store.load_events("killed-match")
        reopened = await store.open_tables()
    assert table is not None
    assert (table.status, table.version, table.deadline) == ("running", 2, 1234.5)
    assert [(e.version, e.data) for e in events] == [
        (1, {"kind": "deal", "seed": 5}),
        (2, {"kind": "play", "card": "10D"}),
    ]
    assert reopened == [table]
