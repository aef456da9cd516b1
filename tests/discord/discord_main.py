"""``python -m bots.discord`` against another address for Discord's HTTP API (the tests' fake),
given as ``DISCORD_TEST_API``: the real entry point, nothing else changed."""

from __future__ import annotations

import os
import sys

import discord.http

from bots.discord.__main__ import main

discord.http.Route.BASE = os.environ["DISCORD_TEST_API"] + "/api/v10"

if __name__ == "__main__":
    sys.exit(main())
