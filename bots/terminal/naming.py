"""The player's name at the terminal table.

The computer's login names the player's records (``term:<login>``), but it is a poor
name at a table (``root``). So ``--name`` names the player; without it, a new match
started at a terminal asks, showing the name used last time (else the login) as the
default that Enter keeps. Asked nothing (a pipe, a script, a saved match going on,
whose seat has its name already), the name used last time stays, else the login.
The name is remembered with the player's profile (``TableService.set_player_language``
writes it).

>>> clean_name("  Amal \\u2066 Saeed\\t")
'Amal Saeed'
"""

from __future__ import annotations

import asyncio
import unicodedata
from typing import Final, TextIO

from ..i18n import Translator, user_text
from ..service import TableService, TableView
from .screen import terminal_text
from .texts import ASK_NAME

#: The longest name kept (a table row has room for about this much beside the score).
MAX_NAME: Final = 32


def clean_name(text: str) -> str:
    """A typed name as the table shows it: no control or format characters, spaces
    collapsed, at most ``MAX_NAME`` characters."""
    kept = "".join(c for c in text if unicodedata.category(c)[0] != "C" or c.isspace())
    return " ".join(kept.split())[:MAX_NAME].strip()


async def table_name(
    service: TableService,
    player_id: str,
    chat: str,
    login: str,
    given: str | None,
    new: bool,
    ask: tuple[TextIO, TextIO] | None,
    t: Translator,
) -> str:
    """The name to play under: ``given`` (``--name``), else asked on ``ask`` (the terminal's
    input and output) when a new match starts, else the name used last time, else ``login``."""
    if given is not None and clean_name(given):
        return clean_name(given)
    default = clean_name((await service.stats(player_id)).name) or login
    if ask is None:
        return default
    found = await service.open_table(chat)
    if isinstance(found, TableView) and found.running and not new:
        return default  # the saved match goes on: its seat is named already
    lines, out = ask
    print(terminal_text(t.gettext(ASK_NAME, name=user_text(default))), end=" ", file=out, flush=True)
    answer = await asyncio.get_running_loop().run_in_executor(None, lines.readline)
    return clean_name(answer) or default
