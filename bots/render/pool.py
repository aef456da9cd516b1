"""The pairing pool's messages: the one waiting message a person's search shows (looking,
the computer offered, an opponent found, the search stopped) and the buttons that start a
search from elsewhere (the welcome, a practice match's result, a stranger match's result);
and the invitation a 2-v-2 search's Bring a partner answers with (a link, or a code).

A waiting message names nobody but its reader: how many are looking is a count, and the
opponent found, or the partner a friend came as, is shown by their display name (isolated),
never an id or a username; an invitation holds a random token, no id. Every button here acts
on the presser alone (``POOL_VERBS``); only Block names a table, the stranger match it is
under.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..i18n import Translator, user_text
from ..i18n.words import level_name
from ..service.ids import is_pool_chat
from ..service.results import display_rating
from ..service.views import MatchResultView
from ..service.waiting import PoolView
from .actions import Action, Button
from .common import clock_text, listed
from .markup import Line, Span, Text
from .rendered import Rendered


def seek_button(t: Translator) -> Button:
    """Look for someone to play now, as the play command does."""
    # TRANSLATORS: button (the welcome, under a practice result): look for an opponent online now.
    return Button(t.gettext("🎲 Play someone online"), Action("seek"), "primary")


def with_seek(rendered: Rendered, t: Translator) -> Rendered:
    """``rendered`` with a row that starts a search under its buttons."""
    return Rendered(rendered.text, (*rendered.buttons, (seek_button(t),)), rendered.mention)


def rating_line(view: PoolView, t: Translator) -> Line:
    """The reader's rating under a waiting message, marked when it is still provisional."""
    rating = display_rating(view.rating)
    if view.provisional:
        # TRANSLATORS: a rating from fewer than five rated matches, which says little yet.
        return Line.of(t.gettext("Your rating: {rating} (provisional)", rating=rating))
    return Line.of(t.gettext("Your rating: {rating}", rating=rating))


def invite_button(t: Translator) -> Button:
    """Bring a friend as partner to a 2-v-2 search: an invitation to pass on (``invite``)."""
    # TRANSLATORS: button under the message of a search for two against two: invite a friend
    # to join as one's partner (the bot then looks for two opponents).
    return Button(t.gettext("🤝 Bring a partner"), Action("invite"))


def render_waiting(view: PoolView, t: Translator, *, resumed: bool = False,
                   waiting_for: str | None = None, partner: str | None = None,
                   parted: bool = False) -> Rendered:
    """The waiting message while the pool looks: how long, how many look, the reader's rating
    (provisional for their first rated matches); once nobody was found within the wait, the
    computer at the level nearest their rating, or waiting on. ``resumed``: the bot restarted
    meanwhile and is still looking. A search for two against two says so in its title, and
    offers to bring a partner (``invite_button``); once a friend came as partner
    (``view.partnered``), it says that the two look for two opponents, naming the partner
    (``partner``, else ``view.partners``, when known). ``parted``: the partner stopped
    looking, and the reader looks on alone. ``waiting_for``: the display name of the one
    person a rematch waits for (``rematch_waiting``), named instead of how many look."""
    if waiting_for is not None:
        return rematch_waiting(view, t, waiting_for, resumed=resumed)
    together = view.mode == "2v2" and view.partnered
    if together:
        name = partner if partner is not None else next(iter(view.partners), None)
        # TRANSLATORS: the title of the message shown while the bot looks for two opponents
        # for the reader and the partner they brought; {name} is the partner's display name.
        title = (t.gettext("Looking for two opponents for you and your partner {name}…", name=user_text(name))
                 if name else t.gettext("Looking for two opponents for you and your partner…"))
    elif view.mode == "2v2":
        # TRANSLATORS: the title of the message shown while the bot looks for three players
        # online: a partner and two opponents.
        title = t.gettext("Looking for players: two against two…")
    else:
        # TRANSLATORS: the title of the message shown while the bot looks for an opponent.
        title = t.gettext("Looking for an opponent…")
    lines = [Line.of(Span(title, bold=True))]
    if parted and not together:
        # TRANSLATORS: in the message of a search for two against two, after the partner the
        # reader came with cancelled theirs.
        lines.append(Line.of(t.gettext(
            "Your partner stopped looking, so I am looking for a partner for you too.")))
    if resumed:
        lines.append(Line.of(t.gettext("The bot restarted, and I am still looking for you.")))
    # TRANSLATORS: how long the search has lasted so far, e.g. "Time waited: 0:42".
    waited = t.gettext("Time waited: {clock}", clock=clock_text(int(view.waited)))
    if view.looking > 1:
        # TRANSLATORS: how many people look for an opponent now; the reader is one of them.
        looking = t.ngettext("{n} person is looking, you included.", "{n} people are looking, you included.",
                             view.looking)
    else:
        looking = t.gettext("Nobody else is looking right now.")
    lines.append(Line.of(f"{waited} · {looking}"))
    lines.append(rating_line(view, t))
    cancel = Button(t.gettext("✖ Cancel"), Action("unseek"), "danger")
    bring = ((invite_button(t),),) if view.mode == "2v2" and not together else ()
    if not view.offered:
        lines.append(Line.of(t.gettext(
            "Your match begins here as soon as someone is found. If nobody is found within {clock}, "
            "you can play the computer instead.", clock=clock_text(int(view.wait_seconds)))))
        return Rendered(Text.of(*lines), (*bring, (cancel,)))
    # TRANSLATORS: {level} is a computer level, e.g. "beginner".
    lines.append(Line.of(Span(t.gettext(
        "Nobody was found yet. Play the computer ({level}) now, or keep waiting.",
        level=level_name(t, view.level)), bold=True)))
    offer = (
        Button(t.gettext("🤖 Play the computer"), Action("solo"), "success"),
        Button(t.gettext("⏳ Keep waiting"), Action("wait")),
    )
    return Rendered(Text.of(*lines), (offer, *bring, (cancel,)))


