"""The start page: who one is, and playing someone online, from the web table.

The page (``GET /start``; on Telegram a Mini App on the bot's private-chat welcome, on
Discord a link on the DM's waiting message and ``/basra help``) logs in as a table's page
does (``auth``: the Mini App's ``initData``, or a Discord person's signed link, good once)
and gets a start session: the person, their display name and their private chat, and no
table. A Discord link names the person alone: their display name and their DM with the
bot are asked of the Discord side at login (``StartPeople``). Over the
same socket as a table's page (``server``) it shows their name and rating and offers what
``/play`` offers, one against one or two against two. Each press is the chat's own service
call (``TableService.pool_join``, ``pool_cancel``, ``pool_keep_waiting``,
``pool_computer``), refused in the chat's words, and the waiting message in the person's
chat follows it (``PoolChat``, which the chat adapter hands the web table).

While the person waits, the page shows one waiting view (how long, how many look,
Cancel; after ``pool_wait_seconds`` the computer or waiting on), woken by what the pool
tells them (``told``, from ``TeedPoolPlatform``) and read again every
``REFRESH_SECONDS`` (a press in the chat tells no platform). Once a wave seats them, the
page asks for a session at that table (``open``: only a table where the person has a
seat) and goes to its page, where the match is played as from any hand; the chat plays it
too, and both stay in step. So does a practice match the person chose instead.

A start frame names nobody but its reader: whom a wave found are display names, as the
chat's waiting message shows them.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from ..i18n import Translator, translator
from ..i18n.words import level_name
from ..render.common import clock_text
from ..render.markup import Line
from ..render.pool import found_lines
from ..service import (
    AlreadyPlaying,
    HandView,
    Person,
    PoolNotice,
    PoolView,
    ServiceError,
    TableService,
    platform_of,
)
from ..service.pool import PROVISIONAL_MATCHES
from ..service.results import display_rating
from .auth import Gate, StartSession
from .frames import Frame, error_frame
from .hub import Send, WebHub

log = logging.getLogger(__name__)

#: How often a start page reads the pool again when nothing told it to (seconds).
REFRESH_SECONDS: Final = 5.0
#: The kinds of match the page offers, as ``/play`` does.
MODES: Final = ("1v1", "2v2")
#: How each platform spells the resign command, which the refusal to look while playing names.
RESIGN: Final = {"tg": "/resign", "dc": "/basra resign"}
#: The keys of a frame that change with the clock alone: no new frame for them.
TICKING: Final = ("now", "waited")


class PoolChat(Protocol):
    """A chat platform's side of a search begun or changed on the start page: the person's
    waiting message in their chat follows, as the same press there would leave it. ``op`` is
    "join", "cancel", "wait" or "computer"; it only queues, and never raises."""

    def page_pressed(self, op: str, view: PoolView, person: Person) -> None: ...


class StartPeople(Protocol):
    """A chat platform whose start page logs in by a link that names the person alone
    (Discord): ``start_person`` gives their display name and their private chat with the
    bot (a chat id), or None when the platform cannot tell them now."""

    async def start_person(self, player_id: str) -> tuple[str, str] | None: ...


@dataclass(eq=False)
class StartPage:
    """One connected start page: whose, and how to send it a frame."""

    session: StartSession
    send: Send
    woken: asyncio.Event = field(default_factory=asyncio.Event)
    shown: str = ""
    task: asyncio.Task[None] | None = None
    #: The rating shown (display rating, provisional), and what it was read for.
    rating: tuple[int, bool] | None = None
    rated_for: tuple[Any, ...] = ()

    @property
    def player_id(self) -> str:
        return self.session.player_id

    @property
    def person(self) -> Person:
        return Person(self.session.player_id, self.session.name, self.session.language)


class StartPages:
    """The start pages connected now, by person; what they ask goes to the service."""

    def __init__(self, gate: Gate, hub: WebHub) -> None:
        self.gate = gate
        self.hub = hub
        self._pages: dict[str, set[StartPage]] = {}
        #: Each platform's chat side (``PoolChat``), as its adapter handed it (``WebTable.pool_chat``).
        self.chats: dict[str, PoolChat] = {}
        #: Who a start link's person is, on each platform whose links name nobody else (``StartPeople``).
        self.people: dict[str, StartPeople] = {}
        self.refresh_seconds = REFRESH_SECONDS
        #: Frames sent, for the tests' bookkeeping.
        self.sent = 0

    @property
    def service(self) -> TableService:
        return self.hub.service

    # -- pages ---------------------------------------------------------------------------

    def open(self, session: StartSession, send: Send) -> StartPage:
        page = StartPage(session, send)
        self._pages.setdefault(page.player_id, set()).add(page)
        page.woken.set()
        page.task = asyncio.get_running_loop().create_task(self._serve(page))
        return page

    async def close(self, page: StartPage) -> None:
        pages = self._pages.get(page.player_id)
        if pages is not None:
            pages.discard(page)
            if not pages:
                del self._pages[page.player_id]
        if page.task is not None:
            page.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await page.task

    async def stop(self) -> None:
        for pages in list(self._pages.values()):
            for page in list(pages):
                await self.close(page)

    def pages(self, player_id: str) -> int:
        return len(self._pages.get(player_id, ()))

    def told(self, notices: Sequence[PoolNotice]) -> None:
        """What the pool told people (``PoolPlatform.tell_pool``): their pages read it (never waits)."""
        for notice in notices:
            for page in self._pages.get(notice.view.player_id, ()):
                page.woken.set()

    async def _serve(self, page: StartPage) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(page.woken.wait(), self.refresh_seconds)
            page.woken.clear()
            try:
                frame = await self.frame(page)
            except ServiceError as error:
                log.info("start page: no view (%s)", type(error).__name__)
                continue
            except Exception:
                log.exception("start page: making its frame failed")
                continue
            same = json.dumps({k: v for k, v in frame.items() if k not in TICKING},
                              ensure_ascii=False, sort_keys=True)
            if same == page.shown:
                continue
            page.shown = same
            if not await self._send(page, frame):
                return
            self.sent += 1

    @staticmethod
    async def _send(page: StartPage, frame: Frame) -> bool:
        try:
            await page.send(json.dumps(frame, ensure_ascii=False, separators=(",", ":")))
        except (ConnectionError, RuntimeError):
            return False
        return True

    async def frame(self, page: StartPage) -> Frame:
        """The page's frame now: the person, their rating, and their search or what they play."""
        service = self.service
        person = page.person
        t = translator(await service.language(None, person))
        status = await service.pool_status(person)
        hands = await service.hands_of(page.player_id)
        waiting = status is not None and status.state == "waiting"
        if waiting:
            assert status is not None
            rating = (display_rating(status.rating), status.provisional)
        else:
            # Read again only when what the person does changes (a match that ended moved it).
            asked = (status.state if status is not None else None, tuple(h.table_id for h in hands))
            if page.rating is None or page.rated_for != asked:
                stats = await service.stats(page.player_id, name=page.session.name)
                shown = stats.line.rating if stats.line is not None else display_rating(0.0)
                page.rating, page.rated_for = (int(shown), stats.rated_matches < PROVISIONAL_MATCHES), asked
            rating = page.rating
        return start_frame(t, page.session, rating, status, hands, self.hub.now())

    # -- what a page asks ------------------------------------------------------------------

    async def act(self, page: StartPage, message: dict[str, Any]) -> None:
        """A press on the page: the chat's service call, with its checks and its refusals."""
        op = message.get("op")
        person = page.person
        t = translator(await self.service.language(None, person))
        try:
            if op == "open":
                await self._open(page, message.get("table"))
                return
            if op == "join":
                mode = message.get("mode")
                if mode not in MODES:
                    return
                view = await self.service.pool_join(person, page.session.chat_id, str(mode))
            elif op == "cancel":
                view = await self.service.pool_cancel(person)
            elif op == "wait":
                view = await self.service.pool_keep_waiting(person)
            elif op == "computer":
                view = await self.service.pool_computer(person)
            else:
                return
            self._tell_chat(str(op), view, person)
            if op == "computer":
                table = await self.service.practice(view.chat_id, person, level=view.level)
                await self._go(page, table.table_id, table.chat_id)
        except ServiceError as error:
            command = RESIGN.get(platform_of(page.player_id), RESIGN["tg"])
            await self._send(page, error_frame(error.message(t, command=command)))
        page.shown = ""  # every press is answered with the view, changed or not
        page.woken.set()

    async def _open(self, page: StartPage, table_id: object) -> None:
        """A session at ``table_id`` for its page, when the person has a seat there
        (NotSeated, MatchOver otherwise: refused as the chat refuses them)."""
        if not isinstance(table_id, str) or not table_id or len(table_id) > 40:
            return
        hand = await self.service.hand(table_id, page.player_id)
        await self._go(page, table_id, hand.table.chat_id)

    async def _go(self, page: StartPage, table_id: str, chat_id: str) -> None:
        lang = await self.service.language(chat_id, page.person)
        session = self.gate.session(page.player_id, table_id, lang)
        await self._send(page, {"type": "go", "table": table_id, "session": session})

    def _tell_chat(self, op: str, view: PoolView, person: Person) -> None:
        chat = self.chats.get(platform_of(person.player_id))
        if chat is None:
            return
        try:
            chat.page_pressed(op, view, person)
        except Exception:
            log.exception("the chat did not follow a start page's %s", op)


