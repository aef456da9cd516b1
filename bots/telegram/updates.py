"""Updates fetched by long polling, read one by one.

python-telegram-bot reads a ``getUpdates`` answer as a whole: one update it cannot read (a
kind of update newer than the library, a field it now requires that the server left out)
fails the whole batch, and the polling loop asks again from the same offset, for ever. The
bot then answers nobody. ``UpdateReadingBot`` reads each update of a batch on its own first;
one it cannot read is logged in one line (its id and why, never its content, which may
carry a pressed card) and handed on as an update with nothing in it, which no handler
takes and which moves the offset past it. Each batch is read so before the library reads
it, not only after it failed: on a failure the library logs the whole batch, pressed
cards included, and that log line must not be written.
"""

from __future__ import annotations

import copy
import logging
from typing import Any

from telegram import Update
from telegram.ext import ExtBot

log = logging.getLogger(__name__)


def readable(raw: Any, bot: Any) -> Any:
    """``raw`` if python-telegram-bot can read it as an update; else an update with its id
    alone (or ``raw`` unchanged when it has no id: nothing can be done for it)."""
    try:
        Update.de_json(copy.deepcopy(raw), bot)
    except Exception as error:
        update_id = raw.get("update_id") if isinstance(raw, dict) else None
        if not isinstance(update_id, int):
            return raw
        kinds = ", ".join(sorted(k for k in raw if k != "update_id")) or "nothing"
        log.warning("update %d (%s) cannot be read, and is skipped: %s", update_id, kinds,
                    type(error).__name__)
        return {"update_id": update_id}
    return raw


class UpdateReadingBot(ExtBot[None]):
    """An ``ExtBot`` whose ``getUpdates`` answers are read update by update (see above)."""

    async def _post(self, endpoint: str, data: Any = None, *args: Any, **kwargs: Any) -> Any:
        result = await super()._post(endpoint, data, *args, **kwargs)
        if endpoint == "getUpdates" and isinstance(result, list):
            return [readable(raw, self) for raw in result]
        return result
