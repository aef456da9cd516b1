"""The pages connected now, and what each is sent when its table moves.

Each WebSocket is a ``Page``: a seat's (its ``player_id``) or a watcher's
(``player_id`` None). The service's notices reach ``WebHub.notify`` (through
``TeedPlatform``) while the table's lock is held: it only wakes the pages of
that table and returns. Each page has its own sender task that, once woken,
reads the *current* view from the service (the seat's own hand, or the public
table) and sends it if it differs from what the page shows. What the bot's other
processes commit (a shared database) wakes the pages through ``changed``. A page always
ends on the latest state, a burst of plays costs one frame, and the chat's
delivery never waits for a browser. A seat's frame is made only from that
seat's ``HandView`` and sent only to sockets logged in as that seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Final, TypeVar

from ..i18n import translator
from ..service import (
    Connected,
    HandUpdated,
    HandView,
    MatchEnded,
    MatchOver,
    Notice,
    Preview,
    RoundEnded,
    ServiceError,
    TableUpdated,
)
from .frames import Frame, Result, hand_frame, watch_frame

log = logging.getLogger(__name__)

Send = Callable[[str], Awaitable[None]]
T = TypeVar("T")
#: The tables whose last results are kept in memory, those changed last.
KEPT: Final = 256


@dataclass(eq=False)
class Page:
    """One connected page: whose (None: watching), which table, how to send it a frame."""

    table_id: str
    player_id: str | None
    send: Send
    lang: str
    woken: asyncio.Event = field(default_factory=asyncio.Event)
    shown: str = ""
    task: asyncio.Task[None] | None = None


class WebHub(Connected):
    """Pages by table; the tee's ``notify`` wakes them."""

    def __init__(self, now: Callable[[], float]) -> None:
        #: Epoch seconds as the service reads them (its clock: frames carry its deadlines).
        self.now = now
        self._pages: dict[str, set[Page]] = {}
        #: The last round's or match's result of the tables changed last (``KEPT``), as their
        #: notices said (a table's older than those is shown as one this process never heard of).
        self._results: OrderedDict[str, list[Result]] = OrderedDict()
        #: The language each person's notices were rendered in, and each table's public one
        #: (the ``KEPT`` × 4 noted last).
        self._langs: OrderedDict[str, str] = OrderedDict()
        #: Frames sent, for the benchmark and the privacy tests' bookkeeping.
        self.sent = 0
        #: Tables another process moved (the ``KEPT`` × 4 last): their last results are read
        #: from the service.
        self._unheard: OrderedDict[str, None] = OrderedDict()

    # -- notices -------------------------------------------------------------------------

    def notify(self, notices: Sequence[Notice]) -> None:
        """Note results and languages, wake the table's pages (never waits)."""
        for notice in notices:
            if isinstance(notice, RoundEnded):
                latest: list[Result] = [notice.result]
                _note(self._results, notice.table_id, latest, KEPT)
            elif isinstance(notice, MatchEnded):
                before = self._results.get(notice.table_id, [])
                _note(self._results, notice.table_id, [*before, notice.result], KEPT)
            elif isinstance(notice, HandUpdated):
                _note(self._langs, notice.player_id, notice.lang, 4 * KEPT)
            elif isinstance(notice, TableUpdated):
                _note(self._langs, notice.table_id, notice.lang, 4 * KEPT)
        if notices:
            for page in self._pages.get(notices[0].table_id, ()):
                page.woken.set()

    def changed(self, table_id: str | None) -> None:
        """Another process committed a change of the table (None: of any table, perhaps):
        its pages read their views again (``TableService.changes``)."""
        tables = [table_id] if table_id is not None else list(self._pages)
        for each in tables:
            _note(self._unheard, each, None, 4 * KEPT)  # a round it scored came as no notice here
            for page in self._pages.get(each, ()):
                page.woken.set()

    def language(self, player_id: str | None, table_id: str, fallback: str) -> str:
        return self._langs.get(player_id or table_id) or self._langs.get(table_id) or fallback

    # -- pages ---------------------------------------------------------------------------

    def open(self, page: Page) -> None:
        self._pages.setdefault(page.table_id, set()).add(page)
        page.woken.set()
        page.task = asyncio.get_running_loop().create_task(self._serve(page))

    async def close(self, page: Page) -> None:
        pages = self._pages.get(page.table_id)
        if pages is not None:
            pages.discard(page)
            if not pages:
                del self._pages[page.table_id]
        if page.task is not None:
            page.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await page.task

    def pages(self, table_id: str) -> int:
        return len(self._pages.get(table_id, ()))

    async def _serve(self, page: Page) -> None:
        while True:
            await page.woken.wait()
            page.woken.clear()
            try:
                frame = await self.frame(page)
            except ServiceError as error:
                log.info("web page of table %s: no view (%s)", page.table_id, type(error).__name__)
                frame = {"type": "gone"}
            except Exception:
                log.exception("web page of table %s: making its frame failed", page.table_id)
                continue
            text = json.dumps(frame, ensure_ascii=False, separators=(",", ":"))
            # The clock's reading alone does not make a new frame.
            same = text.replace(f'"now":{json.dumps(frame.get("now"))}', "")
            if same == page.shown:
                continue
            page.shown = same
            try:
                await page.send(text)
            except (ConnectionError, RuntimeError):
                return
            self.sent += 1

    async def frame(self, page: Page) -> Frame:
        """The page's frame now: its seat's hand with every card previewed, or the table."""
        service = self.service
        lang = self.language(page.player_id, page.table_id, page.lang)
        t = translator(lang)
        if page.table_id in self._unheard:
            del self._unheard[page.table_id]
            _note(self._results, page.table_id, list(await service.last_results(page.table_id)), KEPT)
        result = self._results.get(page.table_id, [])
        now = self.now()
        if page.player_id is None:
            table = await service.table(page.table_id)
            return {"type": "state", **watch_frame(t, table, now, result)}
        try:
            hand = await service.hand(page.table_id, page.player_id)
        except MatchOver as over:  # a finished match: its last picture
            if not isinstance(over.fresh, HandView):
                raise
            hand = over.fresh
        previews: dict[str, Preview] = {}
        if hand.table.running:
            for card in hand.hand:
                shown = await service.preview(page.table_id, page.player_id, card)
                if shown.preview is not None and shown.version == hand.version:
                    previews[card] = shown.preview
        return {"type": "state", **hand_frame(t, hand, previews, now, result)}

    async def stop(self) -> None:
        for pages in list(self._pages.values()):
            for page in list(pages):
                await self.close(page)


def _note(kept: OrderedDict[str, T], key: str, value: T, most: int) -> None:
    """Note ``value`` as the latest, keeping the ``most`` noted last."""
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > most:
        kept.popitem(last=False)
