"""``python -m bots.discord`` against the tests' fake of Discord, given as ``DISCORD_TEST_API``:
its HTTP API there, and its gateway too (the fake answers the handshake with a 404, so the bot
goes on reconnecting as it would to a Discord it cannot reach, and never looks for the real
one). The real entry point, nothing else changed."""

from __future__ import annotations

import os
import sys

import discord.gateway
import discord.http
import yarl

from bots.discord.__main__ import main

API = os.environ["DISCORD_TEST_API"]
discord.http.Route.BASE = API + "/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(API.replace("http", "ws", 1) + "/gateway/")

if __name__ == "__main__":
    sys.exit(main())
