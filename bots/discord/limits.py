"""Discord's rate limits, as the bot plans its writes (``bots.outbound``).

Discord answers 429 to more than 5 messages sent or edited in 5 seconds in
one channel, more than 5 writes in 2 seconds through one interaction's token
(the edits of an ephemeral hand) and more than 50 requests a second from one
bot. discord.py would wait out a 429 itself, inside the call; planning the
writes keeps them under the limits, so the newest state of each message
replaces a waiting older one instead of every state queuing in turn. The
bot adds a margin to each period (2 % and 30 ms), since the server counts a
call when it arrives (``padded``):

- a channel: table and lobby refreshes keep evenly apart (4 a window) and
  leave one to a turn ping, a result or a round's new message;
- a hand (an interaction's token): one of the 5 is kept for the hand of a
  player whose turn it is;
- deleting a message (an old turn ping) is a bucket of its own; it waits
  for the channel's other writes, never the other way round;
- the bot: its 50 a second go to each write in turn by its deadline
  (``bots.outbound.gate``): a person's first, but no refresh left waiting long.

Answering an interaction (the first response to a press or a command) has
no such limit and never goes through here: a press is answered at once.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Final

from ..outbound import Dispatcher, Limit, padded

#: (writes, seconds) as Discord's server counts them.
CHANNEL: Final = (5, 5.0)
TOKEN: Final = (5, 2.0)
DELETES: Final = (5, 1.0)
OVERALL: Final = (50, 1.0)


def channel_lane(channel: int) -> tuple[str, int]:
    return ("channel", channel)


def hand_lane(table_id: str, player_id: str) -> tuple[str, str, str]:
    return ("hand", table_id, player_id)


def delete_lane(channel: int) -> tuple[str, int]:
    return ("delete", channel)


def direct_lane(player_id: str) -> tuple[str, str, str]:
    """What the pool writes in a person's DM (the waiting message, a stranger match's table,
    results and turn pings): a channel's budget, known before the DM's own id is."""
    return ("channel", "dm", player_id)


def direct_delete_lane(player_id: str) -> tuple[str, str, str]:
    return ("delete", "dm", player_id)


def dispatcher(*, speedup: float = 1.0) -> Dispatcher:
    """The dispatcher for one bot; ``speedup`` runs the limits' clocks that many times faster
    (tests, whose fake server enforces the same limits sped up alike)."""

    def window(seconds: float) -> float:
        return padded(seconds, speedup=speedup, fixed=0.03 / speedup)

    channel_period = window(CHANNEL[1])
    channel = Limit(CHANNEL[0], channel_period, reserve=1, spacing=channel_period / (CHANNEL[0] - 1))
    token = Limit(TOKEN[0], window(TOKEN[1]), reserve=1)
    deletes = Limit(DELETES[0], window(DELETES[1]))
    overall = Limit(OVERALL[0], window(OVERALL[1]), reserve=10)
    limits = {"channel": channel, "hand": token, "delete": deletes}

    def limit_of(lane: Hashable) -> Limit:
        return limits[lane[0]] if isinstance(lane, tuple) and lane and lane[0] in limits else token

    return Dispatcher(limit_of, overall, first_delay=0.5 / speedup, max_delay=30.0 / speedup)
