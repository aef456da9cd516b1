"""Whom a waiting message names besides its reader: the one opponent a rematch waits for,
and the partner a 2-v-2 search came with (a friend who used the searcher's invitation, or
whose invitation they used), by display name.

Each adapter keeps them for the searches under way in its process (``SearchNames``, keyed
by what it knows a searcher by), and with the waiting message's reference in the pool
(``PoolView.message``, under ``REMATCH`` and ``PARTNER``), so that a restarted process
still names them.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from typing import Any, Final, Generic, TypeVar

from ..service.waiting import PoolView

#: The keys of a waiting message's reference that name the rematch's opponent and the partner.
REMATCH: Final = "rematch"
PARTNER: Final = "partner"

K = TypeVar("K", bound=Hashable)


class SearchNames(Generic[K]):
    """The names each search under way in this process waits for or came with."""

    def __init__(self) -> None:
        self._rematches: dict[K, str] = {}
        self._partners: dict[K, str] = {}

    def opened(self, key: K, rematch: str | None) -> None:
        """A search of its own begins: it names no partner yet, and ``rematch`` if given."""
        self._partners.pop(key, None)
        if rematch is None:
            self._rematches.pop(key, None)
        else:
            self._rematches[key] = rematch

    def forget(self, key: K) -> None:
        """The search is over."""
        self._rematches.pop(key, None)
        self._partners.pop(key, None)

    def known(self, key: K) -> tuple[str | None, str | None]:
        """The rematch's opponent and the partner, as this process knows them."""
        return self._rematches.get(key), self._partners.get(key)

    def rematch_of(self, key: K, noted: Mapping[str, Any]) -> str | None:
        """Whom the search waits for, when it is a rematch: known here, or kept with the
        message's reference ``noted`` (the adapter's own)."""
        known = self._rematches.get(key)
        if known is not None:
            return known
        stored = noted.get(REMATCH)
        return stored if isinstance(stored, str) else None

    def partner_of(self, key: K, view: PoolView, noted: Mapping[str, Any]) -> str | None:
        """Whom ``view``'s 2-v-2 search came with, when it came with someone and their name
        is known: told now, kept here, or kept with the message's reference ``noted``."""
        if not view.partnered:
            self._partners.pop(key, None)
            return None
        if view.partners:
            self._partners[key] = view.partners[0]
            return view.partners[0]
        known = self._partners.get(key)
        if known is not None:
            return known
        stored = noted.get(PARTNER)
        return stored if isinstance(stored, str) else None


def named(reference: dict[str, object], rematch: str | None, partner: str | None) -> dict[str, object]:
    """A waiting message's reference, with whom it names added.

    >>> named({"message": 7}, "Amr", None)
    {'message': 7, 'rematch': 'Amr'}
    """
    if rematch is not None:
        reference[REMATCH] = rematch
    if partner is not None:
        reference[PARTNER] = partner
    return reference
