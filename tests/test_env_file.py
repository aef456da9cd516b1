"""A ``.env`` that is not UTF-8 text is one line and exit status 2, for every entry point."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
ENTRY_POINTS = {
    "basra-telegram": ["-m", "bots.telegram"],
    "basra-discord": ["-m", "bots.discord"],
    "basra-bots": ["-m", "bots"],
    "basra": ["-m", "bots.terminal", "play"],
}


@pytest.mark.parametrize("name", sorted(ENTRY_POINTS))
def test_an_env_file_that_is_not_utf8_is_one_line(name: str, tmp_path: Path) -> None:
    (tmp_path / ".env").write_bytes(b"BASRA_LANGUAGE=\xe9\xff\nTELEGRAM_BOT_TOKEN=x\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BASRA_", "TELEGRAM_", "DISCORD_"))}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, *ENTRY_POINTS[name]], cwd=tmp_path, env=env, input="q\n",
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"{name}: .env is not UTF-8 text (byte 15 cannot be read): save it as UTF-8"
    ]
