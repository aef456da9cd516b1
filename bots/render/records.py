"""The words that go with a finished match's record file (``bots.service.records``)."""

from __future__ import annotations

import time

from ..i18n import Translator, isolate
from ..service.records import RecordFile


def record_caption(record: RecordFile, t: Translator) -> str:
    """What the file is, under it: the day the match finished, and what the file holds."""
    day = time.strftime("%Y-%m-%d", time.gmtime(record.finished_at))
    # TRANSLATORS: the caption of a match's record file; {date} is the day it finished (2025-01-31).
    return t.gettext(
        "The record of the match of {date}: every deal and every play, to keep or to replay.",
        date=isolate(day),
    )
