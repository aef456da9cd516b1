"""``basra`` logs as the bots do, through the same redactor, but only warnings and errors
unless told otherwise: its table shares the terminal with standard error."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from bots.terminal import __main__ as terminal

pytestmark = pytest.mark.usefixtures("logging_restored")


def run_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    terminal.main(["export", "--database", str(tmp_path / "basra.sqlite3"), "--output", "-"])
    capsys.readouterr()  # what the command itself said


def test_basra_logs_warnings_only_and_never_a_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    for name in ("BASRA_LOG_LEVEL", "BASRA_LOG_FORMAT"):
        monkeypatch.delenv(name, raising=False)
    run_export(tmp_path, capsys)
    logging.getLogger("bots.service").info("a line for operators")
    logging.getLogger("bots.service").warning("the computer could not play 10D or J♣")
    err = capsys.readouterr().err
    assert "a line for operators" not in err
    assert "WARNING bots.service: the computer could not play ?? or ??" in err


def test_basra_logs_json_lines_at_the_level_it_is_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("BASRA_LOG_LEVEL", "info")
    monkeypatch.setenv("BASRA_LOG_FORMAT", "json")
    run_export(tmp_path, capsys)
    logging.getLogger("bots.service").info("a line for operators")
    [line] = [json.loads(text) for text in capsys.readouterr().err.splitlines()]
    assert (line["level"], line["logger"]) == ("INFO", "bots.service")
    assert line["message"] == "a line for operators"
