"""Every computer player always makes a legal play, with 2 or 4 players, under every variant."""

from __future__ import annotations

import pytest

from core import PRESETS, Match, Rules
from core.ai import legal_moves, player
from core.ai.base import Player
from core.ai.expert import Expert

from .positions import view_of

# Short matches: every preset with a target of 30 ("target 100" becomes the default).
VARIANTS = {name: rules.with_changes(target=30) for name, rules in PRESETS.items() if name != "target 100"}


def bots(players: int, seed: int) -> list[Player]:
    levels: list[Player] = [player("beginner", seed=seed), player("strong", seed=seed),
                            Expert(seed=seed, simulations=8)]
    return [levels[(seed + s) % 3] for s in range(players)]


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_whole_short_matches_are_played_with_legal_plays_only(players: int, variant: str) -> None:
    rules = VARIANTS[variant]
    for seed in range(2):
        match = Match.new(players, rules, seed=f"legal:{variant}:{seed}", dealer=seed % players)
        seats = bots(players, seed)
        while match.to_move is not None:
            seat = match.to_move
            view = match.view(seat)
            card, plan = seats[seat].choose(view)
            assert card in view.hand
            assert isinstance(plan, int) and not isinstance(plan, bool)
            match.play(seat, card, plan)  # raises IllegalPlay if the choice is not legal
        assert match.winner is not None


def test_a_capturing_card_may_be_laid_only_under_optional_capture() -> None:
    forced = {(m.card.code, m.plan) for m in legal_moves(view_of("5S KD", "5H 2C"))}
    optional = {(m.card.code, m.plan)
                for m in legal_moves(view_of("5S KD", "5H 2C", rules=Rules(optional_capture=True)))}
    assert forced == {("5S", 1), ("KD", 0)}
    assert optional == forced | {("5S", 0)}
