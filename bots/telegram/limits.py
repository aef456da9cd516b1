"""Telegram's flood limits, as the bot plans its writes (``bots.outbound``).

Telegram refuses (429, with ``retry_after``) more than 20 messages a minute
in one group, more than about one a second in one private chat (a burst of
three passes), and more than 30 a second from one bot token; sends and edits
count alike. The bot keeps under each with a margin on the period (2 % and
30 ms, ``padded``), since the server counts a call when it arrives, not when it leaves:

- a group: refreshes of the table or lobby keep 3.4 s apart on average (18 a
  window) and leave 2 of the 20 to replies and round changes, so a fast game
  shows its table every 3.4 s instead of bursting and then going silent for a
  minute; a group quiet for a while has ``GROUP_BURST`` refreshes at once, so
  a game played at a person's pace (a play every few seconds) shows each play
  as it comes rather than up to 3.4 s later;
- a private chat: paced writes (a practice match's hand and round's message, a
  group 1-v-1's turn drawn on the hand just played, which carry the game there) keep
  a third of the window apart, about a second, from every write before them, and may
  fill it, so a player who presses as fast as they can meets one exchange a second
  rather than three at once and then three seconds of nothing; urgent writes (a
  reply, a preview drawn in the hand, a turn as a new message, a stranger match's
  hands) go at once while it has room;
- the token: its 30 a second go out evenly spaced, each write in turn by its
  deadline (``bots.outbound.gate``): a person's (a turn, a preview, a reply) first,
  but a group's refresh never waits behind them for long, so every table's view
  stays within a few seconds while private writes are many.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Final

from ..outbound import Dispatcher, Limit, padded

#: (writes, seconds) as Telegram's server counts them.
GROUP: Final = (20, 60.0)
PRIVATE: Final = (3, 3.0)
OVERALL: Final = (30, 1.0)
#: A group's refreshes that may go closer than their spacing after a quiet while: at most
#: this many more than the even pace in any minute, which the window's count then holds back.
GROUP_BURST: Final = 3


def dispatcher(*, speedup: float = 1.0) -> Dispatcher:
    """The dispatcher for one bot token; ``speedup`` runs the limits' clocks that many times
    faster (tests whose fake server enforces the same limits, sped up alike)."""
    group_period = padded(GROUP[1], speedup=speedup)
    group = Limit(GROUP[0], group_period, reserve=2, spacing=group_period / (GROUP[0] - 2), burst=GROUP_BURST)
    private_period = padded(PRIVATE[1], speedup=speedup)
    private = Limit(PRIVATE[0], private_period, spacing=private_period / PRIVATE[0], urgent_spaced=True)
    overall_period = padded(OVERALL[1], speedup=speedup)
    overall = Limit(OVERALL[0], overall_period, reserve=10, spacing=overall_period / OVERALL[0])

    def limit_of(chat: Hashable) -> Limit:
        return group if isinstance(chat, int) and chat < 0 else private

    return Dispatcher(limit_of, overall, first_delay=0.5 / speedup, max_delay=30.0 / speedup)
