"""The outbound side: what the service tells a platform adapter, and the adapter protocol.

After every accepted action the service commits it to the store, then calls
``Platform.deliver`` once with the notices it caused, in order. Public notices
(``public`` is True) go to the table's chat; private ones to ``player_id``
only. Every notice carries ``lang``, the language to render it in (the
person's choice, else the chat's, else what the platform reported, else the
default), so both bots say the same thing.

Notices never arrive for an action that was not committed; an adapter that
misses some (a crash, a blocked bot) asks the service for fresh views.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

from .views import HandView, LobbyEnd, LobbyView, MatchResultView, RoundResultView, TableView


class _ForTheChat:
    """Where a public notice goes: the chat of the view it is ``about``, for everyone."""

    __slots__ = ()
    public = True

    @property
    def about(self) -> LobbyView | TableView | RoundResultView | MatchResultView:
        raise NotImplementedError

    @property
    def chat_id(self) -> str:
        return self.about.chat_id

    @property
    def table_id(self) -> str:
        return self.about.table_id

    @property
    def player_id(self) -> None:
        return None


class _AboutALobby(_ForTheChat):
    __slots__ = ()
    lobby: LobbyView

    @property
    def about(self) -> LobbyView:
        return self.lobby


class _AboutAResult(_ForTheChat):
    __slots__ = ()
    result: RoundResultView | MatchResultView

    @property
    def about(self) -> RoundResultView | MatchResultView:
        return self.result


class _AboutAHand:
    """Where a hand notice goes: to the hand's player only."""

    __slots__ = ()
    public = False
    hand: HandView

    @property
    def chat_id(self) -> str:
        return self.hand.table.chat_id

    @property
    def table_id(self) -> str:
        return self.hand.table_id

    @property
    def player_id(self) -> str:
        return self.hand.player_id


@dataclass(frozen=True, slots=True)
class LobbyUpdated(_AboutALobby):
    """Show or edit the lobby message in the chat."""

    lobby: LobbyView
    lang: str
    kind: Literal["lobby_updated"] = "lobby_updated"


@dataclass(frozen=True, slots=True)
class LobbyClosed(_AboutALobby):
    """The lobby message is done: the match ``started``, or it was ``cancelled`` or ``expired``."""

    lobby: LobbyView
    reason: LobbyEnd
    lang: str
    kind: Literal["lobby_closed"] = "lobby_closed"


@dataclass(frozen=True, slots=True)
class TableUpdated(_ForTheChat):
    """Show or edit the public table message (one per round: a new round is ``table.round_no``)."""

    table: TableView
    lang: str
    kind: Literal["table_updated"] = "table_updated"

    @property
    def about(self) -> TableView:
        return self.table


@dataclass(frozen=True, slots=True)
class HandUpdated(_AboutAHand):
    """Show or edit ``player_id``'s private hand message. Private."""

    hand: HandView
    lang: str
    kind: Literal["hand_updated"] = "hand_updated"


@dataclass(frozen=True, slots=True)
class YourTurn(_AboutAHand):
    """It is now ``player_id``'s turn: notify them (an edit alone may not). Private.

    Sent after the ``HandUpdated`` of the same action; ``hand`` is that hand.
    """

    hand: HandView
    lang: str
    kind: Literal["your_turn"] = "your_turn"


@dataclass(frozen=True, slots=True)
class ClockWarning(_AboutAHand):
    """``seconds_left`` remain on ``player_id``'s turn clock. Private (it may also be said in the chat)."""

    hand: HandView
    seconds_left: int
    lang: str
    kind: Literal["clock_warning"] = "clock_warning"


@dataclass(frozen=True, slots=True)
class RoundEnded(_AboutAResult):
    """A round is scored: post it as its own message with the points breakdown."""

    result: RoundResultView
    lang: str
    kind: Literal["round_ended"] = "round_ended"


@dataclass(frozen=True, slots=True)
class MatchEnded(_AboutAResult):
    """The match is over (target, resignation, timeout or expiry): post the result."""

    result: MatchResultView
    lang: str
    kind: Literal["match_ended"] = "match_ended"


@dataclass(frozen=True, slots=True)
class TableSetAside:
    """The table's saved record is damaged: it was closed when it was read (at start-up or
    later), and its chat is told (once) that this game cannot go on and a new one can start."""

    table_id: str
    chat_id: str
    lang: str
    kind: Literal["table_set_aside"] = "table_set_aside"
    public = True

    @property
    def player_id(self) -> None:
        return None


@dataclass(frozen=True, slots=True)
class ForSeat:
    """A public notice of a stranger match (``ids.pool_chat``: it has no chat of its own),
    for one person seated at it: shown in their private chat, on their platform, in their
    language (``lang``; ``notice.lang`` is the same). Private to ``player_id``."""

    notice: LobbyUpdated | LobbyClosed | TableUpdated | RoundEnded | MatchEnded | TableSetAside
    player_id: str
    lang: str
    kind: Literal["for_seat"] = "for_seat"
    public = False

    @property
    def chat_id(self) -> str:
        return self.notice.chat_id

    @property
    def table_id(self) -> str:
        return self.notice.table_id


@dataclass(frozen=True, slots=True)
class Reacted:
    """Someone at a stranger match sent one of the canned reactions (``reactions.REACTIONS``,
    by its key): show it to ``player_id``, another person at the table, with the sender's
    display name only. Private. No free text ever passes between strangers."""

    table_id: str
    chat_id: str
    player_id: str
    sender: str
    reaction: str
    lang: str
    kind: Literal["reacted"] = "reacted"
    public = False


Notice = (
    LobbyUpdated
    | LobbyClosed
    | TableUpdated
    | HandUpdated
    | YourTurn
    | ClockWarning
    | RoundEnded
    | MatchEnded
    | TableSetAside
    | ForSeat
    | Reacted
)


class Platform(Protocol):
    """What a chat adapter gives the service: somewhere to deliver notices.

    ``name`` is the platform prefix of its chat and player ids (``"tg"``,
    ``"dc"``). ``owner`` names the bot itself (``"tg:<bot id>"``, ``"dc:<application
    id>"``; a platform with a single bot may use its ``name``): its tables are its own,
    and the service hands each adapter only those, whoever else shares the database.
    ``deliver`` gets the notices of one action of one table, in order, after
    the action is committed, while the table's lock is held: it must only
    queue what to send (``bots.outbound``) and return, never wait for the
    network, so the next action and the press's answer wait for no message.
    It should not raise (failures are logged and dropped: the state is safe
    in the store and fresh views can be asked for). Reading is safe from
    inside it: ``table``, ``hand``, ``preview`` and ``hint`` wait for no action.
    """

    name: str
    owner: str

    async def deliver(self, notices: Sequence[Notice]) -> None: ...


@runtime_checkable
class Undelivered(Protocol):
    """A platform that can tell which tables it still has writes for, queued or under way
    (``undelivered``: their ids; None when it cannot tell). A service notes them at each
    heartbeat, so that after a crash it draws again only those and the tables changed
    since (``lifecycle``), not every table changed in ``redeliver_seconds``."""

    def undelivered(self) -> Collection[str] | None: ...
