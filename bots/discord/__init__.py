"""The Discord bot: a thin translator between discord.py and the table service.

Slash commands (``commands``) and persistent buttons (``buttons``) become
service calls (``presses``); the service's notices become channel messages and
ephemeral hands (``delivery``, ``hands``). Rules, texts and checks live in the
service and the shared renderer; this package only knows Discord.
"""

from .bot import BasraBot, BotOptions

__all__ = ["BasraBot", "BotOptions"]