# -- frames ------------------------------------------------------------------------------


def start_texts(t: Translator) -> dict[str, str]:
    """The start page's own words, in the reader's language."""
    return {
        "title": t.gettext("Basra table"),
        "reconnecting": t.gettext("Connecting again…"),
        # TRANSLATORS: the start page's login was refused or ran out: not genuine, or too old.
        "gone": t.gettext("This page is not valid any more. Open it again from the bot's chat."),
        "clock": t.gettext("Time waited: {clock}", clock="{clock}"),
    }


def _lines(lines: Sequence[Line]) -> list[Frame]:
    return [{"text": line.plain(), "bold": any(s.bold for s in line.spans)} for line in lines]


def _text(text: str, *, bold: bool = False) -> Frame:
    return {"text": text, "bold": bold}


def _button(op: str, text: str, style: str = "", **more: str) -> Frame:
    return {"op": op, "text": text, "style": style, **more}


def rating_text(t: Translator, rating: int, provisional: bool) -> str:
    """The reader's rating, marked when still provisional (the waiting message's words)."""
    if provisional:
        return t.gettext("Your rating: {rating} (provisional)", rating=rating)
    return t.gettext("Your rating: {rating}", rating=rating)


def found(t: Translator, status: PoolView, hand: HandView) -> list[Frame]:
    """Whom a wave found, as the chat's waiting message says it: display names only."""
    seats = hand.table.seats
    mine = seats[hand.seat].team
    others = [s for s in seats if s.player_id != hand.player_id]
    partners = tuple(s.name or "?" for s in others if len(seats) == 4 and s.team == mine)
    opponents = tuple(s.name or "?" for s in others if not (len(seats) == 4 and s.team == mine))
    return _lines(found_lines(dataclasses.replace(status, opponents=opponents, partners=partners), t))


