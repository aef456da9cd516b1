"""Rendering what is asked for outside a match: help, rules, settings, stats, leaderboards, errors."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from core import Rules

from ..i18n import N_, Translator, card_label, user_text
from ..i18n.words import basras_count, points_count, term
from ..service.errors import ServiceError
from ..service.views import LeaderboardView, SettingsView, StatsLine, StatsView
from .actions import Action, Button
from .common import clock_text, variant_button, variant_name, variants_line
from .markup import Line, Span, Text
from .rendered import Rendered

#: What each command does, by a platform-neutral key; adapters give their own command text.
COMMANDS: Final = {
    "new": N_("open a table in this chat: one against one, or two against two"),
    "practice": N_("play the computer on your own"),
    "play": N_("play someone online now: I find you an opponent"),
    "hand": N_("show your hand again"),
    "resign": N_("resign the running match"),
    "score": N_("your record: matches, wins, basras, best round, rating"),
    "top": N_("the leaderboard of this chat"),
    "record": N_("the last finished match of this chat as a file: every deal and play, to keep or replay"),
    "settings": N_("variants, turn clock and language"),
    "rules": N_("how Basra is played"),
    "help": N_("this help"),
    "privacy": N_("what this bot keeps about you, for how long, and why"),
    "forget": N_("erase what this bot keeps about you"),
}
CLOCK_CHOICES: Final = (60, 120, 300)
VARIANTS_PER_ROW: Final = 2


def render_help(t: Translator, commands: Mapping[str, str] | None = None) -> Rendered:
    """What the bot does and its commands; ``commands`` maps the keys of ``COMMANDS``
    to the platform's spelling (``{"new": "/newgame"}``), or they are listed without."""
    lines = [
        Line.of(Span(t.gettext("Basra, the Egyptian card game"), bold=True)),
        Line.of(
            t.gettext(
                "Open a table, let friends join, and play: the table shows in the chat, "
                "your hand only to you. Pick a card to see what it takes, then confirm."
            )
        ),
        Line.of(""),
    ]
    for key, msgid in COMMANDS.items():
        if commands is not None and key not in commands:
            continue
        what = t.gettext(msgid)
        lines.append(
            Line.of(Span(commands[key], bold=True), " — " + what) if commands else Line.of("· " + what)
        )
    return Rendered(Text.of(*lines))


def render_rules(t: Translator, rules: Rules | None = None) -> Rendered:
    """A summary of RULES.md, with the chat's variants when given."""
    rules = rules or Rules()
    lines = [
        Line.of(Span(t.gettext("How Basra is played"), bold=True)),
        Line.of(
            t.gettext(
                "One deck of 52 cards; two players, or two teams of two with partners facing each other."
            )
        ),
        Line.of(
            t.gettext(
                "Everyone gets 4 cards and 4 go face up on the {floor}; when hands are empty, 4 more each.",
                floor=term(t, "floor"),
            )
        ),
        Line.of(
            t.gettext(
                "Play one card a turn. A number card takes the cards of its rank and any groups of "
                "number cards adding up to its value."
            )
        ),
        Line.of(
            t.gettext(
                "A jack or the {seven} takes the whole floor; a queen or a king takes only its own rank.",
                seven=card_label("7D"),
            )
        ),
        Line.of(
            t.gettext(
                "Clearing the floor with a number card, a queen or a king is a {basra}: 10 points. "
                "A jack never makes a basra.",
                basra=term(t, "basra"),
            )
        ),
        Line.of(
            t.gettext(
                "Each round: 27 cards or more take the {majority} ({points}); aces and jacks 1 each, "
                "{two_clubs} 2, {ten_diamonds} 3.",
                two_clubs=card_label("2C"),
                ten_diamonds=card_label("10D"),
                majority=term(t, "majority"),
                points=points_count(t, rules.majority_points),
            )
        ),
        Line.of(
            t.gettext(
                "The first side to {target} points after a round wins the match.",
                target=rules.target,
            )
        ),
        Line.of(variants_line(t, rules)),
    ]
    return Rendered(Text.of(*lines))


