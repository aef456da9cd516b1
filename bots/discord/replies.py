"""Answering one interaction: the first answer through ``interaction.response``,
later ones through its webhook token (good for 15 minutes).

Discord wants an answer within 3 seconds. ``Reply.within`` runs the work and,
if it is slow (a busy database, rate-limited sends), acknowledges first
(``defer``) so that the answer can follow. Each interaction gets one
``Reply``; its lock keeps two answers from racing for the first response.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from datetime import timedelta
from typing import Any, Literal, TypeVar

import discord

T = TypeVar("T")

#: How a reply shows its main message: by editing the message whose button was
#: pressed ("update"), or as a new message only the presser sees ("ephemeral"),
#: or as a new message in the channel ("public", slash commands only).
Mode = Literal["update", "ephemeral", "public"]
#: Acknowledge after this long without an answer (Discord allows 3 s).
ACK_AFTER = 1.5
#: How long a press waits for the queued write that answers it (the lobby it changed).
ANSWER_WAIT = 2.5
#: An interaction token lasts 15 minutes; stop using it a little before.
TOKEN_LIFE = timedelta(minutes=14)


def _sendable(parts: dict[str, Any]) -> dict[str, Any]:
    """``send`` takes no ``view=None`` (only edits do, to remove buttons)."""
    return {k: v for k, v in parts.items() if not (k == "view" and v is None)}


class Reply:
    def __init__(self, interaction: discord.Interaction[Any], mode: Mode) -> None:
        self.interaction = interaction
        self.mode = mode
        self._lock = asyncio.Lock()
        self._answered = asyncio.Event()
        #: Set when a queued write will answer the interaction (the lobby it shows).
        self.promised = False
        self.message_id: int | None = (
            interaction.message.id if mode == "update" and interaction.message else None
        )

    @property
    def done(self) -> bool:
        return self.interaction.response.is_done()

    async def answered(self, timeout: float) -> None:
        """Wait (at most ``timeout`` seconds) for the interaction's first answer."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                await self._answered.wait()

    def alive(self) -> bool:
        """Whether the token can still edit the message (15 minutes from the interaction)."""
        return discord.utils.utcnow() - self.interaction.created_at < TOKEN_LIFE

    async def within(self, work: Awaitable[T]) -> T:
        """Await ``work``; acknowledge the interaction meanwhile if it takes long."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=ACK_AFTER)
        if not done:
            await self.ack()
        return await task

    async def ack(self) -> None:
        """Tell Discord the press arrived; the answer follows."""
        async with self._lock:
            if self.done:
                return
            if self.mode == "update":
                await self.interaction.response.defer()
            else:
                await self.interaction.response.defer(thinking=True, ephemeral=self.mode == "ephemeral")
            self._answered.set()

    async def show(self, **parts: Any) -> int | None:
        """Show the main message (see ``Mode``); returns its id when known."""
        async with self._lock:
            if not self.done:
                if self.mode == "update":
                    await self.interaction.response.edit_message(**parts)
                    self._answered.set()
                    return self.message_id
                await self.interaction.response.send_message(
                    ephemeral=self.mode == "ephemeral", **_sendable(parts)
                )
                self._answered.set()
                if self.mode == "public":
                    message = await self.interaction.original_response()
                    self.message_id = message.id
                return self.message_id
            edited = await self.interaction.edit_original_response(**parts)
            self.message_id = edited.id
            return self.message_id

    async def attach(self, content: str, file: discord.File) -> None:
        """The main message as a file with a line above it (a match's record)."""
        async with self._lock:
            if not self.done:
                await self.interaction.response.send_message(
                    content, file=file, ephemeral=self.mode == "ephemeral"
                )
                self._answered.set()
            else:
                await self.interaction.edit_original_response(content=content, attachments=[file])

    async def tell(self, content: str) -> None:
        """A short extra message only the presser sees (a refusal, a confirmation)."""
        async with self._lock:
            if not self.done:
                await self.interaction.response.send_message(content, ephemeral=True)
                self._answered.set()
            else:
                await self.interaction.followup.send(content, ephemeral=True)
