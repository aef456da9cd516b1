"""``python -m bots``: which bots it runs from the tokens set, and what it refuses."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TELEGRAM = "123456:" + "a" * 35
DISCORD = "M" * 24 + "." + "G" * 6 + "." + "x" * 27


def run(tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """The module in a folder of its own (no .env of ours), with only ``env`` set."""
    return subprocess.run(
        [sys.executable, "-m", "bots"], cwd=tmp_path, capture_output=True, text=True, timeout=60,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).resolve().parents[1]),
             "BASRA_PURE_PYTHON": "1", **env},
    )


def test_without_any_token_it_says_which_to_set(tmp_path: Path) -> None:
    done = run(tmp_path)
    assert done.returncode == 2
    assert "TELEGRAM_BOT_TOKEN, DISCORD_BOT_TOKEN or both" in done.stderr


@pytest.mark.parametrize(("token", "command"), [("TELEGRAM_BOT_TOKEN", "basra-telegram"),
                                                ("DISCORD_BOT_TOKEN", "basra-discord")])
def test_with_one_token_it_is_that_bot(tmp_path: Path, token: str, command: str) -> None:
    done = run(tmp_path, **{token: "not a token"})
    assert done.returncode == 2
    assert done.stderr.startswith(f"{command}: "), done.stderr


def test_both_on_postgresql_are_two_processes_instead(tmp_path: Path) -> None:
    done = run(tmp_path, TELEGRAM_BOT_TOKEN=TELEGRAM, DISCORD_BOT_TOKEN=DISCORD,
               BASRA_DATABASE="postgresql://basra@localhost/basra")
    assert done.returncode == 2
    assert "run basra-telegram and basra-discord, each in its own process" in done.stderr
    assert TELEGRAM not in done.stderr and DISCORD not in done.stderr


def test_the_discord_bot_of_one_host_shows_the_web_table_telegram_serves(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bots.__main__ import _assemble
    from bots.discord.settings import DiscordSettings
    from bots.telegram.settings import TelegramSettings

    monkeypatch.chdir(tmp_path)
    for name, value in {"TELEGRAM_BOT_TOKEN": TELEGRAM, "DISCORD_BOT_TOKEN": DISCORD,
                        "BASRA_WEB_URL": "https://basra.example.org", "BASRA_WEB_PORT": "8080",
                        "BASRA_DATABASE": str(tmp_path / "basra.sqlite3")}.items():
        monkeypatch.setenv(name, value)
    _, basra, bot = _assemble(TelegramSettings(), DiscordSettings())
    assert basra.web is not None and bot.web is basra.web  # Discord's hands and start links too
    assert bot.shared_host is basra.shared_host
