"""Whether a play's short line may wait for the answer to it, and for how long (``Fold``).

At a practice match the computers answer within their pauses, and at a group's 1-v-1 a
quick opponent within a moment: the player's next turn is then drawn on the hand they just
played, the plays made since above it, in one edit instead of a short line and a new
message (``hands``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from ..service import HandView, is_pool_chat
from .contents import in_group, is_private
from .outbox import Content

#: A practice play's short line waits this long beyond the computers' pauses for their
#: answer (a decision, a commit), which then shows with it in one edit of the hand.
FOLD_MARGIN: Final = 1.5
#: The longest the computers' pauses before a player's next turn may add up to for their
#: play's short line to wait for them: longer (a 2-v-2's three computers at the usual
#: 0.8 s, or computers set to pause long), the play shows at once, and the turn comes as a
#: new message, which notifies, with what the computers played since.
FOLD_MOST: Final = 1.5
#: How long a group 1-v-1 player's short line waits for the opponent's answer after their
#: play (their hand live meanwhile, as it was; the press's answer says what was played).
FOLD_PERSON: Final = 2.0


@dataclass(slots=True)
class Fold:
    """A player's play, at a match that ``folds``, until their next turn: on hand message ``message_id``, its
    short line ``line`` (at ``hand``, the hand after the play), ``held`` back or already
    sent, and what was played since, for the reader (their own play first)."""

    message_id: int
    hand: HandView
    line: Content
    held: bool
    said: list[str] = field(default_factory=list)


def in_practice(hand: HandView) -> bool:
    """Whether ``hand``'s match is a practice match in a private chat (not a stranger match)."""
    chat = hand.table.chat_id
    return not is_pool_chat(chat) and is_private(chat)


def folds(hand: HandView) -> bool:
    """Whether a play at ``hand``'s match may wait for the answer to it (``Fold``): at a
    practice match, and at a group's 1-v-1."""
    return in_practice(hand) or (in_group(hand.table.chat_id) and hand.table.players == 2)
