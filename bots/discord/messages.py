"""Renderer output to Discord message parts: an embed, buttons, plain content.

The shared renderer (``bots.render``) decides every word and button; this
module only fits them into Discord's shapes: markdown in an embed, at most
five rows of five buttons, labels of at most 80 characters.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Literal, TypeVar

import discord

from ..i18n import Translator
from ..render import Button, Rendered, render_hand, render_hint
from ..service import HandView, HintView
from .buttons import ActionButton

if TYPE_CHECKING:
    from ..web import WebTable

log = logging.getLogger(__name__)
T = TypeVar("T")

MAX_ROWS = 5
MAX_PER_ROW = 5
MAX_LABEL = 80
MAX_DESCRIPTION = 4096
MAX_CONTENT = 2000

Kind = Literal["lobby", "table", "hand", "result", "info"]
COLOURS: dict[Kind, discord.Colour] = {
    "lobby": discord.Colour.blurple(),
    "table": discord.Colour.dark_green(),
    "hand": discord.Colour.dark_teal(),
    "result": discord.Colour.gold(),
    "info": discord.Colour.light_grey(),
}
STYLES: dict[str, discord.ButtonStyle] = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def embed_of(rendered: Rendered, kind: Kind) -> discord.Embed:
    """The rendering's text as an embed description (markdown)."""
    return discord.Embed(description=clip(rendered.text.markdown(), MAX_DESCRIPTION), colour=COLOURS[kind])


def view_of(rendered: Rendered) -> discord.ui.View | None:
    """Persistent buttons (``timeout=None``); ``None`` when there are none, which
    removes the old buttons when a message is edited."""
    rows: list[list[Button]] = []
    for rendered_row in rendered.buttons:
        for start in range(0, len(rendered_row), MAX_PER_ROW):
            rows.append(list(rendered_row[start : start + MAX_PER_ROW]))
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for number, row in enumerate(fit_rows(rows)):
        for button in row:
            view.add_item(
                ActionButton(
                    button.action,
                    label=clip(button.label, MAX_LABEL),
                    style=STYLES.get(button.style, discord.ButtonStyle.secondary),
                    row=number,
                )
            )
    return view


def fit_rows(rows: list[list[T]]) -> list[list[T]]:
    """At most five rows: join the smallest neighbouring rows that fit in one
    (the renderer's layout otherwise stays); drop what still does not fit.

    >>> [len(r) for r in fit_rows([[1], [2], [3], [4], [5, 6, 7], [8, 9, 10]])]
    [2, 1, 1, 3, 3]
    """
    rows = [list(row) for row in rows]
    while len(rows) > MAX_ROWS:
        pairs = [(len(rows[i]) + len(rows[i + 1]), i) for i in range(len(rows) - 1)]
        size, index = min(pairs)
        if size > MAX_PER_ROW:
            break
        rows[index : index + 2] = [rows[index] + rows[index + 1]]
    if len(rows) > MAX_ROWS:
        log.warning("%d button rows rendered; Discord shows %d", len(rows), MAX_ROWS)
        rows = rows[:MAX_ROWS]
    return rows


def message_parts(rendered: Rendered, kind: Kind, *, content: str | None = None) -> dict[str, Any]:
    """Keyword arguments for ``send``/``edit``: embed, view and content.

    ``content`` goes above the embed (a mention, or a refusal shown on a hand);
    ``None`` clears it when editing.
    """
    return {
        "content": clip(content, MAX_CONTENT) if content else None,
        "embed": embed_of(rendered, kind),
        "view": view_of(rendered),
    }


def hand_parts(
    hand: HandView,
    t: Translator,
    *,
    now: float | None,
    note: str | None = None,
    hint: HintView | None = None,
    web: WebTable | None = None,
) -> dict[str, Any]:
    """A hand message: the renderer's hand (with ``hint`` above it, when asked for)
    and a note above the message; with ``web``, a link that opens the table as a page
    (signed for this player and table, good once, expiring: ``bots.web.auth``)."""
    # Discord counts the turn clock down by itself (a live timestamp), between edits too.
    rendered = (
        render_hint(hint, t, now=now, live=True)
        if hint is not None
        else render_hand(hand, t, now=now, live=True)
    )
    parts = message_parts(rendered, "hand", content=note)
    if web is not None and hand.table.running:
        # TRANSLATORS: link under a private hand: opens the table as a web page.
        parts["view"] = with_link(parts["view"], t.gettext("🃏 Open the table"), web.hand_url(hand, t.lang))
    return parts


def with_link(view: discord.ui.View | None, label: str, url: str) -> discord.ui.View:
    """The view with a link button of its own row (the last of the five Discord allows)."""
    view = view or discord.ui.View(timeout=None)
    view.add_item(discord.ui.Button(style=discord.ButtonStyle.link, label=label, url=url, row=4))
    return view
