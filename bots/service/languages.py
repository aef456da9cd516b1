"""Which language the service speaks to each chat and person, and each chat's settings.

A person's own choice comes first, then the chat's, then what their app reports, then
the default (``ServiceConfig.language``). Public messages speak the chat's language,
whoever pressed. What is known is kept in memory; the store is read once per chat and
per person (and again, on a shared store, before a chat's action once ``SETTINGS_FRESH``
seconds have passed since it was last read: another process may have changed them).
"""

from __future__ import annotations

import logging
from typing import Final

from storage import (
    ChatSettings,
    Store,
)

from ..i18n import resolve_language
from .config import ServiceConfig
from .ids import Person

log = logging.getLogger(__name__)

#: How long a chat's settings read from a shared store are taken as they are, before an
#: action reads them again. Another process changes them only in rare cases (on Discord a
#: server's commands come to the shard process that holds it; another acts on its tables
#: only once it has died), and reading them before every action was one statement in nine
#: of a play.
SETTINGS_FRESH: Final = 30.0


class Languages:
    """Chats' settings and people's languages, as far as this process knows them."""

    def __init__(self, store: Store, config: ServiceConfig) -> None:
        self._store = store
        self._config = config
        self.chat_settings: dict[str, ChatSettings | None] = {}
        #: When each chat's settings were last read again (``settings_again``).
        self._read_at: dict[str, float] = {}
        #: A person's chosen language (None: none chosen), once read or set.
        self.chosen: dict[str, str | None] = {}
        #: What a person's app last reported.
        self.reported: dict[str, str] = {}

    async def settings_again(self, chat_id: str, now: float) -> None:
        """Read a chat's settings afresh (another process may have changed them), unless
        they were read within ``SETTINGS_FRESH`` seconds before ``now``."""
        read_at = self._read_at.get(chat_id)
        if read_at is not None and 0 <= now - read_at < SETTINGS_FRESH and chat_id in self.chat_settings:
            return
        self.chat_settings[chat_id] = await self._store.find_chat_settings(chat_id)
        if len(self._read_at) >= 4096:  # a bound: the oldest reads go first
            for old in list(self._read_at)[:1024]:
                del self._read_at[old]
        self._read_at.pop(chat_id, None)
        self._read_at[chat_id] = now

    async def settings_of(self, chat_id: str) -> ChatSettings | None:
        if chat_id not in self.chat_settings:
            self.chat_settings[chat_id] = await self._store.find_chat_settings(chat_id)
        return self.chat_settings[chat_id]

    def chat_language(self, chat_id: str) -> str | None:
        settings = self.chat_settings.get(chat_id)
        return settings.language if settings is not None else None

    def public(self, chat_id: str) -> str:
        """What a chat's public messages speak: its own setting; in a person's private chat
        (a practice there), that person's language; else the default. Never the presser's."""
        if chat_id in self.chosen or chat_id in self.reported:
            return self.of(chat_id, chat_id)
        return resolve_language(self.chat_language(chat_id), self._config.language)

    def of(self, player_id: str, chat_id: str | None) -> str:
        return resolve_language(
            self.chosen.get(player_id),
            self.chat_language(chat_id) if chat_id else None,
            self.reported.get(player_id),
            self._config.language,
        )

    async def know_player(self, player_id: str) -> None:
        """Their stored languages: the chosen one, and what their app last reported (so a
        restarted service speaks to them as before, before they press anything)."""
        if player_id not in self.chosen:
            profile = await self._store.get_player(player_id)
            self.chosen[player_id] = profile.language if profile else None
            if profile is not None and profile.platform_language:
                self.reported.setdefault(player_id, profile.platform_language)

    def note_person(self, person: Person) -> bool:
        """Note the language the person's app reports; True if it is news to store."""
        if person.language and self.reported.get(person.player_id) != person.language:
            self.reported[person.player_id] = person.language
            return True
        return False

    async def seat_person(self, person: Person) -> None:
        profile = await self._store.upsert_player(person.player_id, person.name, person.language)
        self.chosen[person.player_id] = profile.language
