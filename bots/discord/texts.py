"""Words only the Discord bot says (everything else comes from ``bots.render``).

Slash-command descriptions are shown by the Discord client before any message
of ours, in the client's locale. Discord has no Arabic locale, so a
localization cannot carry Arabic; each description is therefore written in
both languages, Arabic first (``bilingual``). Command and option names stay
English: Discord wants them short, lower case and the same for everyone.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..i18n import N_, translator

# -- replies -------------------------------------------------------------------------

FAILED = N_("Something went wrong. Nothing you played is lost: press My hand to see the table again.")
NEEDS_MANAGE_CHANNELS = N_("Only members who can manage this channel can change its settings.")
MISSING_PERMISSIONS = N_("I need permission to send messages and embed links in this channel.")
RESIGNED = N_("You resigned the match.")
NO_HAND = N_("You have no cards in a running match in this channel.")
OPENED = N_("The table is open in this channel.")
# TRANSLATORS: /basra new in a direct message: only practice opens there; {command} is /basra play.
NEW_IN_DM = N_(
    "Here you can practise against the computer. To play people, open a table in a server channel, "
    "or use {command} to play someone online."
)
# TRANSLATORS: the answer to /basra play: the search and the match happen in the DM with the bot.
LOOKING = N_("I am looking for an opponent for you: follow it in our direct messages.")
# TRANSLATORS: /basra play when Discord does not let the bot write to the person.
NO_DMS = N_(
    "I cannot send you direct messages, so I am not looking for an opponent. Allow direct messages "
    "from this server's members, then try again."
)
# TRANSLATORS: the answer to /basra play with a friend's invitation code; {name} is the friend.
JOINED = N_("You joined {name}: follow the search for two opponents in our direct messages.")
# TRANSLATORS: under "Opponent found": the table follows, and its "My hand" button shows the cards.
MATCH_BELOW = N_("Your match begins below: press My hand under the table to see your cards.")
# TRANSLATORS: link under a search's waiting message and /basra help in the DM: opens the web
# table's start page, from which one plays someone online.
WEB_START = N_("🃏 Play on the web table")

# -- the commands as typed, named in messages that point to them -------------------------

PLAY_COMMAND = "/basra play"
RESIGN_COMMAND = "/basra resign"
NEW_COMMAND = "/basra new"

# -- slash commands (descriptions at most 100 characters, both languages) -------------

GROUP = N_("Basra, the Egyptian card game")
NEW = N_("Open a table in this channel")
NEW_MODE = N_("Who plays")
NEW_PLAYERS = N_("Practice: 2 or 4 seats")
MODE_1V1 = N_("1 v 1")
MODE_2V2 = N_("2 v 2 with partners")
MODE_PRACTICE = N_("Practice against the computer")
RULES = N_("How to play")
SCORE = N_("A player's results and rating")
SCORE_PLAYER = N_("Whose results (you if empty)")
LEADERBOARD = N_("The best players")
LEADERBOARD_SCOPE = N_("This channel, everywhere, or online")
SCOPE_CHANNEL = N_("This channel")
SCOPE_GLOBAL = N_("Everywhere")
# TRANSLATORS: a /basra leaderboard choice: matches between players the bot paired online only.
SCOPE_ONLINE = N_("Online ladder")
SETTINGS = N_("Variants, turn clock and language")
SETTINGS_VARIANT = N_("A rule variant to turn on or off")
SETTINGS_ON = N_("On or off (for the variant)")
SETTINGS_CLOCK = N_("Seconds per turn")
SETTINGS_LANGUAGE = N_("This channel's language")
SETTINGS_MY_LANGUAGE = N_("Your own language, everywhere")
LANGUAGE_AR = N_("Arabic")
LANGUAGE_EN = N_("English")
LANGUAGE_AUTO = N_("Default")
RESIGN = N_("Resign the running match")
HELP = N_("What this bot does")
HAND = N_("Show my hand again")
RECORD = N_("The last finished match as a file")
PLAY = N_("Play someone online now")
# TRANSLATORS: the mode option of /basra play (the bot finds a partner too in two against two).
PLAY_MODE = N_("One against one, or two against two")
# TRANSLATORS: the invite option of /basra play: the code a friend sent, to join them as partner.
PLAY_INVITE = N_("A friend's invitation code: join them as partner")

MAX_DESCRIPTION = 100


def bilingual(
    msgid: str, limit: int = MAX_DESCRIPTION, *, context: str | None = None, fields: Mapping[str, object] = {}
) -> str:
    """``msgid`` in Arabic and English, for texts the Discord client shows by itself.

    >>> bilingual("Basra, the Egyptian card game")
    'باصرة، لعبة الورق المصرية · Basra, the Egyptian card game'
    """
    ar, en = translator("ar"), translator("en")
    if context is None:
        arabic, english = ar.gettext(msgid, **fields), en.gettext(msgid, **fields)
    else:
        arabic, english = ar.pgettext(context, msgid, **fields), en.pgettext(context, msgid, **fields)
    both = f"{arabic} · {english}" if arabic != english else english
    return both if len(both) <= limit else arabic[:limit]
