"""parse_mode MarkdownV2 and legacy Markdown as the Telegram server applies them.

MarkdownV2 insists that reserved characters such as ``.`` and ``!`` are
escaped; forgetting it is the commonest way a bot's message is refused.
Error texts follow the server's parser (tdlib); the rarer ones are close
paraphrases.
"""

from __future__ import annotations

from typing import Any

from .telegram_entities import OpenEntity, TextOutput, byte_offset, cant_parse
from .telegram_models import JSONDict

_V2_RESERVED = "_*[]()~`>#+-=|{}.!"
_V2_NAMES = {
    "bold": "Bold",
    "italic": "Italic",
    "underline": "Underline",
    "strikethrough": "Strikethrough",
    "spoiler": "Spoiler",
    "code": "Code",
    "pre": "Pre",
    "text_link": "TextUrl",
    "custom_emoji": "CustomEmoji",
}
_V2_CLOSERS = {
    "bold": "*",
    "italic": "_",
    "underline": "__",
    "strikethrough": "~",
    "spoiler": "||",
    "text_link": "]",
    "custom_emoji": "]",
}


def parse_markdown_v2(source: str) -> tuple[str, list[JSONDict]]:
    """Apply parse_mode MarkdownV2, including its rule that reserved characters need ``\\``."""
    out = TextOutput()
    stack: list[OpenEntity] = []
    quote: OpenEntity | None = None
    i = 0
    while i < len(source):
        char = source[i]
        top = stack[-1] if stack else None
        line_start = i == 0 or source[i - 1] == "\n"
        if char == "\\" and i + 1 < len(source) and 0 < ord(source[i + 1]) < 127:
            out.add(source[i + 1])
            i += 2
        elif top is not None and top.kind in ("code", "pre"):
            closer = "`" if top.kind == "code" else "```"
            if source.startswith(closer, i):
                stack.pop()
                out.entity(top.kind, top.start, **top.extra)
                i += len(closer)
            else:
                out.add(char)
                i += 1
        elif char == ">" and line_start:
            quote = quote or OpenEntity(">", "blockquote", out.offset, byte_offset(source, i))
            i += 1
        elif char == "\n":
            if quote is not None and not source.startswith(">", i + 1):
                out.entity(quote.kind, quote.start)
                quote = None
            out.add(char)
            i += 1
        elif char not in _V2_RESERVED:
            out.add(char)
            i += 1
        elif top is not None and source.startswith(_V2_CLOSERS.get(top.kind, "\0"), i):
            stack.pop()
            i += len(_V2_CLOSERS[top.kind])
            if top.kind in ("text_link", "custom_emoji"):
                i = _v2_link_target(source, i, top)
            if top.kind != "text_link" or top.extra.get("url"):
                out.entity(top.kind, top.start, **top.extra)
        else:
            opened, i = _v2_open(source, i, out)
            stack.append(opened)
    if stack:
        top = stack[-1]
        raise cant_parse(f"Can't find end of {_V2_NAMES[top.kind]} entity at byte offset {top.byte}")
    if quote is not None:
        out.entity(quote.kind, quote.start)
    return out.result()


def _v2_open(source: str, i: int, out: TextOutput) -> tuple[OpenEntity, int]:
    """Start the MarkdownV2 entity at ``i``; return it and the index after its marker."""
    at = byte_offset(source, i)
    two = source[i : i + 2]
    if two == "__":
        return OpenEntity(two, "underline", out.offset, at), i + 2
    if two == "||":
        return OpenEntity(two, "spoiler", out.offset, at), i + 2
    if two == "![":
        return OpenEntity(two, "custom_emoji", out.offset, at), i + 2
    if source.startswith("```", i):
        newline = source.find("\n", i + 3)
        fence = source.find("```", i + 3)
        extra: dict[str, Any] = {}
        start = i + 3
        if newline >= 0 and (fence < 0 or newline < fence):
            if language := source[i + 3 : newline].strip():
                extra["language"] = language
            start = newline + 1
        return OpenEntity("```", "pre", out.offset, at, extra), start
    kinds = {"*": "bold", "_": "italic", "~": "strikethrough", "`": "code", "[": "text_link"}
    if source[i] in kinds:
        return OpenEntity(source[i], kinds[source[i]], out.offset, at), i + 1
    raise cant_parse(f"Character '{source[i]}' is reserved and must be escaped with the preceding '\\'")


def _v2_link_target(source: str, i: int, link: OpenEntity) -> int:
    """Read the ``(url)`` after a link's ``]``; return the index after it."""
    if not source.startswith("(", i):
        return i
    target: list[str] = []
    j = i + 1
    while j < len(source) and source[j] != ")":
        if source[j] == "\\" and j + 1 < len(source):
            j += 1
        target.append(source[j])
        j += 1
    if j >= len(source):
        raise cant_parse(f"Can't find end of a url at byte offset {byte_offset(source, i)}")
    url = "".join(target)
    if link.kind == "custom_emoji":
        link.extra["custom_emoji_id"] = url.rpartition("id=")[2]
    else:
        link.extra["url"] = url
    return j + 1


def parse_markdown(source: str) -> tuple[str, list[JSONDict]]:
    """Apply the legacy parse_mode Markdown: no nesting, four markers, ``\\`` escapes them."""
    out = TextOutput()
    i = 0
    while i < len(source):
        char = source[i]
        if char == "\\" and source[i + 1 : i + 2] in ("_", "*", "`", "["):
            out.add(source[i + 1])
            i += 2
            continue
        if char not in "_*`[":
            out.add(char)
            i += 1
            continue
        marker = "```" if source.startswith("```", i) else {"[": "]"}.get(char, char)
        stop = source.find(marker, i + len(marker) if marker == "```" else i + 1)
        if stop < 0:
            raise cant_parse(f"Can't find end of the entity starting at byte offset {byte_offset(source, i)}")
        start = out.offset
        out.add(source[i + (3 if marker == "```" else 1) : stop])
        i = stop + len(marker)
        if char == "[":
            url_end = source.find(")", i) if source.startswith("(", i) else -1
            if url_end >= 0:
                out.entity("text_link", start, url=source[i + 1 : url_end])
                i = url_end + 1
            continue
        kind = {"*": "bold", "_": "italic", "`": "pre" if marker == "```" else "code"}[char]
        out.entity(kind, start)
    return out.result()