def invite_title(t: Translator) -> Line:
    # TRANSLATORS: the title of the message that holds an invitation (a link, or a code) to
    # pass on to a friend, who joins the reader as partner in two against two.
    return Line.of(Span(t.gettext("Your invitation to play two against two"), bold=True))


def render_invite_link(t: Translator, link: str, seconds: int) -> Rendered:
    """The answer to Bring a partner where the invitation is a link to press (Telegram): what
    to do with it, how long it lasts, and the link, on a line of its own."""
    minutes = max(1, seconds // 60)
    return Rendered(Text.of(
        invite_title(t),
        Line.of(t.ngettext(
            "Send this link to a friend: when they press it, they join you as your partner, and I "
            "look for two opponents for you both. It works once, for {n} minute.",
            "Send this link to a friend: when they press it, they join you as your partner, and I "
            "look for two opponents for you both. It works once, for {n} minutes.", minutes)),
        Line.of(link),
    ))


def render_invite_code(t: Translator, command: str, seconds: int) -> Rendered:
    """The answer to Bring a partner where the invitation is a code to type (Discord): the
    command that uses it (``command``, code included), on a line of its own, and how long
    it lasts."""
    minutes = max(1, seconds // 60)
    return Rendered(Text.of(
        invite_title(t),
        Line.of(t.ngettext(
            "Send this command to a friend: when they use it, they join you as your partner, and I "
            "look for two opponents for you both. It works once, for {n} minute.",
            "Send this command to a friend: when they use it, they join you as your partner, and I "
            "look for two opponents for you both. It works once, for {n} minutes.", minutes)),
        Line.of(Span(command, bold=True)),
    ))


def rematch_waiting(view: PoolView, t: Translator, name: str, *, resumed: bool = False) -> Rendered:
    """The waiting message of a rematch asked for under a stranger 1-v-1's result: whom it
    waits for (``name``, their display name, isolated), who must ask for it too; how long,
    the reader's rating, and once the wait is over the computer, or waiting on."""
    shown = user_text(name)
    # TRANSLATORS: the title of the message shown while a rematch waits for the other player;
    # {name} is their display name.
    lines = [Line.of(Span(t.gettext("Rematch with {name}: waiting for them…", name=shown), bold=True))]
    if resumed:
        lines.append(Line.of(t.gettext("The bot restarted, and I am still looking for you.")))
    lines.append(Line.of(t.gettext("Time waited: {clock}", clock=clock_text(int(view.waited)))))
    lines.append(rating_line(view, t))
    cancel = Button(t.gettext("✖ Cancel"), Action("unseek"), "danger")
    if not view.offered:
        lines.append(Line.of(t.gettext(
            "The rematch begins here as soon as {name} presses Rematch too. If they have not within "
            "{clock}, you can play the computer instead.",
            name=shown, clock=clock_text(int(view.wait_seconds)))))
        return Rendered(Text.of(*lines), ((cancel,),))
    # TRANSLATORS: {name} is the other player's display name; {level} a computer level, e.g. "beginner".
    lines.append(Line.of(Span(t.gettext(
        "{name} has not pressed Rematch yet. Play the computer ({level}) now, or keep waiting.",
        name=shown, level=level_name(t, view.level)), bold=True)))
    offer = (
        Button(t.gettext("🤖 Play the computer"), Action("solo"), "success"),
        Button(t.gettext("⏳ Keep waiting"), Action("wait")),
    )
    return Rendered(Text.of(*lines), (offer, (cancel,)))


def found_lines(view: PoolView, t: Translator) -> list[Line]:
    """Whom a wave found, as the waiting message says it once the match began: the opponent
    of a 1-v-1; the partner and the other team of a 2-v-2. Display names only, isolated."""
    opponents = listed(t, [user_text(name) for name in view.opponents], final=True) or "?"
    if not view.partners:
        # TRANSLATORS: {names} is the display name of the opponent the bot found.
        return [Line.of(Span(t.gettext("Opponent found: {names}", names=opponents), bold=True))]
    partners = listed(t, [user_text(name) for name in view.partners], final=True)
    return [
        # TRANSLATORS: a search for two against two found three players; the lines below name them.
        Line.of(Span(t.gettext("Players found: two against two"), bold=True)),
        # TRANSLATORS: {names} is the display name of the partner the bot found.
        Line.of(t.gettext("Your partner: {names}", names=partners)),
        # TRANSLATORS: {names} are the display names of the two opponents, e.g. "Amal and Badr".
        Line.of(t.gettext("Opponents: {names}", names=opponents)),
    ]


def rematch_button(result: MatchResultView, t: Translator) -> Button | None:
    """Rematch under a finished stranger 1-v-1's result: its presser waits in the pool for
    that same opponent, who must press it too (``again``). None under any other result."""
    if not is_pool_chat(result.chat_id) or len(result.seats) != 2 or result.reason == "expired":
        return None
    return Button(t.gettext("🔁 Rematch"), Action("again", result.table_id, result.version), "primary")


def with_rematch(rendered: Rendered, result: MatchResultView, t: Translator) -> Rendered:
    """A stranger match's rendered result with Rematch first in its first row, when it is a
    1-v-1 (``rematch_button``); else as it is."""
    button = rematch_button(result, t)
    if button is None:
        return rendered
    first, *rest = rendered.buttons or ((),)
    return Rendered(rendered.text, ((button, *first), *rest), rendered.mention)


def rematch_asked_text(t: Translator, name: str) -> str:
    """What the one who pressed Rematch under a stranger match is told (``name``: whom it
    waits for, their display name)."""
    return t.gettext("You asked {name} for a rematch: it begins as soon as they press Rematch too.",
                     name=user_text(name))


def render_paired(view: PoolView, t: Translator) -> Rendered:
    """The waiting message once the match was found: whom (``found_lines``: the opponent; in
    two against two the partner and the other team, display names only), and that the match
    follows below. No buttons: the search is over."""
    return Rendered(Text.of(
        *found_lines(view, t),
        Line.of(t.gettext("Your match begins below: your cards come here with your turn.")),
    ))


def render_stopped(t: Translator, command: str) -> Rendered:
    """The waiting message once its reader stopped looking; ``command`` is the platform's
    spelling of the play command."""
    return Rendered(Text.of(
        Line.of(Span(t.gettext("You stopped looking for an opponent."), bold=True)),
        Line.of(t.gettext("Send {command} to look again.", command=command)),
    ))


def render_solo(view: PoolView, t: Translator) -> Rendered:
    """The waiting message once its reader chose the computer instead."""
    return Rendered(Text.of(Line.of(Span(t.gettext(
        "You chose to play the computer ({level}): the practice match begins below.",
        level=level_name(t, view.level)), bold=True))))


def blocked_text(t: Translator, names: Sequence[str]) -> str:
    """What Block did: whom the presser will not be paired with again (display names)."""
    if not names:
        return t.gettext("You will not be paired with this player again.")
    shown = listed(t, [user_text(name) for name in names], final=True)
    return t.gettext("You will not be paired with {names} again.", names=shown)


def seek_again(result: MatchResultView) -> Action:
    """A new search for the same kind of match as ``result``'s: two against two after one."""
    return Action("seek", arg="2v2") if result.mode == "2v2" else Action("seek")


def stranger_result_buttons(result: MatchResultView, t: Translator) -> tuple[tuple[Button, ...], ...]:
    """Under a stranger match's result: look for someone again, for the same kind of match
    (``seek_again``), or block who was met. Never Rematch, whose lobby would open in a chat
    nobody reads."""
    # TRANSLATORS: button under the result of a match with someone the bot found online.
    again = Button(t.gettext("🎲 Play someone again"), seek_again(result), "primary")
    # TRANSLATORS: button under such a result: never be paired with that player again.
    block = Button(t.gettext("🚫 Block"), Action("block", result.table_id, result.version), "danger")
    return ((again, block),)


def play_in_private_text(t: Translator, command: str) -> str:
    """The play command sent in a group: where it works."""
    return t.gettext(
        "Playing someone online happens in our private chat: press the button to open it, then "
        "Start (or send {command} there).", command=command)
