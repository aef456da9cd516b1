"""What the Discord tests' bots are made with (imported by the fixtures and by tests)."""

from __future__ import annotations

from collections.abc import Callable

from bots.discord import BasraBot
from bots.service import ServiceConfig

#: No pause before computer moves, no heartbeat chatter (nor, on PostgreSQL, the poll for
#: overdue work: simcord waits out every timer due before it settles); a long turn clock
#: so that moving simcord's clock (stale-token tests) does not time anyone out.
TEST_CONFIG = ServiceConfig(computer_delay=0, heartbeat_seconds=3600, poll_seconds=3600, turn_seconds=3600,
                            language="en")

BotFactory = Callable[..., BasraBot]
#: Discord's rate limits run this many times faster, on the fake server and in the bot alike.
SPEEDUP = 100.0
