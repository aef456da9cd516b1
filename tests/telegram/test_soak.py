"""bench/soak.py in its short mode: the real bot process, matches turning over for 18 seconds
at three times a person's pace, a line of figures every 6 seconds and the slope of its
memory at the end, with the small caps and the probe's report of what grew. What is checked
is the report's shape, never a timing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MINUTE = re.compile(r"^\s+([\d.]+)\s+(\d+\.\d)\s+(\d+)\s+(\d+\.\d\d s|-)\s+(\d+\.\d\d s|-)$")


def test_the_soak_prints_memory_and_lags_each_minute_and_a_slope(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TELEGRAM_", "BASRA_"))}
    env.update(PYTHONPATH=str(ROOT), BASRA_PURE_PYTHON=os.environ.get("BASRA_PURE_PYTHON", "0"))
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "soak.py"), "--minutes", "0.3", "--every", "6",
         "--matches", "4", "--plays", "8", "--pace", "0.3", "--small-caps",
         "--probe", str(tmp_path / "probe")],
        capture_output=True, text=True, timeout=400, env=env, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    head = r"^bot process \d+: 4 1-v-1s turning over, 8 confirms a match.*; small caps$"
    assert re.match(head, lines[0]), lines
    assert " ".join(lines[1].split()) == "minute RSS MB finished press-answer p99 group lag p99"
    minutes = [MINUTE.match(line) for line in lines[2:5]]
    assert all(minutes), lines
    assert [m[1] for m in minutes if m] == ["0.1", "0.2", "0.3"]
    assert all(float(m[2]) > 10 for m in minutes if m)  # a bot's resident memory, in MB
    assert any(m[4] != "-" for m in minutes if m), lines  # confirms were answered and timed
    assert any(m[5] != "-" for m in minutes if m), lines
    last = re.match(r"^after warm-up: [+-]\d+\.\d MB an hour \([+-]?[\d.]+ KB per finished match, "
                    r"(\d+) finished in all\); RSS [\d.]+ → [\d.]+ MB$", lines[5])
    assert last is not None and int(last[1]) >= 4, lines
    assert "ended with" not in done.stdout
    # The probe's report: the process's memory by kind, and its objects by type, that grew.
    report = (tmp_path / "probe" / "report.txt").read_text()
    assert re.search(r"^\s+rss: +[\d,]+ → +[\d,]+", report, re.M), report
    assert re.search(r"^\s+sqlite_used: ", report, re.M), report
    assert "objects by type, growth:" in report
