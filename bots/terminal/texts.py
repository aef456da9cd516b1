"""What the terminal table says in its own words (the chats' wording is about messages
and buttons; a terminal has neither). Msgids, translated where they are shown."""

from __future__ import annotations

from ..i18n.markers import N_

# TRANSLATORS: the terminal's prompt. The keys are accepted as written: h or, in Arabic, ت
# (and ا, h's key on an Arabic keyboard) for a hint; q or خ (and ض) to leave.
PROMPT = N_("Your choice (a number; h for a hint, q to leave):")
# TRANSLATORS: the terminal's first line; the same keys as in "Your choice (…)".
KEYS = N_("Press the number of a choice. h: a hint. q: leave (the match is saved).")
NOT_A_CHOICE = N_("“{text}” is not one of the numbers shown.")
# TRANSLATORS: asked at the start of a new match in the terminal; {name} is what Enter keeps
# (the name used last time, else the computer's login name).
ASK_NAME = N_("Your name at the table [{name}]:")
GOODBYE = N_("The match is saved: run the same command again to go on.")
# TRANSLATORS: under a round's points in the terminal; the keys as in "Your choice (…)".
CONTINUE = N_("Press Enter or Space to go on (q to leave).")
# TRANSLATORS: the last line of a finished round's table in the terminal: the round's points
# are shown just under it, on the same screen.
ROUND_TO_POINTS = N_("End of the round: its points are below.")
# TRANSLATORS: under the match score during a round; {first}/{second} are a player's or a
# team's name, {first_taken}/{second_taken} e.g. "12 cards, 1 basra".
ROUND_SO_FAR = N_("Taken this round: {first} {first_taken} · {second} {second_taken}")
# TRANSLATORS: at start-up, when a saved match goes on; {kind} is e.g. "2 players, level
# beginner", {score} e.g. "12–30".
RESUMED = N_("Your saved match goes on: {kind}, round {round}, score {score}.")
# TRANSLATORS: at start-up, when the options asked for differ from the saved match's;
# {asked} and {saved} are e.g. "4 players, level expert".
DIFFERENT = N_("You asked for {asked}, but the saved match is {saved}.")
# TRANSLATORS: {command} is a command to type, e.g. "basra play --new --players 4".
HOW_TO_RENEW = N_("To start a new match instead: {command}")
# TRANSLATORS: at start-up with --new; {kind} and {score} as in "Your saved match goes on".
RESIGNED = N_("Your saved match ({kind}, round {round}, score {score}) was resigned; a new one starts.")
# TRANSLATORS: basra export, when no match has finished; {command} is "basra play".
NO_RECORD = N_("No match has finished here yet, so there is no record to write. Play one with {command}.")
# TRANSLATORS: basra export, once the record is written; {date} is the day the match finished,
# {path} the file's name.
WROTE = N_("The record of the match of {date} is in {path}. Replay it with {command}.")
# TRANSLATORS: basra export, when the file cannot be written; {reason} is the system's words.
NOT_WRITTEN = N_("The record could not be written to {path}: {reason}")
# TRANSLATORS: basra backup, once the copy is made and checked; {source} and {dest} are file
# paths, {size} a whole number of kilobytes, {schema} the database's schema number.
BACKED_UP = N_("Backed up {source} to {dest} ({size} KB, schema {schema}): SQLite checked the copy and "
               "found it sound.")
# TRANSLATORS: basra backup, when the file to write exists; {option} is --overwrite.
BACKUP_EXISTS = N_("{dest} exists already: name another file, or add {option} to replace it.")
# TRANSLATORS: basra backup, with no database to copy; {path} is a file path, {option} is --database.
NO_DATABASE = N_("There is no database at {path}: give its path with {option} or BASRA_DATABASE.")
# TRANSLATORS: basra backup, when the copy fails SQLite's check; {problem} is SQLite's words.
COPY_DAMAGED = N_("The copy of {source} fails SQLite's integrity check ({problem}), so it was not kept: "
                  "the database itself may be damaged.")
