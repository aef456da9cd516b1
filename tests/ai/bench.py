"""The benchmark scripts under bench/, imported as modules for their tests."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


def load(name: str) -> ModuleType:
    """The script ``bench/<name>.py`` as a module."""
    # The scripts put the project's root first on the path when imported: the
    # path is put back as it was, so that bench/ (whose telegram.py would
    # shadow the library) is never left on it.
    saved = list(sys.path)
    sys.path.insert(0, str(BENCH))
    try:
        return importlib.import_module(name)
    finally:
        sys.path[:] = saved
