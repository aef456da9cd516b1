"""The shared renderer: views in, localized text and buttons out, for both bots.

Every function takes a view from ``bots.service`` and a ``Translator`` and
returns a ``Rendered``: a ``Text`` (lines of spans, some bold; see
``markup``: ``.html()`` for Telegram, ``.markdown()`` for Discord) and rows
of ``Button``s whose ``Action`` the adapter encodes into its own payload
(``action.encode()`` / ``Action.decode(payload)``). Cards show with suit
symbols (``10♦``), runs of cards in left-to-right isolates, the game words of
RULES.md §9. Public renderings (lobby, table, results) never contain a hand card.

``render_notice(notice)`` renders any outbound notice in the notice's language.
"""

from .actions import Action, Button, ButtonStyle, Verb
from .hints import hint_text, reason_text, render_hint
from .info import (
    COMMANDS,
    render_error,
    render_help,
    render_leaderboard,
    render_rules,
    render_settings,
    render_stats,
)
from .lines import render_moved, render_played, stacked
from .markup import Line, Span, Text
from .notices import render_notice
from .outcomes import render_match_result, render_round_result
from .rendered import Rendered
from .texts import (
    render_hand,
    render_lobby,
    render_round_start,
    render_table,
    render_turn_notice,
    render_warning,
)

__all__ = [
    "COMMANDS",
    "Action",
    "Button",
    "ButtonStyle",
    "Line",
    "Rendered",
    "Span",
    "Text",
    "Verb",
    "hint_text",
    "reason_text",
    "render_error",
    "render_hand",
    "render_help",
    "render_hint",
    "render_leaderboard",
    "render_lobby",
    "render_match_result",
    "render_moved",
    "render_notice",
    "render_played",
    "render_round_result",
    "render_round_start",
    "render_rules",
    "render_settings",
    "render_stats",
    "render_table",
    "render_turn_notice",
    "render_warning",
    "stacked",
]
