"""Identifiers the service and both adapters share.

Chats and people are named by strings that carry their platform, so one
database can hold Telegram and Discord side by side and no id of one platform
can be taken for the other's: ``"tg:-100123"`` is a Telegram group,
``"dc:456"`` a Discord channel, ``"tg:42"`` a Telegram user, ``"term:ana"``
someone at the terminal table.

>>> chat_id("tg", -100123), player_id("dc", 456)
('tg:-100123', 'dc:456')
>>> platform_of("dc:456")
'dc'
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Final, Literal

Platform = Literal["tg", "dc", "term"]
PLATFORMS: Final[tuple[str, ...]] = ("tg", "dc", "term")


def _namespaced(platform: str, raw: int | str) -> str:
    if platform not in PLATFORMS:
        raise ValueError(f"unknown platform {platform!r}: expected one of {PLATFORMS}")
    text = str(raw)
    if not text or ":" in text:
        raise ValueError(f"bad platform id {raw!r}")
    return f"{platform}:{text}"


def chat_id(platform: str, raw: int | str) -> str:
    """The service's id of a chat (Telegram chat, Discord channel)."""
    return _namespaced(platform, raw)


def player_id(platform: str, raw: int | str) -> str:
    """The service's id of a person (Telegram user, Discord user)."""
    return _namespaced(platform, raw)


def platform_of(namespaced: str) -> str:
    """The platform prefix of a chat or player id."""
    platform, sep, rest = namespaced.partition(":")
    if not sep or not rest or platform not in PLATFORMS:
        raise ValueError(f"not a namespaced id: {namespaced!r}")
    return platform


def raw_id(namespaced: str) -> str:
    """The platform's own id, as text: ``"tg:42"`` → ``"42"``."""
    platform_of(namespaced)
    return namespaced.partition(":")[2]


#: What a stranger match's chat id holds after its platform: it has no chat of its own.
POOL_CHAT: Final = "pool-"


def pool_chat(platform: str, table_id: str) -> str:
    """The chat id of a match the pairing pool seated (``pool``): no chat of any platform.
    Its public notices go to each seated person's private chat instead, on their own
    platform; the table's id keeps it one table's.

    >>> pool_chat("tg", "a1b2"), is_pool_chat("tg:pool-a1b2"), is_pool_chat("tg:-100")
    ('tg:pool-a1b2', True, False)
    """
    return _namespaced(platform, POOL_CHAT + table_id)


def is_pool_chat(chat_id: str) -> bool:
    """Whether ``chat_id`` is a stranger match's (``pool_chat``), not a platform's chat."""
    return chat_id.partition(":")[2].startswith(POOL_CHAT)


def new_table_id() -> str:
    """A short random table id (12 characters): leaves room in a 64-byte button payload."""
    return secrets.token_hex(6)


@dataclass(frozen=True, slots=True)
class Person:
    """Someone who pressed or typed something, as the adapter saw them.

    ``language`` is what the platform reports for the user (Telegram's
    ``language_code``, Discord's locale); a language the person chose with
    the settings command wins over it.
    """

    player_id: str
    name: str
    language: str | None = None

    def __post_init__(self) -> None:
        platform_of(self.player_id)
