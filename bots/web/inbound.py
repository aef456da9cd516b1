"""What a page sends, read within limits: one small JSON object a frame, or a refusal.

A page sends two kinds of frame, ``{"session": token}`` (a start page's:
``{"start": token}``) and ``{"op": "play", ...}`` (a start page's: ``{"op": "join", ...}``
and the like): flat objects of at most a few hundred bytes, or about a thousand for a
start page's token. Anything else is refused before it is parsed, in
words fit for one log line (never the frame itself): a frame over ``MAX_MESSAGE``
bytes (aiohttp's ``max_msg_size`` closes the socket with 1009), binary frames, text
that is not UTF-8, bytes that are no WebSocket frame at all, JSON nested deeper than
``MAX_DEPTH`` (which Python's parser would follow until it runs out of stack), text
that is not JSON or not an object.

>>> nesting('{"op": "play", "card": "[[[["}')
1
>>> nesting("[" * 2000 + "]" * 2000)
2000
"""

from __future__ import annotations

import json
import re
from typing import Any, Final

from aiohttp import WSCloseCode, WSMessage, WSMsgType

#: The largest frame a page may send, in bytes.
MAX_MESSAGE: Final = 4096
#: How deep a page's JSON may nest (its frames are flat objects).
MAX_DEPTH: Final = 4

_STRING: Final = re.compile(r'"(?:[^"\\]|\\.)*"')

#: What aiohttp's reader closed the socket for, by close code.
_BROKEN: Final[dict[int, str]] = {
    WSCloseCode.MESSAGE_TOO_BIG: f"a frame over {MAX_MESSAGE} bytes",
    WSCloseCode.INVALID_TEXT: "a text frame that is not UTF-8",
    WSCloseCode.PROTOCOL_ERROR: "bytes that are not a WebSocket frame",
}


class Unreadable(Exception):
    """A frame refused: ``reason`` for the log, ``code`` to close the socket with."""

    def __init__(self, reason: str, code: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.code = code


def nesting(text: str) -> int:
    """How deep the arrays and objects of a JSON text nest (brackets in strings do not count)."""
    deepest = level = 0
    for char in _STRING.sub('""', text):
        if char in "[{":
            level += 1
            deepest = max(deepest, level)
        elif char in "]}":
            level -= 1
    return deepest


def read(message: WSMessage, close_code: int | None) -> dict[str, Any] | None:
    """The object a frame carries; None when the socket is closing or closed; Unreadable
    when the frame is refused. ``close_code`` is the socket's, once aiohttp closed it."""
    if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
        return None
    if message.type == WSMsgType.ERROR:
        code = int(getattr(message.data, "code", None) or close_code or WSCloseCode.ABNORMAL_CLOSURE)
        raise Unreadable(_BROKEN.get(code, "a frame that could not be read"), code)
    if message.type != WSMsgType.TEXT:
        raise Unreadable("a binary frame", WSCloseCode.UNSUPPORTED_DATA)
    text = str(message.data)
    if nesting(text) > MAX_DEPTH:
        raise Unreadable(f"JSON nested deeper than {MAX_DEPTH}", WSCloseCode.POLICY_VIOLATION)
    try:
        body = json.loads(text)
    except ValueError:
        raise Unreadable("a frame that is not JSON", WSCloseCode.INVALID_TEXT) from None
    if not isinstance(body, dict):
        raise Unreadable("JSON that is not an object", WSCloseCode.POLICY_VIOLATION)
    return body


def parse_body(text: str) -> object:
    """A login request's JSON body, or None when it is not JSON within ``MAX_DEPTH``."""
    if nesting(text) > MAX_DEPTH:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None
