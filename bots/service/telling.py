"""What one match action tells: the notices of a change, in the order adapters show them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from core import events as ev

from . import viewing
from .languages import Languages
from .live import LiveTable
from .notices import ClockWarning, HandUpdated, MatchEnded, Notice, RoundEnded, TableUpdated, YourTurn
from .views import HandView, TableView


def match_notices(
    live: LiveTable, table: TableView, events: Sequence[ev.Event], languages: Languages
) -> list[Notice]:
    """Everything one match action tells: the table (``table``, its public view now), round
    results, the match result, hands, the turn.

    A play that ends a round first shows that round's table as the play left
    it (its ``round_no``, so adapters edit that round's message), then the
    round's result, then the next round's table.
    """
    match, record = live.match, live.record
    assert match is not None
    notices: list[Notice] = []
    public = languages.public(record.chat_id)
    shown = False
    for event in events:
        if isinstance(event, ev.RoundScored):
            close = viewing.round_close(events, event.round_no)
            if event.round_no == table.round_no:  # the match ended with this round
                table = replace(table, round_close=close)
                notices.append(TableUpdated(table, public))
                shown = True
            else:
                closed = viewing.closed_round_view(table, match, close, last_auto=live.last_auto)
                notices.append(TableUpdated(closed, public))
            rounds = viewing.round_views(record, match, table.seats)
            notices.append(RoundEnded(rounds[event.round_no - 1], public))
    if not shown:
        notices.append(TableUpdated(table, public))
    if record.status != "running":
        notices.append(MatchEnded(viewing.match_result_view(record, match, table.seats), public))
    hands: dict[int, HandView] = {}
    for seat, info in enumerate(record.seats):
        if info.player_id is not None:
            hands[seat] = viewing.hand_view(table, match, seat, info.player_id, None)
            notices.append(HandUpdated(hands[seat], languages.of(info.player_id, record.chat_id)))
    mover = table.to_move
    if mover is not None and mover in hands:
        pid = hands[mover].player_id
        notices.append(YourTurn(hands[mover], languages.of(pid, record.chat_id)))
    return notices


def caught_up(live: LiveTable, table: TableView, missed: Sequence[ev.Event] | None, languages: Languages,
              now: float) -> list[Notice]:
    """What another process's actions told its people, for this one's to hear (``crossing``):
    the notices of ``missed`` (their events, the match now as they left it, ``table`` its
    view), or, when the match did not move (``missed`` None) but a clock's warning was
    given, the warning to whoever is to move."""
    if missed is not None:
        return match_notices(live, table, missed, languages)
    record, match = live.record, live.match
    if match is None or match.to_move is None or record.deadline is None:
        return []
    player_id = record.seats[match.to_move].player_id
    if player_id is None:
        return []
    hand = viewing.hand_view(table, match, match.to_move, player_id, None)
    left = max(0, round(record.deadline - now))
    return [ClockWarning(hand, left, languages.of(player_id, record.chat_id))]
