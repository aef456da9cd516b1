"""Both bots read the shared settings from the environment or a .env file."""

from __future__ import annotations

from pathlib import Path

import pytest

from bots.settings import BasraSettings


def test_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    settings = BasraSettings()
    assert (settings.database, settings.language, settings.turn_seconds) == (Path("basra.sqlite3"), "ar", 120)
    config = settings.service_config()
    assert (config.turn_seconds, config.warning_seconds, config.lobby_idle_seconds) == (120, 30, 900)


def test_environment_and_dotenv(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / ".env").write_text("BASRA_DATABASE=/data/b.sqlite3\nBASRA_TURN_SECONDS=60\n")
    monkeypatch.setenv("BASRA_LANGUAGE", "en")
    monkeypatch.setenv("BASRA_COMPUTER_DELAY", "0")
    settings = BasraSettings()
    assert settings.database == Path("/data/b.sqlite3") and settings.language == "en"
    assert settings.service_config().turn_seconds == 60 and settings.service_config().computer_delay == 0


def test_bad_values_are_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BASRA_LANGUAGE", "fr")
    with pytest.raises(ValueError):
        BasraSettings()


def test_computer_processes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Unset or blank: the service's default (one fewer than the cores); 0: a thread."""
    monkeypatch.chdir(tmp_path)
    assert BasraSettings().service_config().computer_processes is None
    monkeypatch.setenv("BASRA_COMPUTER_PROCESSES", " ")
    assert BasraSettings().service_config().computer_processes is None
    monkeypatch.setenv("BASRA_COMPUTER_PROCESSES", "0")
    assert BasraSettings().service_config().computer_processes == 0
    monkeypatch.setenv("BASRA_COMPUTER_PROCESSES", "3")
    assert BasraSettings().service_config().computer_processes == 3
    for bad in ("-1", "65", "many"):
        monkeypatch.setenv("BASRA_COMPUTER_PROCESSES", bad)
        with pytest.raises(ValueError):
            BasraSettings()
