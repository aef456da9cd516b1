"""parse_mode HTML as the Telegram server applies it.

Only Telegram's tags and its four named character references are accepted;
anything else is "can't parse entities", so a bot that forgets to escape a
player's name such as ``<Sara>`` fails here just as it would in production.
Error texts follow the server's parser (tdlib).
"""

from __future__ import annotations

import re
from typing import Any

from .telegram_entities import OpenEntity, TextOutput, byte_offset, cant_parse
from .telegram_models import JSONDict

_HTML_TAGS = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
    "a": "text_link",
    "code": "code",
    "pre": "pre",
    "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}
_HTML_ESCAPES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}
_HTML_CHAR_REF = re.compile(r"&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);")
_HTML_TOKEN = re.compile(r"[A-Za-z0-9.-]*")


def parse_html(source: str) -> tuple[str, list[JSONDict]]:
    """Apply parse_mode HTML: only Telegram's tags, only its four named escapes."""
    out = TextOutput()
    stack: list[OpenEntity] = []
    i = 0
    while i < len(source):
        char = source[i]
        if char == "&":
            ref = _HTML_CHAR_REF.match(source, i)
            if ref is None:
                out.add("&")
                i += 1
                continue
            out.add(_decode_reference(ref.group(1), ref.group(0)))
            i = ref.end()
            continue
        if char != "<":
            stop = _next_special(source, i)
            out.add(source[i:stop])
            i = stop
            continue
        i = _html_tag(source, i, out, stack)
    if stack:
        raise cant_parse(f"Can't find end tag corresponding to start tag {stack[-1].name}")
    return out.result()


def _next_special(source: str, i: int) -> int:
    """Index of the next ``<`` or ``&`` (or the end): plain text runs up to there."""
    found = [j for j in (source.find("<", i), source.find("&", i)) if j >= 0]
    return min(found, default=len(source))


def _decode_reference(name: str, whole: str) -> str:
    if name.startswith(("#x", "#X")):
        return chr(int(name[2:], 16))
    if name.startswith("#"):
        return chr(int(name[1:]))
    return _HTML_ESCAPES.get(name.lower(), whole)


def _html_tag(source: str, begin: int, out: TextOutput, stack: list[OpenEntity]) -> int:
    """Handle the tag at ``begin``; return the index just after it."""
    at = byte_offset(source, begin)
    if source.startswith("</", begin):
        return _html_end_tag(source, begin, at, out, stack)
    name_end = _html_name_end(source, begin + 1)
    if name_end == len(source):
        raise cant_parse(f"Unclosed start tag at byte offset {at}")
    name = source[begin + 1 : name_end].lower()
    if name not in _HTML_TAGS:
        raise cant_parse(f'Unsupported start tag "{name}" at byte offset {at}')
    attributes, after = _html_attributes(source, name_end, name, at)
    kind = _HTML_TAGS[name]
    extra: dict[str, Any] = {}
    if name == "span" and attributes.get("class") != "tg-spoiler":
        raise cant_parse(f'Tag "span" must have class "tg-spoiler" at byte offset {at}')
    if name == "a":
        href = attributes.get("href", "")
        kind, extra = ("text_link", {"url": href}) if href else ("", {})
    elif name == "tg-emoji":
        extra = {"custom_emoji_id": attributes.get("emoji-id", "")}
    elif name == "blockquote" and "expandable" in attributes:
        kind = "expandable_blockquote"
    elif name == "code" and stack and stack[-1].name == "pre" and stack[-1].start == out.offset:
        language = attributes.get("class", "")
        if language.startswith("language-"):
            stack[-1].extra["language"] = language.removeprefix("language-")
            kind = ""
    stack.append(OpenEntity(name, kind, out.offset, at, extra))
    return after


def _html_name_end(source: str, i: int) -> int:
    """Tag names run to the first space or ``>``, so ``<3`` is the unknown tag "3"."""
    while i < len(source) and not source[i].isspace() and source[i] != ">":
        i += 1
    return i


def _skip_spaces(source: str, i: int) -> int:
    while i < len(source) and source[i].isspace():
        i += 1
    return i


def _html_attributes(source: str, i: int, name: str, at: int) -> tuple[dict[str, str], int]:
    """Read ``key="value"`` pairs up to ``>``; return them and the index after ``>``."""
    attributes: dict[str, str] = {}
    while True:
        i = _skip_spaces(source, i)
        if i >= len(source):
            raise cant_parse(f"Unclosed start tag at byte offset {at}")
        if source[i] == ">":
            return attributes, i + 1
        start = i
        while i < len(source) and not source[i].isspace() and source[i] not in "=>":
            i += 1
        key = source[start:i].lower()
        if not key:
            raise cant_parse(f'Empty attribute name in the tag "{name}" at byte offset {at}')
        i = _skip_spaces(source, i)
        if key == "expandable" and source[i : i + 1] != "=":
            attributes[key] = ""
            continue
        if source[i : i + 1] != "=":
            raise cant_parse(
                f'Expected equal sign in declaration of an attribute of the tag "{name}" at byte offset {at}'
            )
        i = _skip_spaces(source, i + 1)
        if i >= len(source):
            raise cant_parse(f'Unclosed start tag "{name}" at byte offset {at}')
        if source[i] in "\"'":
            close = source.find(source[i], i + 1)
            close = len(source) if close < 0 else close
            attributes[key] = _HTML_CHAR_REF.sub(
                lambda ref: _decode_reference(ref.group(1), ref.group(0)), source[i + 1 : close]
            )
            i = close + 1
            continue
        token = _HTML_TOKEN.match(source, i)
        assert token is not None  # the pattern accepts the empty string
        attributes[key] = token.group(0).lower()
        i = token.end()
        if i < len(source) and not source[i].isspace() and source[i] != ">":
            raise cant_parse(
                f"Unexpected end of name token at byte offset {byte_offset(source, token.start())}"
            )


def _html_end_tag(source: str, begin: int, at: int, out: TextOutput, stack: list[OpenEntity]) -> int:
    """Close the innermost tag; ``</>`` closes whatever is open, as on the server."""
    if not stack:
        raise cant_parse(f"Unexpected end tag at byte offset {at}")
    name_end = _html_name_end(source, begin + 2)
    name = source[begin + 2 : name_end].lower()
    close = _skip_spaces(source, name_end)
    if close >= len(source) or source[close] != ">":
        raise cant_parse(f"Unclosed end tag at byte offset {at}")
    tag = stack.pop()
    if name and tag.name != name:
        raise cant_parse(
            f'Unmatched end tag at byte offset {at}, expected "</{tag.name}>", found "</{name}>"'
        )
    if tag.kind:
        out.entity(tag.kind, tag.start, **tag.extra)
    return close + 1
