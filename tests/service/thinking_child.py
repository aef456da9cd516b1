"""A service process for the thinking test: makes one computer decision in worker
processes, prints ``ready <its pid> <the workers' pids>``, then waits to be killed, or
interrupted (Ctrl-C: it leaves quietly with status 130, as ``basra play`` does)."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bots.service.thinking import Thinker
from core import Match, Rules


async def main() -> None:
    thinker = Thinker(2)
    try:
        match = Match.new(2, Rules(), seed=3)
        await thinker.choose("expert", "child:1", match.view(match.to_move or 0))
        print("ready", os.getpid(), *thinker.pids(), flush=True)
        await asyncio.sleep(3600)
    finally:
        await thinker.close()  # as the service closes it


if __name__ == "__main__":
    try:
        asyncio.run(main())
    except KeyboardInterrupt:
        sys.exit(130)
