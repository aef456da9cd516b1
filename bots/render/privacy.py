"""What the bot keeps about a person and why (``/privacy``), erasing it (``/forget``, after
one confirmation that expires), and the line that answers a command the bot does not know.

The confirmation's buttons carry when they expire (``arg``: epoch seconds); whoever presses
Erase erases themself only, so a button pressed by someone else could erase nobody else.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Final

from ..i18n import Translator
from .actions import Action, Button
from .markup import Line, Span, Text
from .rendered import Rendered

#: How long the Erase button works after it is shown.
CONFIRM_SECONDS: Final = 120


def render_privacy(t: Translator, keep_days: int, forget_command: str) -> Rendered:
    """Everything stored about a person, why, and for how long; ``forget_command`` is the
    platform's spelling of the command that erases it (``/forget``)."""
    kept = (
        t.ngettext(
            # TRANSLATORS: /privacy; {n} is BASRA_KEEP_FINISHED_DAYS, the operator's setting.
            "Finished matches are deleted {n} day after they end; your profile stays until you erase it.",
            "Finished matches are deleted {n} days after they end; your profile stays until you erase it.",
            keep_days,
        )
        if keep_days > 0
        # TRANSLATORS: /privacy, when the operator keeps finished matches without a limit.
        else t.gettext("Finished matches and your profile are kept until they are erased: there is no"
                       " time limit.")
    )
    lines = [
        Line.of(Span(t.gettext("What this bot keeps about you"), bold=True)),
        Line.of("· " + t.gettext("Your profile: the name your chat app shows and the language you chose,"
                                 " so that tables show your name and messages speak your language.")),
        Line.of("· " + t.gettext("Your figures: matches, wins, points, basras and rating, for the scores"
                                 " and leaderboards.")),
        Line.of("· " + t.gettext("The matches you play: who sat where and every play, so that a match"
                                 " goes on after a restart and its record can be replayed.")),
        Line.of("· " + t.gettext("Each chat's settings: variants, turn clock and language.")),
        Line.of("· " + t.gettext("While you look for an opponent online: your name, rating and language,"
                                 " and where your waiting message is. Whom you blocked, so that you are"
                                 " never paired with them again; and, for 30 days, the matches with"
                                 " strangers you resigned or let the clock end, so that those who often"
                                 " leave are paired with each other.")),
        Line.of("· " + t.gettext("Where the bot's messages are, so that it can edit the table and your"
                                 " hand in place.")),
        Line.of("· " + t.gettext("Each login to the web table, until it expires, so that no login is"
                                 " used twice.")),
        Line.of(""),
        Line.of(kept),
        Line.of(t.gettext("{command} erases your profile, name, settings and figures. The matches you"
                          " played stay, with your seat made anonymous, so that the other players'"
                          " records still add up.", command=forget_command)),
    ]
    return Rendered(Text.of(*lines))


def render_forget_confirm(t: Translator, now: float) -> Rendered:
    """The one question before erasing: Erase or Cancel, for ``CONFIRM_SECONDS``."""
    until = str(int(now + CONFIRM_SECONDS))
    lines = [
        Line.of(Span(t.gettext("Erase everything this bot keeps about you?"), bold=True)),
        Line.of(t.gettext("Your profile, name, settings, figures and rating go, and you leave the"
                          " leaderboards. A match you are playing is resigned first. The matches you"
                          " played stay, with your seat made anonymous. This cannot be undone.")),
    ]
    buttons = (
        # TRANSLATORS: the button that confirms /forget.
        Button(t.gettext("Erase"), Action("erase", arg=until), "danger"),
        Button(t.gettext("Cancel"), Action("keep", arg=until)),
    )
    return Rendered(Text.of(*lines), (buttons,))


def confirm_expired(action: Action, now: float) -> bool:
    """Whether an Erase button is past its time (or carries none: a forged one)."""
    arg = action.arg or ""
    return not (arg.isascii() and arg.isdigit()) or now > int(arg)


def forgotten_text(t: Translator) -> str:
    return t.gettext("Done: everything this bot kept about you is erased. If you use the bot again, a"
                     " new profile starts.")


def kept_text(t: Translator) -> str:
    return t.gettext("Nothing was erased.")


def expired_text(t: Translator, forget_command: str) -> str:
    return t.gettext("This question has expired and nothing was erased. Send {command} again to"
                     " erase your data.", command=forget_command)


async def answer_erase(
    action: Action, t: Translator, forget_command: str, forget: Callable[[], Awaitable[object]]
) -> str:
    """What the question's Erase or Cancel press becomes: nothing erased (Cancel, or the
    question expired), or everything, once ``forget()`` has erased it."""
    if action.verb == "keep":
        return kept_text(t)
    if confirm_expired(action, time.time()):
        return expired_text(t, forget_command)
    await forget()
    return forgotten_text(t)


def unknown_command_text(t: Translator, help_command: str) -> str:
    # TRANSLATORS: the answer to a command the bot does not have, e.g. /poker or a typo.
    return t.gettext("I do not know that command. {command} lists the ones I do.", command=help_command)
