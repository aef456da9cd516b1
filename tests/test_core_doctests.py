"""The engine's docstring examples (card notation, plans, rules) are run as tests."""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

MODULES = ["core", "core.cards", "core.plans", "core.playbyplay", "core.rules"]


def with_docstrings(name: str) -> ModuleType:
    """The module, or for a compiled one (which keeps no docstrings) a copy run from its source."""
    module = importlib.import_module(name)
    path = Path(module.__file__ or "")
    if path.suffix == ".py":
        return module
    package, _, leaf = name.rpartition(".")
    spec = importlib.util.spec_from_file_location(f"{package}._doctest_{leaf}", path.parent / f"{leaf}.py")
    assert spec is not None and spec.loader is not None
    source = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = source  # dataclasses look their module up while it runs
    spec.loader.exec_module(source)
    return source


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples_hold(name: str) -> None:
    result = doctest.testmod(with_docstrings(name), optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0
