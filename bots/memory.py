"""The sizes at which what a bot process keeps of the tables and messages it has served
stops growing (README, *Memory*), one setting each (``bots.settings``).

A process reads ``CAPS`` each time it keeps something more, so ``configure``, called once
at start from the settings, takes effect everywhere at once. The defaults are the sizes a
bot runs with; ``bench/soak.py --small-caps`` sets them small, so that a short run fills
them and shows whether anything else grows.
"""

from __future__ import annotations

from dataclasses import dataclass

import storage.schema


@dataclass(frozen=True)
class Caps:
    #: Tables whose message references are kept (the ones used last; about 1 KB each).
    table_refs: int = 1024
    #: Messages whose last state started is kept (the outbound queue's check that no message
    #: goes back to an older state; about 200 bytes each).
    write_stamps: int = 10_000
    #: Messages whose content's 16-byte digest is kept (an edit that changes nothing is
    #: skipped; about 250 bytes each with its key).
    message_digests: int = 5_000
    #: Hand messages retired as lines that are remembered as such (about 150 bytes each).
    retired_hands: int = 5_000
    #: SQLite's page cache, KiB (its ``cache_size``; SQLite's own default is 2,000).
    sqlite_cache_kb: int = storage.schema.PAGE_CACHE_KB


CAPS = Caps()


def configure(caps: Caps) -> None:
    """Use ``caps`` from now on (the next database connection's page cache too)."""
    global CAPS
    CAPS = caps
    storage.schema.PAGE_CACHE_KB = caps.sqlite_cache_kb
