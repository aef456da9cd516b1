"""The baseline level is the expert as first released, and it does not move:
these decisions were recorded from that expert before it was strengthened."""

from __future__ import annotations

import pytest

from core import Match, Rules
from core.ai import LEVELS, all_levels, player

from .positions import play_out

# (players, position number, card, plan) from the first expert, ``player("expert", seed=i)``.
RECORDED = [
    (2, 0, "5H", 1), (2, 1, "3C", 1), (2, 2, "2D", 0), (2, 3, "9D", 0), (2, 4, "4S", 0), (2, 5, "8H", 0),
    (2, 6, "AC", 1), (2, 7, "AH", 0), (4, 0, "9D", 1), (4, 1, "6C", 0), (4, 2, "QC", 1), (4, 3, "7D", 1),
    (4, 4, "QC", 0), (4, 5, "KD", 0), (4, 6, "AH", 0), (4, 7, "3H", 0),
]

# The first expert's plays (card/plan) in a round to 30 points against strong,
# holding seats 0 (and 2), dealer 0, players seeded "b:<seat>".
RECORDED_MATCHES = {
    2: "3D/0 7S/1 2S/0 JC/1 6D/0 5S/0 2D/0 2C/1 8S/0 4H/1 5C/1 6H/0 3H/0 7C/0 QD/1 KC/0 4C/0 10C/1 6C/0 "
       "10H/1 KS/0 QH/0 6S/0 JD/1",
    4: "6H/0 2H/0 6D/0 KH/0 9D/0 7S/0 9S/1 3D/0 KD/1 2S/0 6S/1 3S/1 8S/0 QH/0 9H/0 5H/0 2C/0 5C/0 4S/0 "
       "3C/0 10S/1 JH/1 8H/0 7C/0",
}


def test_the_baseline_is_a_benchmark_level_not_offered_to_players() -> None:
    assert "baseline" in all_levels() and "baseline" not in LEVELS
    assert player("baseline", seed=1).level == "baseline"


def test_the_baseline_lives_beside_the_engine_not_in_it() -> None:
    kind = type(player("baseline", seed=1))
    assert kind.__module__.startswith("bench.baseline")


@pytest.mark.parametrize(("players", "number", "card", "plan"), RECORDED)
def test_the_baseline_decides_as_the_first_expert_did(players: int, number: int, card: str,
                                                       plan: int) -> None:
    match = Match.new(players, seed=f"baseline:{players}:{number}")
    strong = [player("strong", seed=s) for s in range(players)]
    play_out(match, strong, plays=(5 * number + 1) % (12 * players))
    view = match.view(match.to_move or 0)
    chosen, number_chosen = player("baseline", seed=number).choose(view)
    assert (chosen.code, number_chosen) == (card, plan)


@pytest.mark.parametrize("players", [2, 4])
def test_the_baseline_plays_a_whole_round_as_the_first_expert_did(players: int) -> None:
    match = Match.new(players, Rules(target=30), seed=f"baseline-match:{players}", dealer=0)
    bots = [player("baseline" if s % 2 == 0 else "strong", seed=f"b:{s}") for s in range(players)]
    chosen = []
    while match.to_move is not None:
        seat = match.to_move
        card, plan = bots[seat].choose(match.view(seat))
        if seat % 2 == 0:
            chosen.append(f"{card.code}/{plan}")
        match.play(seat, card, plan)
    assert " ".join(chosen) == RECORDED_MATCHES[players]
