"""Outbound writes to a chat platform, planned within its rate limits (platform-neutral).

Both adapters hand every message write they want (a send, an edit) to one
``Dispatcher`` as a ``Write``: which message it is about (``key``), which
chat's budget it spends (``chat``), how new the state it carries is
(``stamp``) and how urgent it is. The dispatcher keeps at most one pending
write per message, the newest; it never sends a state older than one it
already sent; it spends each chat's budget and the global one so that the
platform never has to refuse (``Budget``); and it retries with back-off.
Adapters supply the limits (``Limit``) and the calls. Processes of one bot on
one database share its budgets and its messages' order (``Shared``).
"""

from .budget import Budget, Limit, padded
from .dispatcher import FAILED, REFUSED, SENT, SKIPPED, Dispatcher, Outcome, Retry, Write, note_call
from .shared import Shared, share

__all__ = [
    "FAILED",
    "REFUSED",
    "SENT",
    "SKIPPED",
    "Budget",
    "Dispatcher",
    "Limit",
    "Outcome",
    "Retry",
    "Shared",
    "Write",
    "note_call",
    "padded",
    "share",
]
