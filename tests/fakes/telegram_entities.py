"""Building blocks shared by the server-side text parsers: entities in UTF-16 units.

The Bot API measures entity offsets in UTF-16 code units while the server's
parse errors count UTF-8 bytes; both conversions live here, as does the
entity detection a Telegram client applies to what a person types.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .telegram_models import ApiError, JSONDict, bad_request, utf16_len

_INCOMING_ENTITY = re.compile(
    r"(?<![\w/@])(?:(?P<command>/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?)"
    r"|(?P<mention>@[A-Za-z0-9_]{5,32}))(?![\w@])"
)


def cant_parse(reason: str) -> ApiError:
    """The 400 every markup error shares; bots often match on its prefix."""
    return bad_request(f"can't parse entities: {reason}")


def byte_offset(text: str, index: int) -> int:
    """tdlib reports positions in UTF-8 bytes of what the bot sent."""
    return len(text[:index].encode())


@dataclass
class TextOutput:
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
class OpenEntity:
    """An entity whose end has not been seen yet."""

    name: str
    kind: str
    start: int
    byte: int
    extra: dict[str, Any] = field(default_factory=dict)


def trim(text: str, entities: list[JSONDict]) -> tuple[str, list[JSONDict]]:
    """Telegram strips surrounding whitespace; entities shift and shrink with it."""
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
