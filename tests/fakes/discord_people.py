"""People on the fake Discord: typing the bot's slash commands, pressing its buttons, and
reading what a message shows (its text, its buttons' actions)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from bots.render import Action

from .discord_payloads import Channel, Guild, Interaction, User, command_data, component_data, new_interaction
from .discord_server import FakeDiscord, StoredMessage

T = TypeVar("T")
APPLICATION_COMMAND, COMPONENT = 2, 3


async def until(what: str, probe: Callable[[], T | None], timeout: float = 15.0) -> T:
    """``probe()`` once it is truthy, polled every 20 ms; fails saying ``what`` after ``timeout``."""
    end = time.monotonic() + timeout
    while True:
        value = probe()
        if value:
            return value
        if time.monotonic() > end:
            raise AssertionError(f"no {what} within {timeout} s")
        await asyncio.sleep(0.02)


def buttons(message: StoredMessage | dict[str, Any]) -> list[dict[str, Any]]:
    payload = message.payload if isinstance(message, StoredMessage) else message
    return [
        c
        for row in payload.get("components") or []
        for c in row.get("components") or []
        if c.get("type") == 2
    ]


def actions(message: StoredMessage | dict[str, Any]) -> list[Action]:
    """The renderer's actions behind the message's buttons."""
    return [
        Action.decode(b["custom_id"])
        for b in buttons(message)
        if str(b.get("custom_id", "")).startswith("b1|")
    ]


def custom_id(message: StoredMessage, verb: str, **fields: Any) -> str:
    """The one button doing ``verb`` (with these action fields), or the first of several cards."""
    found = [
        a.encode()
        for a in actions(message)
        if a.verb == verb and all(getattr(a, k) == v for k, v in fields.items())
    ]
    assert found, f"no {verb!r} button {fields} in {[a.verb for a in actions(message)]}"
    return found[0]


def body_of(payload: dict[str, Any]) -> str:
    """A message's text: content and embeds (not its buttons)."""
    parts = [payload.get("content") or ""]
    for embed in payload.get("embeds") or []:
        parts += [
            embed.get("title") or "",
            embed.get("description") or "",
            (embed.get("footer") or {}).get("text") or "",
        ]
        parts += [f"{f.get('name', '')} {f.get('value', '')}" for f in embed.get("fields") or []]
    return "\n".join(parts)


def text_of(message: StoredMessage) -> str:
    return "\n".join([body_of(message.payload), *(str(b.get("label") or "") for b in buttons(message))])


@dataclass
class Person:
    """Someone acting in one place: a guild's channel, or (``guild`` None) their DM with
    the bot."""

    fake: FakeDiscord
    user: User
    guild: Guild | None

    @property
    def channel(self) -> Channel:
        return self.guild.channels[0] if self.guild is not None else self.fake.dm_of(self.user)

    def in_dm(self) -> Person:
        """The same person, acting in their DM with the bot."""
        return Person(self.fake, self.user, None)

    async def slash(self, sub: str, **options: Any) -> Interaction:
        """``/basra <sub> option:value ...``, once it is answered."""
        command = next(c for c in self.fake.commands.get(None, []) if c["name"] == "basra")
        interaction = new_interaction(
            APPLICATION_COMMAND, self.user, self.channel, self.guild, command_data(command, sub, options)
        )
        return await self._send(interaction, f"/basra {sub}")

    async def press(self, message: StoredMessage, button: str) -> Interaction:
        """Press the button whose custom_id is ``button`` on ``message`` as it shows now."""
        assert button in [b.get("custom_id") for b in buttons(message)], f"{button} is not on the message"
        interaction = new_interaction(
            COMPONENT, self.user, self.channel, self.guild, component_data(button), message=message.payload
        )
        return await self._send(interaction, f"a press of {button}")

    async def _send(self, interaction: Interaction, what: str) -> Interaction:
        await self.fake.interact(interaction)
        await until(f"answer to {what} by {self.user.name}", lambda: interaction.callback is not None, 5.0)
        return interaction

    async def answer(self, interaction: Interaction, timeout: float = 10.0) -> StoredMessage:
        """The interaction's own message (``@original``), once it shows more than "thinking"."""

        def shown() -> StoredMessage | None:
            stored = self.fake.messages.get(interaction.original or 0)
            return stored if stored is not None and not stored.loading else None

        return await until(f"message answering {self.user.name}", shown, timeout)
