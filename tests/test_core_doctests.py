"""The engine's docstring examples (card notation, plans, rules) are run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["core", "core.cards", "core.plans", "core.rules"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