def waiting_view(t: Translator, view: PoolView) -> tuple[list[Frame], list[list[Frame]]]:
    """The waiting view's lines and buttons, in the words of the chat's waiting message: what
    is looked for, how many look, and Cancel; once the wait is over, the computer or waiting on."""
    if view.mode == "2v2":
        title = t.gettext("Looking for players: two against two…")
    else:
        title = t.gettext("Looking for an opponent…")
    if view.looking > 1:
        looking = t.ngettext("{n} person is looking, you included.", "{n} people are looking, you included.",
                             view.looking)
    else:
        looking = t.gettext("Nobody else is looking right now.")
    # The clock's line: the page counts it on from the frame's ``waited`` (``texts["clock"]``).
    lines = [_text(title, bold=True), {**_text(""), "clock": True}, _text(looking)]
    cancel = _button("cancel", t.gettext("✖ Cancel"), "danger")
    if not view.offered:
        lines.append(_text(t.gettext(
            "Your match begins here as soon as someone is found. If nobody is found within {clock}, "
            "you can play the computer instead.", clock=clock_text(int(view.wait_seconds)))))
        return lines, [[cancel]]
    lines.append(_text(t.gettext(
        "Nobody was found yet. Play the computer ({level}) now, or keep waiting.",
        level=level_name(t, view.level)), bold=True))
    offer = [_button("computer", t.gettext("🤖 Play the computer"), "success"),
             _button("wait", t.gettext("⏳ Keep waiting"))]
    return lines, [offer, [cancel]]


def start_frame(t: Translator, session: StartSession, rating: tuple[int, bool], status: PoolView | None,
                hands: Sequence[HandView], now: float) -> Frame:
    """The start page's frame. ``state``: "idle" (the two kinds of match offered), "waiting"
    (the waiting view, its clock counted on from ``waited`` at ``now``), "paired" (the match
    a wave found: the page opens its ``table``) or "playing" (a match already under way, which
    the page offers to open)."""
    frame: Frame = {
        "type": "start",
        "lang": t.lang,
        "dir": "rtl" if t.rtl else "ltr",
        "texts": start_texts(t),
        "name": session.name,
        "rating": rating_text(t, *rating),
        "now": now,
        "waited": 0.0,
        "table": None,
    }
    opened = _button("open", t.gettext("🃏 Open the table"), "primary")
    seated = status.table_id if status is not None and status.state == "seated" else None
    match = next((h for h in hands if h.table_id == seated), None)
    if status is not None and match is not None:
        lines, buttons, state = found(t, status, match), [[{**opened, "table": match.table_id}]], "paired"
        frame["table"] = match.table_id
    elif status is not None and status.state == "waiting":
        lines, buttons = waiting_view(t, status)
        state = "waiting"
        frame["waited"] = status.waited
    elif hands:
        command = RESIGN.get(platform_of(session.player_id), RESIGN["tg"])
        lines = [_text(AlreadyPlaying().message(t, command=command))]
        buttons, state = [[{**opened, "table": hands[-1].table_id}]], "playing"
    else:
        # TRANSLATORS: on the start page, above its two buttons that look for people to play now.
        lines = [_text(t.gettext("Play someone online now: one against one, or two against two "
                                 "with a partner found for you."))]
        buttons = [
            [_button("join", t.gettext("🎲 Play someone online"), "primary", mode="1v1")],
            # TRANSLATORS: button on the start page: look for a partner and two opponents online.
            [_button("join", t.gettext("👥 Play two against two"), "primary", mode="2v2")],
        ]
        state = "idle"
    frame.update(state=state, lines=lines, buttons=buttons)
    return frame
