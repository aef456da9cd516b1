"""What the press, command and button handlers need of the bot, as protocols.

The bot (``bot.BasraBot``) builds the handlers and hands itself to them; they
ask it only for what is named here, so none of them imports the bot's module
and the bot's parts form no circle of imports.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Protocol

import discord

if TYPE_CHECKING:
    from ..metrics import Metrics
    from ..render import Action
    from ..service import BadInput, Clock, PoolView, SettingsView, TableService
    from ..web import WebTable
    from .hands import OpenHands
    from .replies import Reply


#: What to do when Discord refuses to post a person's waiting message (their search's opener).
Refused = Callable[[discord.HTTPException], Awaitable[None]]


class PressHandler(Protocol):
    """The button presses' handler (``presses.Presses``)."""

    async def handle(self, interaction: discord.Interaction[Any], action: Action) -> None: ...

    async def refuse_payload(self, interaction: discord.Interaction[Any], error: BadInput) -> None: ...

    async def failed(self, interaction: discord.Interaction[Any], where: str) -> None: ...


class SettingsHandler(Protocol):
    """What applies a settings button (``commands.Commands``)."""

    async def apply_setting(
        self, chat: str, interaction: discord.Interaction[Any], action: Action
    ) -> SettingsView: ...


class PairingHandler(Protocol):
    """The pool's command and buttons (``pairing.Pairing``)."""

    async def play(self, reply: Reply, mode: str = "1v1", invite: str | None = None) -> None: ...

    async def press(self, interaction: discord.Interaction[Any], action: Action) -> None: ...


class Claims(Protocol):
    """Where a press's or command's answer may show a lobby (``delivery.DiscordPlatform``)."""

    message_claims: dict[int, Reply]
    chat_claims: dict[str, Reply]


class Delivering(Claims, Protocol):
    """Delivery as the handlers see it: claims, and the pool's waiting messages
    (``delivery.DiscordPlatform``)."""

    def open_waiting(self, view: PoolView, refused: Refused, *, rematch: str | None = None) -> None: ...

    def waiting_parts(self, view: PoolView) -> dict[str, Any]: ...

    def close_waiting(self, player_id: str) -> None: ...

    def waiting_message(self, view: PoolView) -> int | None: ...


class Bot(Protocol):
    """The bot as its handlers see it (``bot.BasraBot``)."""

    clock: Clock
    hands: OpenHands
    @property
    def platform(self) -> Delivering: ...
    metrics: Metrics
    web: WebTable | None

    @property
    def presses(self) -> PressHandler: ...

    @property
    def commands_impl(self) -> SettingsHandler: ...

    @property
    def pairing(self) -> PairingHandler: ...

    @property
    def service(self) -> TableService: ...

    async def on_error(self, event_method: str, /, *args: Any, **kwargs: Any) -> None: ...
