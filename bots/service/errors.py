"""The service's refusals: one base error, each carrying a translatable message.

Every refusal changes nothing. Adapters catch ``ServiceError`` (a
``core.BasraError``, so one ``except BasraError`` covers the engine too) and
answer with ``error.message(translator)``; when the refusal came from an
outdated or wrong view, ``error.fresh`` holds the current one to show instead.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from core import BasraError

from ..i18n import N_, Translator, card_label, user_text

if TYPE_CHECKING:
    from .views import HandView, LobbyView, TableView


class ServiceError(BasraError):
    """Base of every refusal of the table service.

    ``msgid`` is the English message template (translated by ``message``);
    ``fields`` fill it. ``card`` fields are shown as card labels and ``name``
    fields are isolated, so Arabic text around them cannot reorder them.
    """

    msgid: ClassVar[str] = N_("That cannot be done now.")

    def __init__(self, detail: str = "", /, *, fresh: Any = None, **fields: object) -> None:
        super().__init__(detail or self.msgid.format_map(_Raw(fields)))
        self.fields = fields
        self.fresh: HandView | TableView | LobbyView | None = fresh

    def message(self, t: Translator, **spelling: str) -> str:
        """The refusal in the reader's language; ``spelling`` names the platform's commands
        (``command="/newgame"``) for messages that tell what to do next."""
        shown: dict[str, object] = {"command": t.gettext(N_("the new game command")), **spelling}
        for key, value in self.fields.items():
            if key == "card" and isinstance(value, str):
                shown[key] = card_label(value)
            elif key == "name" and isinstance(value, str):
                shown[key] = user_text(value)
            else:
                shown[key] = value
        return t.gettext(self.msgid, **shown)


class _Raw(dict[str, object]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


class BadInput(ServiceError):
    """A payload or text that is not a valid action (forged, garbled, unknown card)."""

    msgid = N_("That button is not valid any more.")


class NoSuchTable(ServiceError):
    """The table id names no lobby or match this service knows."""

    msgid = N_("This game no longer exists.")


class NoOpenTable(ServiceError):
    """The chat has no lobby or running match."""

    msgid = N_("There is no game in this chat. Start one with {command}.")


class TableExists(ServiceError):
    """The chat already has an open lobby or a running match (one per chat)."""

    msgid = N_("This chat already has a game. Finish or cancel it first.")


class LobbyNotOpen(ServiceError):
    """A lobby action on a table that has started, been cancelled or expired."""

    msgid = N_("This lobby is closed.")


class LobbyFull(ServiceError):
    msgid = N_("The table is full.")


class PracticeTable(ServiceError):
    """A practice lobby seats its creator against computers (in 2-v-2, up to two friends
    with them, so that a computer still plays)."""

    msgid = N_("This is a practice table against the computer. Open your own with the new game command.")


class TeamFull(ServiceError):
    msgid = N_("That team is full.")


class AlreadySeated(ServiceError):
    """A person cannot sit twice at one table."""

    msgid = N_("You are already at this table.")


class NotSeated(ServiceError):
    """The presser has no seat at this table (someone else's hand or lobby)."""

    msgid = N_("You are not playing at this table.")


class NotCreator(ServiceError):
    """Only the person who opened the lobby may start it, cancel it or add computers."""

    msgid = N_("Only the player who opened the table can do that.")


class NotReady(ServiceError):
    """Start pressed while seats are empty or the teams are uneven."""

    msgid = N_("The table is not full yet.")


class MatchOver(ServiceError):
    msgid = N_("This match is over.")


class NotYourTurn(ServiceError):
    """``name`` is the player whose turn it is."""

    msgid = N_("It is {name}'s turn, not yours.")


class StaleView(ServiceError):
    """The press came from an outdated view; ``fresh`` is the current one."""

    msgid = N_("The table has moved on; here is the current view.")


class IllegalMove(ServiceError):
    """The rules refuse the play; nothing changed."""

    msgid = N_("That play is not allowed.")


class CardNotInHand(IllegalMove):
    msgid = N_("{card} is not in your hand.")


class NoSuchPlan(IllegalMove):
    msgid = N_("{card} has no capture number {plan}.")


class MustCapture(IllegalMove):
    msgid = N_("{card} can take, so it must take (forced capture).")


class BadSetting(ServiceError):
    """A setting value out of range or a variant that does not exist."""

    msgid = N_("That setting is not valid.")


class NotAdmin(ServiceError):
    """A group's settings changed by a member who is not one of its admins."""

    msgid = N_("Only the group's admins can change its settings.")


class UnknownLevel(ServiceError):
    """A computer level that is not (yet) available."""

    msgid = N_("That computer player is not available.")


class NoHint(ServiceError):
    """A hint asked for in a match between people, where help from outside is not fair play."""

    msgid = N_("Hints are only for practice matches against the computer.")


class NotSaved(ServiceError):
    """The store failed (disk full, database locked, an I/O error): nothing changed, and the
    same action can be tried again once it works."""

    msgid = N_("That was not saved: the game's storage is failing. Nothing changed; try again in a moment.")


class NotRunning(ServiceError):
    """A match action at a table whose match has not started."""

    msgid = N_("The match has not started yet.")


class RematchStarting(NotRunning):
    """``/resign`` while the chat's rematch is gathering its players or being dealt: the
    match that ended cannot be resigned any more, and the new one is not resigned for a
    command typed before it began. Once it has begun, ``/resign`` resigns it."""

    # TRANSLATORS: /resign while the chat's rematch is gathering its players or being dealt.
    msgid = N_(
        "A new match is starting here, so nothing was resigned. Once its cards are dealt, you can "
        "resign it the same way."
    )


class NoFinishedMatch(ServiceError):
    """A record asked for in a chat where no match has finished yet."""

    msgid = N_(
        "No match has finished in this chat yet, so there is no record to send. Start one with {command}."
    )


class MatchNotOver(ServiceError):
    """A record asked for while its match is still played: it would tell the hands and the stock."""

    msgid = N_("This match is still being played: its record comes when it ends.")


# The pairing pool (``pool``) ---------------------------------------------------------------


class PoolNotHere(ServiceError):
    """``/play`` on a platform or in a chat the pool does not serve (a group: the adapter
    says where to send it instead)."""

    msgid = N_("Looking for an opponent works in the private chat with me.")


class AlreadyPlaying(ServiceError):
    """``/play`` while seated at a running match: finish or resign it first."""

    # TRANSLATORS: /play while the person is still playing a match; {command} is /resign.
    msgid = N_("You are playing a match already. Finish it first, or resign it with {command}.")


class AlreadyLooking(ServiceError):
    """``/play`` again while the pool is looking for them: still one entry, no second
    waiting message. ``fresh`` is not set: the waiting message above is the one."""

    msgid = N_("I am already looking for an opponent for you: my waiting message shows how it goes.")


class NotLooking(ServiceError):
    """Cancel, or a press on an old waiting message, when the person is not waiting."""

    msgid = N_("You are not waiting for an opponent now.")


class AlreadyPaired(ServiceError):
    """Cancel after a wave paired them: the match has begun."""

    msgid = N_("Too late to cancel: an opponent was found and your match has begun.")


class BlockedAlready(ServiceError):
    """Block pressed twice, or on someone who was not at the table."""

    msgid = N_("You will not be paired with this player again.")


class TooManyReactions(ServiceError):
    """More canned reactions than a person may send in a minute (``reactions``)."""

    msgid = N_("That is enough reactions for now: try again in {seconds} s.")


# Invitations to the pool (``invites``): a friend who uses one joins its maker as a partner --


class InviteExpired(ServiceError):
    """An invitation used already, expired, or never made (a mistyped code)."""

    # TRANSLATORS: a friend used an invitation to join someone's two against two (a link or a code).
    msgid = N_("This invitation has expired or was used already. Ask your friend for a new one.")


class OwnInvite(ServiceError):
    """Someone used the invitation they made themself."""

    msgid = N_("This is your own invitation: send it to a friend, so that they join you.")


class InviterPlaying(ServiceError):
    """The one who made the invitation plays a match now; ``name`` is their display name."""

    msgid = N_("{name} is playing a match now. Ask them for a new invitation once it is over.")


class InviterLeft(ServiceError):
    """The one who made the invitation stopped looking since, or looks for something else
    now; ``name`` is their display name."""

    msgid = N_("{name} is not looking for a partner any more. Ask them for a new invitation.")


class InviteBlocked(ServiceError):
    """The one who made the invitation and the one who used it: one blocked the other."""

    msgid = N_("You cannot join this player: one of you blocked the other.")


class InviteWhileLooking(ServiceError):
    """An invitation used by someone who waits in the pool already: one search at a time."""

    msgid = N_(
        "You are looking for players already. Cancel that search first, then use the invitation again."
    )