def render_settings(settings: SettingsView, t: Translator) -> Rendered:
    """The chat's variants, clock and language, with buttons to change them: the
    variants two to a row, then the clocks, then the languages (4 rows; Discord
    allows 5)."""
    on_off = {True: t.gettext("on"), False: t.gettext("off")}
    lines = [Line.of(Span(t.gettext("Settings of this chat"), bold=True))]
    for name, on in settings.variants:
        lines.append(
            Line.of(
                t.gettext("{variant}: {state}", variant=variant_name(t, name), state=on_off[on])
            )
        )
    lines.append(Line.of(t.gettext("Turn clock: {clock}", clock=clock_text(settings.turn_seconds))))
    language = {"ar": "العربية", "en": "English"}.get(settings.language or "", t.gettext("each player's own"))
    lines.append(Line.of(t.gettext("Language: {language}", language=language)))
    toggles = [
        Button(
            ("✓ " if on else "") + variant_button(t, name),
            Action("variant", arg=name, plan=int(not on)),
        )
        for name, on in settings.variants
    ]
    rows = [tuple(toggles[i : i + VARIANTS_PER_ROW]) for i in range(0, len(toggles), VARIANTS_PER_ROW)]
    rows.append(tuple(Button(clock_text(s), Action("clock", arg=str(s))) for s in CLOCK_CHOICES))
    rows.append(
        (
            Button("العربية", Action("lang", arg="ar")),
            Button("English", Action("lang", arg="en")),
            Button(t.gettext("Each player's own"), Action("lang", arg="auto")),
        )
    )
    return Rendered(Text.of(*lines), tuple(rows))


def _stats_lines(t: Translator, line: StatsLine) -> list[Line]:
    return [
        Line.of(t.gettext("Rating: {rating} (rank {rank})", rating=line.rating, rank=line.rank)),
        Line.of(
            t.ngettext("{n} match", "{n} matches", line.matches)
            + " · "
            + t.ngettext("{n} win", "{n} wins", line.wins)
        ),
        Line.of(t.gettext("Profile points: {points}", points=line.points)),
        Line.of(
            basras_count(t, line.basras)
            + " · "
            + t.gettext("best round: {points}", points=points_count(t, line.best_round))
        ),
    ]


def render_stats(stats: StatsView, t: Translator) -> Rendered:
    """One player's record, in a chat or everywhere."""
    title = t.gettext("Record of {name}", name=user_text(stats.name)) if stats.name else t.gettext("Record")
    lines = [Line.of(Span(title, bold=True))]
    if stats.line is None:
        lines.append(Line.of(t.gettext("No finished match yet.")))
    else:
        lines.extend(_stats_lines(t, stats.line))
    return Rendered(Text.of(*lines))


def render_leaderboard(board: LeaderboardView, t: Translator) -> Rendered:
    """Players by rating: rank, name, rating, wins. The online ladder (``board.online``) says
    that it counts matches between players the bot paired online alone."""
    if board.online:
        # TRANSLATORS: the title of the leaderboard of matches between people the bot paired online.
        lines = [Line.of(Span(t.gettext("Online ladder"), bold=True)),
                 Line.of(t.gettext("Only matches with players found online count here."))]
    else:
        title = t.gettext("Leaderboard of this chat") if board.chat_id else t.gettext("Leaderboard")
        lines = [Line.of(Span(title, bold=True))]
    if not board.lines:
        lines.append(Line.of(t.gettext("No finished match yet.")))
    for line in board.lines:
        lines.append(
            Line.of(
                t.gettext(
                    "{rank}. {name}: {rating} · {wins}",
                    rank=line.rank,
                    name=user_text(line.name),
                    rating=line.rating,
                    wins=t.ngettext("{n} win", "{n} wins", line.wins),
                )
            )
        )
    return Rendered(Text.of(*lines))


def render_error(error: ServiceError, t: Translator, **spelling: str) -> Rendered:
    """A refusal, short, in the reader's language (render ``error.fresh`` separately
    with ``render_hand``/``render_table``/``render_lobby`` when it is there); ``spelling``
    names the platform's commands (``command="/newgame"``)."""
    return Rendered(Text.of(error.message(t, **spelling)))
