"""Small pieces every rendering uses: seat names, sides, card runs, clocks, variants."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final, Protocol

from core import Rules

from ..i18n import NP_, Translator, card_face, card_label, cards_text, facing_scores, isolate, user_text
from ..i18n.words import computer_player_name, team_name
from ..service.chats import VARIANTS

#: RULES.md §8 variants by the names the service uses, as msgids.
VARIANT_NAMES: Final = {
    "target 100": NP_("variant", "Match to 100"),
    "small majority": NP_("variant", "Small majority (3 points, split on a tie)"),
    "optional capture": NP_("variant", "Optional capture"),
    "7D by count": NP_("variant", "{card} basra by count"),
}
#: The same variants, short enough for a button two to a row.
VARIANT_BUTTONS: Final = {
    "target 100": NP_("variant button", "To 100"),
    "small majority": NP_("variant button", "Small majority"),
    "optional capture": NP_("variant button", "Optional capture"),
    "7D by count": NP_("variant button", "{card} by count"),
}
#: The fields of those names: the 7♦ as a card label, isolated like every other.
VARIANT_FIELDS: Final = {"card": card_label("7D")}


def variant_name(t: Translator, name: str) -> str:
    return t.pgettext(*VARIANT_NAMES[name], **VARIANT_FIELDS)


def variant_button(t: Translator, name: str) -> str:
    return t.pgettext(*VARIANT_BUTTONS[name], **VARIANT_FIELDS)


class Named(Protocol):
    """Anything that names a seat: a person's name, or a computer's level."""

    @property
    def name(self) -> str | None: ...
    @property
    def computer(self) -> str | None: ...


class Member(Named, Protocol):
    @property
    def team(self) -> int: ...


def seat_name(t: Translator, seat: Named) -> str:
    """A person's name (isolated) or the computer's level name."""
    if seat.computer is not None:
        return computer_player_name(t, seat.computer, seat.name)
    return user_text(seat.name or "?")


def names(t: Translator, seats: Iterable[Named]) -> str:
    """Names joined: "Alice & Carla" / "Alice و Carla"."""
    return listed(t, [seat_name(t, s) for s in seats], final=True)


def listed(t: Translator, items: Sequence[str], *, final: bool = False) -> str:
    """Items joined with the language's comma; ``final`` joins the last two with "&"."""
    if not items:
        return ""
    if final and len(items) > 1:
        # TRANSLATORS: two names together, e.g. partners "Alice & Carla".
        last = t.gettext("{first} & {second}", first=items[-2], second=items[-1])
        items = [*items[:-2], last]
    # TRANSLATORS: the separator between items of a list.
    return t.pgettext("list", ", ").join(items)


def side_name(t: Translator, seats: Sequence[Member], team: int) -> str:
    """In 1-v-1 the player's name; in 2-v-2 "Team A — Alice & Carla" (a dash, not brackets: a
    computer's name has its own, "Computer 1 (beginner)", and brackets inside brackets are
    hard to read on a phone)."""
    members = [s for s in seats if s.team == team]
    if len(seats) == 2 and members:
        return seat_name(t, members[0])
    # TRANSLATORS: a team and its players, e.g. "Team A — Alice & Carla".
    return t.gettext("{team} — {players}", team=team_name(t, team), players=names(t, members))


def score_side(t: Translator, seats: Sequence[Member], team: int) -> str:
    """A side in a score line: the player's name in 1-v-1, the team's name alone in 2-v-2
    (who plays in each team is on the seat lines), so that the score is read at a glance."""
    members = [s for s in seats if s.team == team]
    if len(seats) == 2 and members:
        return seat_name(t, members[0])
    return team_name(t, team)


def floor_text(t: Translator, floor: Sequence[str], marked: Iterable[int] = ()) -> str:
    """The floor in order, taken cards in brackets; "empty" when bare."""
    if not floor:
        return t.pgettext("floor", "empty")
    chosen = set(marked)
    return isolate(
        " ".join(f"[{card_face(c)}]" if i in chosen else card_face(c) for i, c in enumerate(floor))
    )


def run_of(cards: Sequence[str]) -> str:
    return cards_text(cards)


def clock_text(seconds: int) -> str:
    """``1:05``, isolated."""
    return isolate(f"{seconds // 60}:{seconds % 60:02d}")


def scores_line(t: Translator, seats: Sequence[Member], scores: tuple[int, int], target: int) -> str:
    # TRANSLATORS: the match score, e.g. "Alice 45 – 30 Badr (to 121)"; {score} is "45–30".
    return t.gettext(
        "{first} {score} {second} (to {target})",
        first=score_side(t, seats, 0),
        score=facing_scores(*scores),
        second=score_side(t, seats, 1),
        target=target,
    )


def variants_on(rules: Rules) -> list[str]:
    """The names of the §8 variants these rules follow."""
    changed = rules.to_dict()
    return [name for name, fields in VARIANTS.items() if all(changed.get(k) == v for k, v in fields.items())]


def variants_line(t: Translator, rules: Rules) -> str:
    on = [variant_name(t, name) for name in variants_on(rules)]
    if not on:
        # TRANSLATORS: the rules of a table when no variant is chosen; {target} is 121 by default.
        return t.gettext("Rules: standard, to {target} points", target=rules.target)
    # TRANSLATORS: the variants a table plays with, e.g. "Rules: Match to 100, Optional capture".
    return t.gettext("Rules: {variants}", variants=listed(t, on))
