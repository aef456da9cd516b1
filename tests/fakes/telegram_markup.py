"""Telegram's text formatting and keyboards, checked the way the server checks them.

The server turns HTML or MarkdownV2 into plain text plus entities and rejects
malformed markup with "can't parse entities"; a bot that forgets to escape a
player's name such as ``<Sara>`` fails here just as it would in production.
Offsets are UTF-16 code units, as in the Bot API. Error texts follow the
server's parser (tdlib); the rarer ones are close paraphrases.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .telegram_models import ApiError, JSONDict, bad_request, utf16_len

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
_INCOMING_ENTITY = re.compile(
    r"(?<![\w/@])(?:(?P<command>/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?)"
    r"|(?P<mention>@[A-Za-z0-9_]{5,32}))(?![\w@])"
)


def _cant_parse(reason: str) -> ApiError:
    return bad_request(f"can't parse entities: {reason}")


def _byte_offset(text: str, index: int) -> int:
    """tdlib reports positions in UTF-8 bytes of what the bot sent."""
    return len(text[:index].encode())


@dataclass
class _Output:
    """Plain text being assembled, with its length in UTF-16 units."""

    parts: list[str] = field(default_factory=list)
    offset: int = 0
    entities: list[JSONDict] = field(default_factory=list)

    def add(self, text: str) -> None:
        self.parts.append(text)
        self.offset += utf16_len(text)

    def entity(self, kind: str, start: int, **extra: Any) -> None:
        """Close an entity that started at ``start``; empty ones vanish, as on the server."""
        if self.offset > start:
            self.entities.append({"type": kind, "offset": start, "length": self.offset - start})
            self.entities[-1].update(extra)

    def result(self) -> tuple[str, list[JSONDict]]:
        return "".join(self.parts), sorted(self.entities, key=lambda e: (e["offset"], -e["length"]))


@dataclass
class _Open:
    """An entity whose end has not been seen yet."""

    name: str
    kind: str
    start: int
    byte: int
    extra: dict[str, Any] = field(default_factory=dict)


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
    return _trim(plain, found)


def _trim(text: str, entities: list[JSONDict]) -> tuple[str, list[JSONDict]]:
    stripped = text.strip()
    if stripped == text:
        return text, entities
    shift = utf16_len(text[: len(text) - len(text.lstrip())])
    end = utf16_len(stripped)
    kept = []
    for entity in entities:
        start = max(entity["offset"] - shift, 0)
        stop = min(entity["offset"] + entity["length"] - shift, end)
        if stop > start:
            kept.append({**entity, "offset": start, "length": stop - start})
    return stripped, kept


def parse_html(source: str) -> tuple[str, list[JSONDict]]:
    """Apply parse_mode HTML: only Telegram's tags, only its four named escapes."""
    out = _Output()
    stack: list[_Open] = []
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
        raise _cant_parse(f"Can't find end tag corresponding to start tag {stack[-1].name}")
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


def _html_tag(source: str, begin: int, out: _Output, stack: list[_Open]) -> int:
    """Handle the tag at ``begin``; return the index just after it."""
    at = _byte_offset(source, begin)
    if source.startswith("</", begin):
        return _html_end_tag(source, begin, at, out, stack)
    name_end = _html_name_end(source, begin + 1)
    if name_end == len(source):
        raise _cant_parse(f"Unclosed start tag at byte offset {at}")
    name = source[begin + 1 : name_end].lower()
    if name not in _HTML_TAGS:
        raise _cant_parse(f'Unsupported start tag "{name}" at byte offset {at}')
    attributes, after = _html_attributes(source, name_end, name, at)
    kind = _HTML_TAGS[name]
    extra: dict[str, Any] = {}
    if name == "span" and attributes.get("class") != "tg-spoiler":
        raise _cant_parse(f'Tag "span" must have class "tg-spoiler" at byte offset {at}')
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
    stack.append(_Open(name, kind, out.offset, at, extra))
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
            raise _cant_parse(f"Unclosed start tag at byte offset {at}")
        if source[i] == ">":
            return attributes, i + 1
        start = i
        while i < len(source) and not source[i].isspace() and source[i] not in "=>":
            i += 1
        key = source[start:i].lower()
        if not key:
            raise _cant_parse(f'Empty attribute name in the tag "{name}" at byte offset {at}')
        i = _skip_spaces(source, i)
        if key == "expandable" and source[i : i + 1] != "=":
            attributes[key] = ""
            continue
        if source[i : i + 1] != "=":
            raise _cant_parse(
                f'Expected equal sign in declaration of an attribute of the tag "{name}" at byte offset {at}'
            )
        i = _skip_spaces(source, i + 1)
        if i >= len(source):
            raise _cant_parse(f'Unclosed start tag "{name}" at byte offset {at}')
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
            raise _cant_parse(
                f"Unexpected end of name token at byte offset {_byte_offset(source, token.start())}"
            )


