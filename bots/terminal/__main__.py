"""``basra play``: a practice match against the computer in the terminal.

    basra play [--level beginner|strong|expert] [--players 2|4] [--lang ar|en] [--new]
    basra export [--output FILE|-] [--lang ar|en]
    basra backup DEST [--overwrite] [--lang ar|en]
    basra damaged [--output FILE|-] [--lang ar|en]
    basra forget PLAYER_ID
    basra --version

The match is kept in the same SQLite file as the bots' (``BASRA_DATABASE``,
default ``basra.sqlite3``): leave with q and the same command goes on where
you stopped, saying so; ``--new`` resigns the saved match and starts afresh.
``basra export`` writes the last finished match's record (``export``);
``basra backup`` a checked copy of the database, even while a bot runs on it
(``backup``), and ``basra damaged`` lists the tables set aside as unreadable and
exports their rows (``damaged``): operators' commands, which speak the locale's language (English
unless ``LANG`` and the like name Arabic), not the games'. ``basra forget`` erases a person
as ``/forget`` does (``forget``).
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import getpass
import os
import re
import sys
from pathlib import Path
from typing import TextIO

from pydantic import ValidationError

from core.ai import LEVELS
from storage import StorageError, is_postgres_url, open_store

from .. import __version__
from ..i18n import SUPPORTED, resolve_language, translator
from ..i18n.lang import operator_language
from ..logs import configure_logging
from ..render import render_error
from ..service import Person, ServiceError, TableService, chat_id, player_id
from ..settings import BasraSettings, bad_setting, not_utf8
from .backup import backup
from .damaged import damaged
from .export import export
from .forget import forget_player
from .keys import LineKeys, TtyKeys
from .naming import table_name
from .screen import screen_for, terminal_text
from .session import TerminalPlatform, TerminalSession
from .start import Wanted, open_match


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="basra", description="Basra, the Egyptian card game")
    top.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = top.add_subparsers(dest="command", required=True)
    play = commands.add_parser("play", help="play the computer in the terminal")
    play.add_argument("--level", choices=list(LEVELS), default=None, help="the computer's (default beginner)")
    play.add_argument("--players", type=int, choices=(2, 4), default=None, help="2 or 4 (default 2)")
    play.add_argument("--new", action="store_true", help="resign the saved match and start a new one")
    play.add_argument("--lang", choices=SUPPORTED, default=None)
    play.add_argument("--name", default=None,
                      help="your name at the table (default: asked at a terminal, then remembered)")
    play.add_argument("--database", type=Path, default=None, help="SQLite file (default BASRA_DATABASE)")
    play.add_argument("--delay", type=float, default=None, help="seconds a computer waits before playing")
    export = commands.add_parser("export", help="write the last finished match's record (basra-record/1)")
    export.add_argument("--output", "-o", default=None,
                        help="the file to write (default basra-<date>-<id>.json here; - for standard output)")
    export.add_argument("--lang", choices=SUPPORTED, default=None)
    export.add_argument("--database", type=Path, default=None, help="SQLite file (default BASRA_DATABASE)")
    copy = commands.add_parser("backup", help="copy the database, checked, even while a bot runs on it")
    copy.add_argument("dest", metavar="DEST",
                      help="the file to write, or a folder to write <database>-<date>-<time>.sqlite3 in")
    copy.add_argument("--overwrite", action="store_true", help="replace DEST if it exists")
    copy.add_argument("--lang", choices=SUPPORTED, default=None,
                      help="the language of its one line (default: the locale's, else English)")
    copy.add_argument("--database", type=Path, default=None, help="SQLite file (default BASRA_DATABASE)")
    aside = commands.add_parser("damaged", help="list the tables set aside as unreadable; export their rows")
    aside.add_argument("--output", "-o", default=None,
                       help="write their stored rows as JSON to this file (- for standard output)")
    aside.add_argument("--lang", choices=SUPPORTED, default=None,
                       help="the language of its lines (default: the locale's, else English)")
    aside.add_argument("--database", default=None,
                       help="SQLite file or postgresql:// URL (default BASRA_DATABASE)")
    erase = commands.add_parser("forget", help="erase a person as /forget does (a running match resigned)")
    erase.add_argument("player", metavar="PLAYER_ID", help="tg:<Telegram user id> or dc:<Discord user id>")
    erase.add_argument("--database", default=None,
                       help="SQLite file or postgresql:// URL (default BASRA_DATABASE)")
    return top


def keys_for(lines: TextIO) -> LineKeys | TtyKeys:
    """Single keys from a terminal; lines from anything else (a pipe, a script)."""
    return TtyKeys(lines) if lines.isatty() else LineKeys(lines)


def _local_name() -> str:
    try:
        name = getpass.getuser()
    except Exception:
        name = "player"
    return re.sub(r"[^A-Za-z0-9_-]", "", name) or "player"


async def play(args: argparse.Namespace, lines: TextIO, out: TextIO) -> int:
    settings = BasraSettings()
    database = args.database or settings.database
    config = settings.service_config()
    if args.delay is not None:
        config = dataclasses.replace(config, computer_delay=args.delay)
    lang = resolve_language(args.lang, settings.language)
    local = _local_name()
    me = player_id("term", local)
    chat = chat_id("term", local)
    platform = TerminalPlatform(me)
    t = translator(lang)
    wanted = Wanted(args.players, args.level, args.new)
    async with (
        open_store(database, exclusive=True) as store,
        TableService(store, [platform], config=config) as service,
    ):
        asking = (lines, out) if lines.isatty() else None
        name = await table_name(service, me, chat, local, args.name, args.new, asking, t)
        person = Person(me, name, lang)
        await service.set_player_language(person, lang)
        await service.set_chat_language(chat, lang)
        try:
            table_id, said = await open_match(service, chat, person, wanted, t)
        except ServiceError as error:  # the saved match could not be resigned
            print(terminal_text(render_error(error, t).plain()), file=out)
            return 1
        async with keys_for(lines) as keys:
            screen = screen_for(out)
            await TerminalSession(service, platform, person, keys, screen, t, tuple(said)).run(table_id)
        await service.drain()
    return 0


async def export_record(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    settings = BasraSettings()
    t = translator(resolve_language(args.lang, settings.language))
    chat = chat_id("term", _local_name())
    return await export(args.database or settings.database, chat, args.output, t, out, err)


def backup_database(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    settings = BasraSettings()
    t = translator(operator_language(args.lang, os.environ))
    database = args.database or settings.database
    if not isinstance(database, Path):  # a PostgreSQL server keeps its own backups
        print(t.gettext("basra backup copies an SQLite file; back up a PostgreSQL database with {command}.",
                        command="pg_dump"), file=err)
        return 2
    return backup(database, args.dest, args.overwrite, t, out, err)


async def list_damaged(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    settings = BasraSettings()
    t = translator(operator_language(args.lang, os.environ))
    database = args.database or settings.database
    if isinstance(database, str) and not is_postgres_url(database):
        database = Path(database)
    return await damaged(database, args.output, t, out, err)


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    try:
        # Warnings and errors only, unless BASRA_LOG_LEVEL says otherwise: the table shares
        # the terminal with standard error.
        settings = BasraSettings()
        configure_logging(settings.log_level or "WARNING", settings.log_format)
        if args.command == "backup":
            return backup_database(args, sys.stdout, sys.stderr)
        if args.command == "forget":
            database = args.database or settings.database
            return asyncio.run(forget_player(database, args.player, settings.service_config(), sys.stdout,
                                             sys.stderr))
        if args.command == "damaged":
            return asyncio.run(list_damaged(args, sys.stdout, sys.stderr))
        if args.command == "export":
            return asyncio.run(export_record(args, sys.stdout, sys.stderr))
        return asyncio.run(play(args, sys.stdin, sys.stdout))
    except KeyboardInterrupt:
        return 130
    except StorageError as error:  # the database cannot be used (or a bot holds it)
        print(f"basra: {error}", file=sys.stderr)
        return 2
    except UnicodeDecodeError as error:  # the settings' .env
        print(f"basra: {not_utf8(error)}", file=sys.stderr)
        return 2
    except ValidationError as error:  # a BASRA_ setting that cannot be used
        print(f"basra: {bad_setting(error)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
