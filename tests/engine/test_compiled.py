"""The compiled engine and its sources: the guard that picks between them, and
that both play the same matches."""

from __future__ import annotations

import importlib.machinery
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from core import compiled

EXTENSION = importlib.machinery.EXTENSION_SUFFIXES[0]


@pytest.fixture
def sources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the compiled modules' sources, as a build leaves them."""
    monkeypatch.delenv("BASRA_PURE_PYTHON", raising=False)
    for name in compiled.COMPILED_MODULES:
        copy = compiled.source_path(name, tmp_path)
        copy.parent.mkdir(exist_ok=True)
        shutil.copy(compiled.source_path(name), copy)
    return tmp_path


def build(directory: Path) -> None:
    """What setup.py leaves beside the sources (the extensions here are empty stand-ins)."""
    for name in compiled.COMPILED_MODULES:
        source = compiled.source_path(name, directory)
        source.with_name(source.stem + EXTENSION).write_bytes(b"")
    (directory / compiled.DIGESTS_FILE).write_text(json.dumps(compiled.source_digests(directory)))


def test_sources_with_no_compiled_modules_need_no_guard(sources: Path) -> None:
    assert compiled.stale_reason(sources) is None


def test_compiled_modules_built_from_these_sources_are_used(sources: Path) -> None:
    build(sources)
    assert compiled.stale_reason(sources) is None


def test_a_source_changed_after_the_build_sends_every_module_to_its_source(sources: Path) -> None:
    build(sources)
    with (sources / "plans.py").open("a") as source:
        source.write("\n# changed\n")
    assert compiled.stale_reason(sources) == "core/plans.py changed since the engine was compiled"
    with (sources / "ai" / "odds.py").open("a") as source:
        source.write("\n# changed\n")
    changed = "core/plans.py, core/ai/odds.py changed since the engine was compiled"
    assert compiled.stale_reason(sources) == changed


def test_compiled_modules_without_their_digests_are_not_trusted(sources: Path) -> None:
    build(sources)
    (sources / compiled.DIGESTS_FILE).unlink()
    reason = compiled.stale_reason(sources)
    assert reason is not None and compiled.DIGESTS_FILE in reason


def test_the_operator_can_ask_for_the_sources(sources: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build(sources)
    monkeypatch.setenv("BASRA_PURE_PYTHON", "1")
    assert compiled.stale_reason(sources) == "BASRA_PURE_PYTHON is set"
    monkeypatch.setenv("BASRA_PURE_PYTHON", "0")
    assert compiled.stale_reason(sources) is None


PLAY = """
import json, random
from core import Match, to_dict
from core.ai import player
from core.compiled import is_compiled
import core.match, core.ai.playout
rng = random.Random(11)
out = []
for n in range(6):
    match = Match.new(2 if n % 2 else 4, seed=n)
    events = []
    while (seat := match.to_move) is not None:
        hand = match.hand(seat)
        card = hand[int(rng.random() * len(hand))]
        plans = match.plans(card)
        events += match.play(seat, card, 1 + int(rng.random() * len(plans)) if plans else None)
    out.append([match.to_record(), match.scores, [to_dict(e) for e in events]])
# The computer players choose the same: two short matches of expert against strong.
for n in range(2):
    match = Match.new(2, seed=100 + n)
    seats = [player("expert", seed=n), player("strong", seed=n)]
    for _ in range(24):
        seat = match.to_move
        card, plan = seats[seat].choose(match.view(seat))
        match.play(seat, card, plan)
    out.append(match.plays)
files = [core.match.__file__, core.ai.playout.__file__]
print(json.dumps({"compiled": is_compiled(), "files": files, "matches": out}))
"""


def run_engine(pure: bool) -> dict[str, Any]:
    env = {k: v for k, v in os.environ.items() if k != "BASRA_PURE_PYTHON"}
    if pure:
        env["BASRA_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PLAY], env=env, capture_output=True, text=True, check=True, timeout=120
    )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_the_sources_and_the_compiled_engine_play_the_same_matches() -> None:
    pure = run_engine(pure=True)
    assert pure["compiled"] is False and pure["files"] == [
        str(compiled.source_path("match")), str(compiled.source_path("ai.playout"))
    ]
    if not compiled.compiled_files():
        pytest.skip("the engine is not compiled here (installed with BASRA_PURE_PYTHON=1)")
    chosen = run_engine(pure=False)
    assert chosen["compiled"] is True, "the compiled engine is out of date: pip install -e . again"
    assert not any(name.endswith(".py") for name in chosen["files"])
    assert chosen["matches"] == pure["matches"]
