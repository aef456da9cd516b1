"""The pairing pool, as both backends keep it (``Coordination.enter_pool`` ...): an entry's
columns and values as written, its row read back, the pairs a seating notes, the
abandon marks counted, and the mark of a stranger match's chat id.

A pair is two ids in order (Python's order of strings is the byte order of their UTF-8,
as SQLite and a ``COLLATE "C"`` column compare them), so each pair is written one way.

>>> sorted(pairs_of(["tg:3", "tg:1", "tg:2"]))
[('tg:1', 'tg:2'), ('tg:1', 'tg:3'), ('tg:2', 'tg:3')]
>>> pairs_from_rows([("tg:1", "tg:2"), ("tg:2", "tg:1")]) == {frozenset({"tg:1", "tg:2"})}
True
>>> counts_from_rows([("tg:1", 2), ("tg:3", 1)])
{'tg:1': 2, 'tg:3': 1}
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Final

from . import codec
from .models import PoolEntry

if TYPE_CHECKING:
    from .codec import Row

COLUMNS: Final = (
    "player_id",
    "platform",
    "chat_id",
    "name",
    "lang",
    "rating",
    "provisional",
    "mode",
    "partner",
    "joined_at",
    "state",
    "table_id",
    "offered",
    "message",
)
#: What ``update_pool_entry`` writes: every column but the person's id.
WRITTEN: Final = COLUMNS[1:]

#: Seconds a pair is kept: a seating forgets the pairs noted longer ago than this.
PAIRS_KEPT: Final = 86400.0
#: Seconds an abandon mark is kept: noting one forgets the marks noted longer ago than this.
ABANDONS_KEPT: Final = 30 * 86400.0

#: What a stranger match's chat id holds right after its platform (``"tg:pool-a1b2"``): the
#: same mark ``bots.service.ids.pool_chat`` writes (its ``":"`` and ``POOL_CHAT``), which a
#: result keeps in ``results.chat_id`` and the online ladder (``leaderboard(online=True)``)
#: picks its matches by. Storage does not import the service, so this is its one copy.
POOL_CHAT_MARK: Final = ":pool-"


def is_pool_chat(chat_id: str) -> bool:
    """Whether ``chat_id`` is a stranger match's: ``POOL_CHAT_MARK`` at its first ``":"``,
    as the online ladder's SQL compares it.

    >>> is_pool_chat("tg:pool-a1b2"), is_pool_chat("tg:-100"), is_pool_chat("pool-a1b2")
    (True, False, False)
    """
    at = chat_id.find(":")
    return at >= 0 and chat_id.startswith(POOL_CHAT_MARK, at)


def entry_values(entry: PoolEntry) -> dict[str, Any]:
    """The entry's values by column, its message as JSON text."""
    values = entry.model_dump()
    values["message"] = None if entry.message is None else codec.dumps(entry.message)
    return values


def entry_from_row(row: Row) -> PoolEntry:
    data = dict(row)
    data["message"] = codec.loads(data["message"])
    return PoolEntry.model_validate(data)


def seated(player_ids: Sequence[str]) -> list[str]:
    """The people a seating names, each once, in order; ValueError if it names nobody."""
    ids = sorted(set(player_ids))
    if not ids:
        raise ValueError("a seating names nobody")
    return ids


def pairs_of(player_ids: Iterable[str]) -> list[tuple[str, str]]:
    """Every pair of the people, each as its two ids in order."""
    return list(itertools.combinations(sorted(set(player_ids)), 2))


def pairs_from_rows(rows: Iterable[Any]) -> set[frozenset[str]]:
    """Rows of two ids as a set of pairs."""
    return {frozenset((str(row[0]), str(row[1]))) for row in rows}


def counts_from_rows(rows: Iterable[Any]) -> dict[str, int]:
    """Rows of an id and a count as counts by id."""
    return {str(row[0]): int(row[1]) for row in rows}


def check_block(player_id: str, other_id: str) -> None:
    """ValueError if a person would block themself."""
    if player_id == other_id:
        raise ValueError(f"{player_id!r} cannot block themself")
