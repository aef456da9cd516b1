"""What the pairing pool tells a person who waits in it, and the adapter side of that.

A person who sends ``/play`` gets one waiting message in their private chat (the
adapter sends it as the command's answer and hands its reference back,
``TableService.pool_message``). The pool edits it sparingly afterwards: when it has
something new to say (how many are looking, the computer offered after the wait, the
opponent found), through ``PoolPlatform.tell_pool``, never more often than
``LOOKING_EVERY`` seconds for the count alone, and when a friend joins them as a partner
through their invitation (``PoolTogether``). A person's notices go to their own platform
only, in their own language.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, Protocol, runtime_checkable

from .ids import platform_of
from .notices import Platform

log = logging.getLogger(__name__)

#: The fewest seconds between two edits of a waiting message that only say how many are
#: looking now (a private chat takes about one write a second, and the person reads it).
LOOKING_EVERY: Final = 15.0

PoolState = Literal["waiting", "seated", "left"]


@dataclass(frozen=True, slots=True)
class PoolView:
    """One person's place in the pool, as their waiting message shows it.

    ``looking``: how many people wait for the same kind of match now, them included.
    ``waited``: seconds since they joined. ``level``: the computer level nearest their
    rating, offered once they have waited ``wait_seconds`` (``offered``). When ``state``
    is "seated", ``table_id`` is their match, ``opponents`` the display names of the other
    side at it and ``partners`` of their own (2-v-2), never an id nor a username.
    ``partnered``: they wait for a 2-v-2 with a partner who came with them (an invitation,
    ``invites``), the two looking for the other pair; ``partners`` names that partner when
    the service knows it then (an invitation just used), and is empty otherwise.
    ``message`` is the adapter's reference to the waiting message, as it handed it back.
    """

    player_id: str
    chat_id: str
    lang: str
    mode: str
    state: PoolState
    looking: int
    waited: float
    wait_seconds: float
    offered: bool
    level: str
    rating: float
    provisional: bool
    table_id: str | None = None
    opponents: tuple[str, ...] = ()
    message: dict[str, Any] | None = None
    partners: tuple[str, ...] = ()
    partnered: bool = False


@dataclass(frozen=True, slots=True)
class PoolLooking:
    """Still looking: edit the waiting message (how many look, how long it has been).
    ``resumed``: the bot restarted meanwhile, and the person is still waiting. ``parted``:
    the partner they came with stopped looking, and they look on alone, for a partner too."""

    view: PoolView
    resumed: bool = False
    kind: Literal["pool_looking"] = "pool_looking"
    parted: bool = False


@dataclass(frozen=True, slots=True)
class PoolOffer:
    """Nobody found within the wait: offer the computer at ``view.level``, or waiting on."""

    view: PoolView
    kind: Literal["pool_offer"] = "pool_offer"


@dataclass(frozen=True, slots=True)
class PoolPaired:
    """An opponent was found and the match began (its own messages follow): the waiting
    message says whom, and that its buttons are done."""

    view: PoolView
    kind: Literal["pool_paired"] = "pool_paired"


@dataclass(frozen=True, slots=True)
class PoolTogether:
    """A friend used the person's invitation (``invites``): the two wait as partners, and
    the waiting message says so, naming the friend (``view.partners``), and that the pool
    looks for the other pair. Posted anew if the person had no waiting message."""

    view: PoolView
    kind: Literal["pool_together"] = "pool_together"


PoolNotice = PoolLooking | PoolOffer | PoolPaired | PoolTogether


@runtime_checkable
class PoolPlatform(Platform, Protocol):
    """A platform whose people may wait in the pool: it edits their waiting messages.
    Like ``Platform.deliver``, ``tell_pool`` only queues and returns, and never raises."""

    async def tell_pool(self, notices: Sequence[PoolNotice]) -> None: ...


def pairs_here(platform: Platform) -> bool:
    """Whether this process pairs the waiting people of ``platform`` (runs the pool's waves
    for them and draws the matches it seats them at): a platform whose people may wait
    (``PoolPlatform``), unless another process of its bot does that (its ``pairs`` False: a
    Discord shard process without shard 0, to which no press in a DM comes). Such a process
    still puts its people in the pool; the pairing process tells them from there on."""
    return isinstance(platform, PoolPlatform) and bool(getattr(platform, "pairs", True))


async def tell_pool(platforms: Mapping[str, Platform], notices: Sequence[PoolNotice]) -> None:
    """Hand each platform of ``platforms`` whose people may wait in the pool its own
    people's share of ``notices``; a platform that fails is logged, the others told."""
    by_platform: defaultdict[str, list[PoolNotice]] = defaultdict(list)
    for notice in notices:
        by_platform[platform_of(notice.view.player_id)].append(notice)
    for name, mine in by_platform.items():
        platform = platforms.get(name)
        if isinstance(platform, PoolPlatform):
            try:
                await platform.tell_pool(mine)
            except Exception:
                log.exception("telling %d people of the pool failed", len(mine))
