"""What every use case of the table service holds: the unit of work and what it shares."""

from __future__ import annotations

from storage import Store

from .clock import Clock
from .config import ServiceConfig
from .languages import Languages
from .tables import Tables


class UseCase:
    """A use case (``lobbies``, ``matches``, ``chats``): it acts through the unit of work
    (``tables``) and never calls another use case."""

    def __init__(self, tables: Tables, languages: Languages, store: Store, clock: Clock,
                 config: ServiceConfig) -> None:
        self._t = tables
        self._lang = languages
        self._store = store
        self._clock = clock
        self._config = config
