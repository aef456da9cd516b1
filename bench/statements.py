"""SQL statements a play sends to PostgreSQL, counted at the driver.

    python bench/statements.py --database postgresql://... [--matches 20] [--plays 1000]

Plays go through ``TableService.play`` as in ``bench/service.py``, once as the process
that leads a Telegram bot acts (alone on its tables) and once as a Discord shard
process does (each action ordered across processes: the table's lock in the database
and its row read again). Every statement asyncpg sends on any of the store's
connections is counted while ``play`` runs, one play at a time (transactions'
``BEGIN`` and ``COMMIT``, locks, pool resets included; not the reads of the table and
hand that choose the card), and printed per play with the most frequent ones. The
schema is made for the run and dropped afterwards.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

import asyncpg  # type: ignore[import-untyped]

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.service import CONFIG, Scratch, Sink, open_matches, store_for
from bots.service import ManualClock, TableService
from storage.location import is_postgres_url

SENT: Counter[str] = Counter()
COUNTING = [False]
_plain_init = asyncpg.connection.Connection.__init__


def _note(record: Any) -> None:
    if COUNTING[0]:
        SENT.update([" ".join(record.query.split())[:70]])


def _counting_init(self: Any, *args: Any, **kwargs: Any) -> None:
    _plain_init(self, *args, **kwargs)
    self.add_query_logger(_note)


asyncpg.connection.Connection.__init__ = _counting_init


async def count(database: str, matches: int, plays: int, alone: bool) -> tuple[int, Counter[str]]:
    async with (
        store_for(database) as store,
        TableService(
            store, [Sink()], clock=ManualClock(), config=CONFIG, rng=random.Random(1), alone=alone
        ) as service,
    ):
        ids = await open_matches(service, matches, 500_000 if alone else 0)
        rng = random.Random(2)
        SENT.clear()
        done = 0
        while done < plays:
            for table_id in ids:
                table = await service.table(table_id)
                if not table.running or table.to_move is None:
                    continue
                player = table.seats[table.to_move].player_id or ""
                hand = await service.hand(table_id, player)
                COUNTING[0] = True
                await service.play(table_id, player, hand.version, rng.choice(hand.hand))
                COUNTING[0] = False
                done += 1
        sent = SENT.copy()
    return done, sent


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database", required=True, help="a postgresql:// URL")
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--plays", type=int, default=1000)
    args = parser.parse_args()
    if not is_postgres_url(args.database):
        parser.error("--database takes a postgresql:// URL")
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Scratch(args.database, Path(tmp))
        try:
            for alone, name in ((True, "alone (a Telegram leader)"), (False, "shared (Discord shards)")):
                done, sent = asyncio.run(count(scratch.new("statements"), args.matches, args.plays, alone))
                total = sum(sent.values())
                print(f"{name}: {total / done:.2f} statements a play ({total} for {done} plays)")
                for statement, times in sent.most_common():
                    print(f"  {times / done:5.2f}  {statement}")
        finally:
            scratch.drop()


if __name__ == "__main__":
    main()
