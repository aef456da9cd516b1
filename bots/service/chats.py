"""Chats: their settings (variants, turn clock, language), people's languages, chats that move."""

from __future__ import annotations

import logging
from typing import Any

from core import BasraError, Rules
from storage import (
    ChatSettings,
    StorageError,
)

from ..i18n import resolve_language
from ..i18n.lang import supported_language
from .errors import (
    BadInput,
    BadSetting,
    TableExists,
)
from .ids import Person, platform_of
from .live import LiveTable
from .notices import (
    LobbyUpdated,
    TableUpdated,
)
from .tables import Decision
from .usecase import UseCase
from .views import (
    SettingsView,
)

log = logging.getLogger(__name__)

#: RULES.md §8 variants by name, as changes to ``core.Rules``.
VARIANTS: dict[str, dict[str, Any]] = {
    "target 100": {"target": 100},
    "small majority": {"majority_points": 3, "majority_tie": "split"},
    "optional capture": {"optional_capture": True},
    "7D by count": {"seven_diamonds_basra": "count"},
}
TURN_SECONDS_RANGE = (10, 3600)


class Chats(UseCase):
    """The settings half of the table service."""

    def _settings_view(self, chat_id: str, settings: ChatSettings | None) -> SettingsView:
        rules = Rules.from_dict(settings.rules or None) if settings else Rules()
        changed = rules.to_dict()
        variants = tuple(
            (name, all(changed.get(k) == v for k, v in fields.items())) for name, fields in VARIANTS.items()
        )
        return SettingsView(
            chat_id=chat_id,
            language=settings.language if settings else None,
            effective_language=self._lang.public(chat_id),
            rules=rules,
            variants=variants,
            turn_seconds=settings.turn_seconds if settings else self._config.turn_seconds,
        )

    async def move_chat(self, old_chat_id: str, new_chat_id: str) -> None:
        """The chat now has another id (a Telegram group upgraded to a supergroup):
        its open table, settings, results and history follow it, and the table
        is drawn again in the chat under its new id. Moving twice, or a chat
        with nothing to move, changes nothing."""
        if platform_of(old_chat_id) != platform_of(new_chat_id):
            raise BadInput(f"cannot move {old_chat_id!r} to another platform")
        if old_chat_id == new_chat_id:
            return
        live = await self._t.find_chat(old_chat_id)
        if live is None or await self._t.find_chat(new_chat_id) is not None:
            await self._move_stored(old_chat_id, new_chat_id)
            if live is not None:
                raise TableExists(f"{new_chat_id!r} already has a table")
            return

        async def decide() -> Decision[None]:
            # Under the table's lock, so the match cannot end (and be stored
            # under the old id) between the stored rows moving and the live
            # table following them.
            await self._move_stored(old_chat_id, new_chat_id)
            if live.record.chat_id != old_chat_id or not live.record.is_open:
                return None, []
            await self._t.save(live, lambda r: r.model_copy(update={"chat_id": new_chat_id}))
            self._t.by_chat.pop(old_chat_id, None)
            self._t.by_chat[new_chat_id] = live.table_id
            public = self._lang.public(new_chat_id)
            if live.record.status == "lobby":
                return None, [LobbyUpdated(self._t.lobby_view(live), public)]
            return None, [TableUpdated(self._t.table_view(live), public)]  # the hands stay where they are

        await self._t.run(live, decide)

    async def _move_stored(self, old_chat_id: str, new_chat_id: str) -> None:
        """The chat's stored settings, results and closed tables to the new id (open tables move live)."""
        await self._store.move_chat(old_chat_id, new_chat_id)
        settings = self._lang.chat_settings.pop(old_chat_id, None)
        if settings is not None and self._lang.chat_settings.get(new_chat_id) is None:
            self._lang.chat_settings[new_chat_id] = settings.model_copy(update={"chat_id": new_chat_id})

    async def settings(self, chat_id: str) -> SettingsView:
        """The chat's variants, clock and language."""
        return self._settings_view(chat_id, await self._lang.settings_of(chat_id))

    async def _change_settings(self, chat_id: str, **update: Any) -> SettingsView:
        platform_of(chat_id)
        current = await self._lang.settings_of(chat_id) or ChatSettings(
            chat_id=chat_id, turn_seconds=self._config.turn_seconds
        )
        changed = current.model_copy(update=update)
        await self._store.put_chat_settings(changed)
        self._lang.chat_settings[chat_id] = changed
        live = await self._t.find_chat(chat_id)
        if live is not None and live.record.status == "lobby":
            await self._retune_lobby(live, changed)
        return self._settings_view(chat_id, changed)

    async def _retune_lobby(self, live: LiveTable, settings: ChatSettings) -> None:
        """An open lobby follows the chat's settings until it starts."""

        async def decide() -> Decision[None]:
            record = live.record
            if record.status != "lobby":
                return None, []
            head = {**(record.header or {}), "turn_seconds": settings.turn_seconds}
            await self._t.save(live, lambda r: r.model_copy(update={"rules": settings.rules, "header": head}))
            view = self._t.lobby_view(live)
            return None, [LobbyUpdated(view, self._lang.public(record.chat_id))]

        await self._t.run(live, decide)

    async def set_variant(self, chat_id: str, variant: str, on: bool) -> SettingsView:
        """Turn a RULES.md §8 variant ("target 100", "small majority", "optional capture",
        "7D by count") on or off for the chat's next matches and its open lobby."""
        if variant not in VARIANTS:
            raise BadSetting(f"no variant {variant!r}")
        current = dict((await self.settings(chat_id)).rules.to_dict())
        for key in VARIANTS[variant]:
            current.pop(key, None)
        if on:
            current.update(VARIANTS[variant])
        return await self._set_rules(chat_id, current)

    async def set_rules(self, /, chat_id: str, **fields: Any) -> SettingsView:
        """Set ``core.Rules`` fields directly (``target=101``); BadSetting if invalid."""
        current = (await self.settings(chat_id)).rules.to_dict()
        return await self._set_rules(chat_id, {**current, **fields})

    async def _set_rules(self, chat_id: str, fields: dict[str, Any]) -> SettingsView:
        try:
            rules = Rules.from_dict(fields)
        except (BasraError, TypeError) as error:
            raise BadSetting(str(error)) from None
        return await self._change_settings(chat_id, rules=rules.to_dict())

    async def set_turn_seconds(self, chat_id: str, seconds: int) -> SettingsView:
        """The chat's turn clock (10 s to 1 h), for its next matches and its open lobby."""
        low, high = TURN_SECONDS_RANGE
        if not isinstance(seconds, int) or isinstance(seconds, bool) or not low <= seconds <= high:
            raise BadSetting(f"turn clock of {seconds!r} seconds")
        return await self._change_settings(chat_id, turn_seconds=seconds)

    async def set_chat_language(self, chat_id: str, language: str | None) -> SettingsView:
        """ "ar", "en", or None to follow each person's platform language."""
        chosen = supported_language(language) if language else None
        if language and chosen is None:
            raise BadSetting(f"language {language!r}")
        return await self._change_settings(chat_id, language=chosen)

    async def set_player_language(self, person: Person, language: str | None) -> str:
        """A person's own language, everywhere; returns the language now in effect."""
        chosen = supported_language(language) if language else None
        if language and chosen is None:
            raise BadSetting(f"language {language!r}")
        self._lang.note_person(person)
        await self._store.upsert_player(person.player_id, person.name, person.language)
        await self._store.set_player_language(person.player_id, chosen)
        self._lang.chosen[person.player_id] = chosen
        return self._lang.of(person.player_id, None)

    async def language(self, chat_id: str | None = None, person: Person | None = None) -> str:
        """The language to answer in: the person's choice, the chat's, the platform's, the default.
        A failing store does not stop an answer: what is known in memory decides."""
        try:
            if chat_id is not None:
                await self._lang.settings_of(chat_id)
            if person is not None:
                await self._lang.know_player(person.player_id)
                if self._lang.note_person(person):
                    # What their app reports changed (or was never stored): keep it for a restart.
                    await self._store.upsert_player(person.player_id, person.name, person.language)
        except StorageError as error:
            log.warning("reading or keeping a language failed: %s", error)
        if person is None:
            return self._lang.public(chat_id) if chat_id else resolve_language(self._config.language)
        return self._lang.of(person.player_id, chat_id)
