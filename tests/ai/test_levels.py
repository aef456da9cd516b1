"""``player(level, seed)``: the three levels, and the examples in the docstrings."""

from __future__ import annotations

import doctest

import pytest

import core.ai
import core.ai.reasons
from core import BasraError
from core.ai import LEVELS, player


def test_the_levels_weakest_first() -> None:
    assert list(LEVELS) == ["beginner", "strong", "expert"]
    for level in LEVELS:
        assert player(level).level == level


def test_an_unknown_level_is_refused_by_name() -> None:
    with pytest.raises(BasraError, match="'grandmaster'"):
        player("grandmaster")


@pytest.mark.parametrize("module", [core.ai, core.ai.reasons])
def test_the_docstring_examples_hold(module: object) -> None:
    failed, attempted = doctest.testmod(module)  # type: ignore[arg-type]
    assert attempted and not failed
