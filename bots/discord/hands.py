"""Players' ephemeral hand messages, and how to reach them again.

A hand is an ephemeral message: only its owner sees it, and the bot can edit
it only through the token of an interaction that showed it. Each press on a
hand answers its own interaction, so the freshest token is kept here and the
hand stays editable as long as its owner keeps using it. When the token runs
out (15 minutes without a press) other players' moves can no longer refresh
it; its buttons then carry an old version and a press on them is answered
with a fresh hand. "My hand" always opens a new one.

The selected card (a preview) is remembered so that a refresh caused by
somebody else's move keeps the preview, recomputed on the new floor.
Nothing here survives a restart, nor needs to.
"""

from __future__ import annotations

from dataclasses import dataclass

from .replies import Reply

HandKey = tuple[str, str]  # (table_id, player_id)


@dataclass
class HandSlot:
    table_id: str
    player_id: str
    reply: Reply
    version: int = -1
    card: str | None = None
    plan: int | None = None


class OpenHands:
    def __init__(self) -> None:
        self._slots: dict[HandKey, HandSlot] = {}

    def open(self, table_id: str, player_id: str, reply: Reply) -> HandSlot:
        """The hand of this player is (about to be) shown through ``reply``."""
        old = self._slots.get((table_id, player_id))
        slot = HandSlot(table_id, player_id, reply)
        if old is not None and reply.mode == "update" and old.reply.message_id == reply.message_id:
            slot.card, slot.plan, slot.version = old.card, old.plan, old.version
        self._slots[(table_id, player_id)] = slot
        return slot

    def shown(self, slot: HandSlot) -> None:
        """The slot's message was just shown: it is the one to refresh (again)."""
        current = self._slots.get((slot.table_id, slot.player_id))
        if current is None or current.reply.interaction.created_at <= slot.reply.interaction.created_at:
            self._slots[(slot.table_id, slot.player_id)] = slot

    def get(self, table_id: str, player_id: str) -> HandSlot | None:
        slot = self._slots.get((table_id, player_id))
        if slot is not None and not slot.reply.alive():
            del self._slots[(table_id, player_id)]
            return None
        return slot

    def drop(self, table_id: str, player_id: str, slot: HandSlot | None = None) -> None:
        if slot is None or self._slots.get((table_id, player_id)) is slot:
            self._slots.pop((table_id, player_id), None)

    def forget_table(self, table_id: str) -> None:
        for key in [k for k in self._slots if k[0] == table_id]:
            del self._slots[key]
