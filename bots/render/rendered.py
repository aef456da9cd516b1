"""The renderer's output: text plus rows of buttons."""

from __future__ import annotations

from dataclasses import dataclass

from .actions import Button
from .markup import Text


@dataclass(frozen=True, slots=True)
class Rendered:
    """A message to send or edit: ``text`` and ``buttons`` (rows, top first).

    ``mention``: the player ids the message is about (whose turn it is), for
    platforms that ping by mention.
    """

    text: Text
    buttons: tuple[tuple[Button, ...], ...] = ()
    mention: tuple[str, ...] = ()

    def plain(self) -> str:
        return self.text.plain()

    def labels(self) -> list[str]:
        return [button.label for row in self.buttons for button in row]
