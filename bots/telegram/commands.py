"""The command menu Telegram shows, registered at start-up in Arabic and English.

Groups get the table commands, private chats the play (someone online), practice and hand
commands.
English is the default menu (no ``language_code``); Arabic-speaking clients
get the Arabic one (``language_code="ar"``).
"""

from __future__ import annotations

import logging
from typing import Final

from telegram import (
    Bot,
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    BotCommandScopeDefault,
)
from telegram.error import TelegramError

from ..i18n import N_, translator

log = logging.getLogger(__name__)

#: (command, description msgid) — TRANSLATORS: command menu entries are short (under 40 characters).
DESCRIPTIONS: Final[dict[str, str]] = {
    "newgame": N_("Open a table in this group"),
    "practice": N_("Practise against the computer"),
    "play": N_("Play someone online now"),
    "hand": N_("Show my hand again"),
    "resign": N_("Resign the running match"),
    "score": N_("Scores of the match or my record"),
    "top": N_("Leaderboard"),
    "record": N_("The last finished match as a file"),
    "rules": N_("How Basra is played"),
    "settings": N_("Variants, turn clock and language"),
    "help": N_("What this bot does"),
    "privacy": N_("What this bot keeps about you"),
    "forget": N_("Erase what this bot keeps about you"),
    "start": N_("Start the bot (needed for your hand)"),
}

GROUP_COMMANDS: Final = (
    "newgame", "hand", "resign", "score", "top", "record", "rules", "settings", "help", "privacy"
)
PRIVATE_COMMANDS: Final = (
    "play", "practice", "hand", "resign", "score", "top", "record", "rules", "settings", "help", "privacy",
    "forget", "start",
)
DEFAULT_COMMANDS: Final = ("newgame", "play", "practice", "hand", "rules", "help")


def command_menu(commands: tuple[str, ...], lang: str) -> list[BotCommand]:
    t = translator(lang)
    return [BotCommand(name, t.gettext(DESCRIPTIONS[name])) for name in commands]


async def register_commands(bot: Bot) -> bool:
    """Set the menus for every scope in both languages; False (logged) if Telegram refused."""
    scopes = (
        (BotCommandScopeDefault(), DEFAULT_COMMANDS),
        (BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
        (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS),
    )
    try:
        for scope, commands in scopes:
            await bot.set_my_commands(command_menu(commands, "en"), scope=scope)
            await bot.set_my_commands(command_menu(commands, "ar"), scope=scope, language_code="ar")
    except TelegramError as error:
        log.warning("could not register the command menu: %s", error)
        return False
    return True
