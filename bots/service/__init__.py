"""The table service both bots share: lobbies, matches, clocks, results, views.

Adapters (``bots.telegram``, ``bots.discord``) call ``TableService`` methods
with namespaced ids (``"tg:123"``, ``"dc:456"``; see ``ids``), render the
views they get back with ``bots.render``, and implement ``Platform.deliver``
for the notices the service sends later. Refusals are ``ServiceError``s
carrying a translatable message (and a fresh view when the press was stale).

An adapter, in short::

    store = SqliteStore(settings.database)
    await store.open()
    service = TableService(store, [my_platform], config=settings.service_config())
    await service.start()                      # restores tables, re-arms clocks

    me = Person(player_id("tg", user.id), user.full_name, user.language_code)
    lobby = await service.new_lobby(chat_id("tg", chat.id), me, "2v2")
    ...
    action = Action.decode(callback_data)      # bots.render
    if action.verb == "card":
        hand = await service.preview(action.table_id, me.player_id, action.card)
    elif action.verb == "hint":                # practice only: render_hint(hint, t)
        hint = await service.hint(action.table_id, me.player_id)
    elif action.verb == "play":
        hand = await service.play(action.table_id, me.player_id, action.version,
                                  action.card, action.plan)

    class MyPlatform:                          # notices arrive after each commit
        name = "tg"
        async def deliver(self, notices): ...  # render_notice(n) for each
"""

from .clock import Clock, ManualClock, SystemClock, Timer
from .config import ServiceConfig
from .erasure import Forgotten
from .errors import (
    AlreadyLooking,
    AlreadyPaired,
    AlreadyPlaying,
    AlreadySeated,
    BadInput,
    BadSetting,
    CardNotInHand,
    IllegalMove,
    InviteBlocked,
    InviteExpired,
    InviterLeft,
    InviterPlaying,
    InviteWhileLooking,
    LobbyFull,
    LobbyNotOpen,
    MatchNotOver,
    MatchOver,
    MustCapture,
    NoFinishedMatch,
    NoHint,
    NoOpenTable,
    NoSuchPlan,
    NoSuchTable,
    NotAdmin,
    NotCreator,
    NotLooking,
    NotReady,
    NotRunning,
    NotSaved,
    NotSeated,
    NotYourTurn,
    OwnInvite,
    PoolNotHere,
    PracticeTable,
    ServiceError,
    StaleView,
    TableExists,
    TeamFull,
    TooManyReactions,
    UnknownLevel,
)
from .ids import Person, chat_id, is_pool_chat, platform_of, player_id, pool_chat, raw_id
from .invites import INVITE_SECONDS, InviteView
from .notices import (
    ClockWarning,
    ForSeat,
    HandUpdated,
    LobbyClosed,
    LobbyUpdated,
    MatchEnded,
    Notice,
    Platform,
    Reacted,
    RoundEnded,
    TableSetAside,
    TableUpdated,
    Undelivered,
    YourTurn,
)
from .reactions import REACTIONS
from .records import RecordFile
from .service import COMPUTER_LEVELS, Connected, TableService
from .views import (
    HandView,
    HintView,
    LeaderboardView,
    LobbySeat,
    LobbyView,
    MatchResultView,
    PlanOption,
    PlayDescription,
    Preview,
    RoundClose,
    RoundResultView,
    SeatInfo,
    SeatResult,
    SettingsView,
    SidePoints,
    StatsLine,
    StatsView,
    TableView,
)
from .waiting import (
    PoolLooking,
    PoolNotice,
    PoolOffer,
    PoolPaired,
    PoolPlatform,
    PoolTogether,
    PoolView,
    pairs_here,
)

__all__ = [
    "COMPUTER_LEVELS",
    "INVITE_SECONDS",
    "REACTIONS",
    "AlreadyLooking",
    "AlreadyPaired",
    "AlreadyPlaying",
    "AlreadySeated",
    "BadInput",
    "BadSetting",
    "CardNotInHand",
    "Clock",
    "ClockWarning",
    "Connected",
    "ForSeat",
    "Forgotten",
    "HandUpdated",
    "HandView",
    "HintView",
    "IllegalMove",
    "InviteBlocked",
    "InviteExpired",
    "InviteView",
    "InviteWhileLooking",
    "InviterLeft",
    "InviterPlaying",
    "LeaderboardView",
    "LobbyClosed",
    "LobbyFull",
    "LobbyNotOpen",
    "LobbySeat",
    "LobbyUpdated",
    "LobbyView",
    "ManualClock",
    "MatchEnded",
    "MatchNotOver",
    "MatchOver",
    "MatchResultView",
    "MustCapture",
    "NoFinishedMatch",
    "NoHint",
    "NoOpenTable",
    "NoSuchPlan",
    "NoSuchTable",
    "NotAdmin",
    "NotCreator",
    "NotLooking",
    "NotReady",
    "NotRunning",
    "NotSaved",
    "NotSeated",
    "NotYourTurn",
    "Notice",
    "OwnInvite",
    "Person",
    "PlanOption",
    "Platform",
    "PlayDescription",
    "PoolLooking",
    "PoolNotHere",
    "PoolNotice",
    "PoolOffer",
    "PoolPaired",
    "PoolPlatform",
    "PoolTogether",
    "PoolView",
    "PracticeTable",
    "Preview",
    "Reacted",
    "RecordFile",
    "RoundClose",
    "RoundEnded",
    "RoundResultView",
    "SeatInfo",
    "SeatResult",
    "ServiceConfig",
    "ServiceError",
    "SettingsView",
    "SidePoints",
    "StaleView",
    "StatsLine",
    "StatsView",
    "SystemClock",
    "TableExists",
    "TableService",
    "TableSetAside",
    "TableUpdated",
    "TableView",
    "TeamFull",
    "Timer",
    "TooManyReactions",
    "Undelivered",
    "UnknownLevel",
    "YourTurn",
    "chat_id",
    "is_pool_chat",
    "pairs_here",
    "platform_of",
    "player_id",
    "pool_chat",
    "raw_id",
]
