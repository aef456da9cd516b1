"""Reading a page's socket as the page does: its frames by kind, and a start page's state,
words and buttons."""

from __future__ import annotations

from typing import Any


async def next_of(socket: Any, kind: str) -> dict[str, Any]:
    """The next frame of this kind (a refusal is followed by the page's state again)."""
    while True:
        frame: dict[str, Any] = await socket.receive_json(timeout=5)
        if frame.get("type") == kind:
            return frame


async def frame_in(socket: Any, state: str) -> dict[str, Any]:
    """The next start frame in ``state`` (refusals and frames of other states skipped)."""
    while True:
        frame = await next_of(socket, "start")
        if frame["state"] == state:
            return frame


def words(frame: dict[str, Any]) -> str:
    """A start frame's lines, as the page shows them."""
    return "\n".join(line["text"] for line in frame["lines"])


def ops(frame: dict[str, Any]) -> list[str]:
    """What a start frame's buttons do, row by row."""
    return [button["op"] for row in frame["buttons"] for button in row]
