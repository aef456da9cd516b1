"""Telegram's text formatting: what the server stores for the text a bot sends.

The server turns HTML or MarkdownV2 into plain text plus entities (offsets in
UTF-16 code units) and refuses malformed markup; the parsers live in
``telegram_html`` and ``telegram_markdown``.
"""

from __future__ import annotations

from .telegram_entities import trim
from .telegram_html import parse_html
from .telegram_markdown import parse_markdown, parse_markdown_v2
from .telegram_models import JSONDict, bad_request


def format_text(
    text: str, parse_mode: str | None, entities: list[JSONDict] | None
) -> tuple[str, list[JSONDict]]:
    """Plain text and entities the server stores for what a bot sent.

    Explicit ``entities`` win over ``parse_mode``, like on the server; the
    result is trimmed of surrounding whitespace, which Telegram also does.
    """
    if entities is not None:
        plain, found = text, [dict(entity) for entity in entities]
    elif parse_mode is None:
        plain, found = text, []
    else:
        mode = parse_mode.lower()
        if mode == "html":
            plain, found = parse_html(text)
        elif mode == "markdownv2":
            plain, found = parse_markdown_v2(text)
        elif mode == "markdown":
            plain, found = parse_markdown(text)
        else:
            raise bad_request("unsupported parse_mode")
    return trim(plain, found)
