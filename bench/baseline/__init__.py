"""The baseline level: the expert as first released, frozen; the helpers that have not
changed since (judge, knowledge, odds, values) are the engine's own.

``player("baseline", seed=...)`` plays exactly as the expert did before it
was strengthened; the arena measures progress against it. It is a level for
benchmarks, not one offered to players.
"""

from __future__ import annotations

from .expert import Baseline

__all__ = ["Baseline"]
