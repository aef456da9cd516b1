"""A bot's first call to its platform at start-up, tried again while the platform cannot
be reached: the pauses double from 1 s, and after ``REACH_ATTEMPTS`` the bot gives up with
status 2 (a service manager starts it again later). Credentials the platform refuses end
it at once. Each platform says how it tries (``attempt``) and what its errors mean."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable

#: Start-up attempts to reach the platform before giving up (the pauses double from 1 s).
REACH_ATTEMPTS = 6


class Refused(Exception):
    """The platform answered, and refused the bot's credentials."""


class Unreachable(Exception):
    """The platform did not answer as it should; the message says why, in one short line
    that never holds the token."""


async def reach(
    program: str, platform: str, where: str, refused: str, attempt: Callable[[], Awaitable[None]]
) -> int | None:
    """Call ``attempt`` until it succeeds (None) or ends in ``Refused`` (``refused`` is
    printed) or ``Unreachable`` ``REACH_ATTEMPTS`` times; an exit status then. Each
    failure is one line on stderr: ``program: cannot reach platform at where (why); …``."""
    pause = 1.0
    for number in range(1, REACH_ATTEMPTS + 1):
        try:
            await attempt()
            return None
        except Refused:
            print(refused, file=sys.stderr)
            return 2
        except Unreachable as error:
            if number == REACH_ATTEMPTS:
                print(f"{program}: cannot reach {platform} at {where} ({error}); giving up after "
                      f"{number} attempts", file=sys.stderr)
                return 2
            print(f"{program}: cannot reach {platform} at {where} ({error}); trying again in "
                  f"{pause:.0f} s", file=sys.stderr)
        await asyncio.sleep(pause)
        pause *= 2
    return 2
