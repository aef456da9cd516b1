"""Rendering any outbound notice in its own language."""

from __future__ import annotations

from ..i18n import translator
from ..service import notices
from .markup import Text
from .outcomes import render_match_result, render_round_result
from .reactions import render_reacted
from .rendered import Rendered
from .texts import render_hand, render_lobby, render_table, render_turn_notice, render_warning


def render_notice(notice: notices.Notice, *, now: float | None = None) -> Rendered:
    """Any notice, in its own ``lang``."""
    t = translator(notice.lang)
    if isinstance(notice, notices.LobbyUpdated | notices.LobbyClosed):
        return render_lobby(notice.lobby, t)
    if isinstance(notice, notices.TableUpdated):
        return render_table(notice.table, t, now=now)
    if isinstance(notice, notices.HandUpdated):
        return render_hand(notice.hand, t, now=now)
    if isinstance(notice, notices.YourTurn):
        return render_turn_notice(notice, t)
    if isinstance(notice, notices.ClockWarning):
        return render_warning(notice, t)
    if isinstance(notice, notices.RoundEnded):
        return render_round_result(notice.result, t)
    if isinstance(notice, notices.MatchEnded):
        return render_match_result(notice.result, t)
    if isinstance(notice, notices.TableSetAside):
        # TRANSLATORS: at start-up, a game whose saved record is damaged was closed.
        return Rendered(Text.of(t.gettext(
            "This game's saved record is damaged, so it cannot go on: it has been closed. "
            "A new game can be started here at once.")))
    if isinstance(notice, notices.Reacted):
        return render_reacted(notice)
    raise TypeError(f"not a notice: {notice!r}")
