"""A BASRA_ setting that cannot be used is one line naming it, status 2, for ``basra play``
as for the bots (their own token lines are tested with each bot)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("setting", "value", "line"),
    [
        ("BASRA_TURN_SECONDS", "abc", "BASRA_TURN_SECONDS is not valid: Input should be a valid integer"),
        ("BASRA_DATABASE", "", "BASRA_DATABASE is not valid: it is empty: give the database file's path"),
        ("BASRA_LANGUAGE", "fr", "BASRA_LANGUAGE is not valid: Input should be 'ar' or 'en'"),
    ],
)
def test_basra_play_names_the_bad_setting_in_one_line(
    setting: str, value: str, line: str, tmp_path: Path
) -> None:
    env = {**os.environ, "BASRA_DATABASE": str(tmp_path / "b.sqlite3"), setting: value,
           "PYTHONWARNINGS": "ignore::RuntimeWarning"}
    done = subprocess.run([sys.executable, "-m", "bots.terminal", "play"], input="q\n", env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert [x for x in done.stderr.splitlines() if x.strip()] == [done.stderr.strip()]
    assert done.stderr.startswith(f"basra: {line}") and "Traceback" not in done.stderr