def _html_end_tag(source: str, begin: int, at: int, out: _Output, stack: list[_Open]) -> int:
    """Close the innermost tag; ``</>`` closes whatever is open, as on the server."""
    if not stack:
        raise _cant_parse(f"Unexpected end tag at byte offset {at}")
    name_end = _html_name_end(source, begin + 2)
    name = source[begin + 2 : name_end].lower()
    close = _skip_spaces(source, name_end)
    if close >= len(source) or source[close] != ">":
        raise _cant_parse(f"Unclosed end tag at byte offset {at}")
    tag = stack.pop()
    if name and tag.name != name:
        raise _cant_parse(
            f'Unmatched end tag at byte offset {at}, expected "</{tag.name}>", found "</{name}>"'
        )
    if tag.kind:
        out.entity(tag.kind, tag.start, **tag.extra)
    return close + 1


def parse_markdown_v2(source: str) -> tuple[str, list[JSONDict]]:
    """Apply parse_mode MarkdownV2, including its rule that reserved characters need ``\\``."""
    out = _Output()
    stack: list[_Open] = []
    quote: _Open | None = None
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
            quote = quote or _Open(">", "blockquote", out.offset, _byte_offset(source, i))
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
        raise _cant_parse(f"Can't find end of {_V2_NAMES[top.kind]} entity at byte offset {top.byte}")
    if quote is not None:
        out.entity(quote.kind, quote.start)
    return out.result()


def _v2_open(source: str, i: int, out: _Output) -> tuple[_Open, int]:
    """Start the MarkdownV2 entity at ``i``; return it and the index after its marker."""
    at = _byte_offset(source, i)
    two = source[i : i + 2]
    if two == "__":
        return _Open(two, "underline", out.offset, at), i + 2
    if two == "||":
        return _Open(two, "spoiler", out.offset, at), i + 2
    if two == "![":
        return _Open(two, "custom_emoji", out.offset, at), i + 2
    if source.startswith("```", i):
        newline = source.find("\n", i + 3)
        fence = source.find("```", i + 3)
        extra: dict[str, Any] = {}
        start = i + 3
        if newline >= 0 and (fence < 0 or newline < fence):
            if language := source[i + 3 : newline].strip():
                extra["language"] = language
            start = newline + 1
        return _Open("```", "pre", out.offset, at, extra), start
    kinds = {"*": "bold", "_": "italic", "~": "strikethrough", "`": "code", "[": "text_link"}
    if source[i] in kinds:
        return _Open(source[i], kinds[source[i]], out.offset, at), i + 1
    raise _cant_parse(f"Character '{source[i]}' is reserved and must be escaped with the preceding '\\'")


def _v2_link_target(source: str, i: int, link: _Open) -> int:
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
        raise _cant_parse(f"Can't find end of a url at byte offset {_byte_offset(source, i)}")
    url = "".join(target)
    if link.kind == "custom_emoji":
        link.extra["custom_emoji_id"] = url.rpartition("id=")[2]
    else:
        link.extra["url"] = url
    return j + 1


def parse_markdown(source: str) -> tuple[str, list[JSONDict]]:
    """Apply the legacy parse_mode Markdown: no nesting, four markers, ``\\`` escapes them."""
    out = _Output()
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
            raise _cant_parse(
                f"Can't find end of the entity starting at byte offset {_byte_offset(source, i)}"
            )
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


def incoming_entities(text: str) -> list[JSONDict]:
    """Entities a Telegram client adds to what a person types: /commands and @mentions.

    A bot_command entity at offset 0 is what makes python-telegram-bot's
    CommandHandler match, so commands must carry one.
    """
    entities = []
    for match in _INCOMING_ENTITY.finditer(text):
        entities.append(
            {
                "type": "bot_command" if match.group("command") else "mention",
                "offset": utf16_len(text[: match.start()]),
                "length": utf16_len(match.group(0)),
            }
        )
    return entities
