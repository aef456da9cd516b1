"""Which match ``basra play`` plays: the saved one, said so, or a new one.

A running practice match in the terminal's chat goes on, and the player is
told which (players, level, round, score), how its options differ from those
asked for, and how to start afresh. ``--new`` resigns it through the service,
as ``/resign`` would in a chat (so it is finished and recorded, not deleted),
then opens a new one. Its end is told in one line: the session follows only
the table it plays.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..i18n import Translator, isolate, score_text
from ..i18n.words import level_name
from ..service import LobbyView, Person, TableService, TableView
from .texts import DIFFERENT, HOW_TO_RENEW, RESIGNED, RESUMED

DEFAULT_PLAYERS = 2
DEFAULT_LEVEL = "beginner"


@dataclass(frozen=True, slots=True)
class Wanted:
    """What the command line asked for; None where it said nothing."""

    players: int | None
    level: str | None
    new: bool


def saved_level(table: TableView) -> str:
    return next((s.computer for s in table.seats if s.computer is not None), DEFAULT_LEVEL)


def match_kind(t: Translator, players: int, level: str) -> str:
    # TRANSLATORS: what kind of practice match, e.g. "2 players, level beginner" (the options
    # --players and --level of basra play).
    return t.ngettext(
        "{n} player, level {level}", "{n} players, level {level}", players, level=level_name(t, level)
    )


def renew_command(players: int, level: str) -> str:
    """The command that starts afresh with these options, as typed."""
    words = ["basra", "play", "--new"]
    if players != DEFAULT_PLAYERS:
        words += ["--players", str(players)]
    if level != DEFAULT_LEVEL:
        words += ["--level", level]
    return " ".join(words)


def resumed_notice(t: Translator, table: TableView, wanted: Wanted) -> list[str]:
    """What is said when a saved match goes on: which, how it differs, how to start afresh."""
    level = saved_level(table)
    kind = match_kind(t, table.players, level)
    lines = [t.gettext(RESUMED, kind=kind, round=table.round_no, score=score_text(*table.scores))]
    players = wanted.players or table.players
    asked = wanted.level or level
    if (players, asked) != (table.players, level):
        lines.append(t.gettext(DIFFERENT, asked=match_kind(t, players, asked), saved=kind))
    lines.append(t.gettext(HOW_TO_RENEW, command=isolate(renew_command(players, asked))))
    return lines


async def open_match(
    service: TableService,
    chat: str,
    person: Person,
    wanted: Wanted,
    t: Translator,
) -> tuple[str, list[str]]:
    """The id of the match to play, and what to tell the player about it first."""
    found = await service.open_table(chat)
    if isinstance(found, TableView) and found.running and not wanted.new:
        return found.table_id, resumed_notice(t, found, wanted)
    said: list[str] = []
    if isinstance(found, TableView) and found.running:
        await service.resign(found.table_id, person.player_id)
        kind = match_kind(t, found.players, saved_level(found))
        said.append(t.gettext(RESIGNED, kind=kind, round=found.round_no, score=score_text(*found.scores)))
    elif isinstance(found, LobbyView):
        await service.cancel(found.table_id, person)
    table = await service.practice(
        chat, person, players=wanted.players or DEFAULT_PLAYERS, level=wanted.level or DEFAULT_LEVEL
    )
    return table.table_id, said
