"""The Telegram bot's logging as its entry point sets it up: no card and no token in a line,
JSON lines when asked, the level it is given; and the real process logging in JSON."""

from __future__ import annotations

import doctest
import json
import logging
from pathlib import Path

import pytest

import bots.logs
from bots.telegram.logs import configure_logging
from bots.telegram.settings import TelegramSettings
from tests.fakes import FakeTelegram
from tests.fakes.telegram_http import HttpFront
from tests.telegram.test_process import Process, until

TOKEN = "123456789:" + "A" * 35
KEYS = {"time", "level", "logger", "message"}

pytestmark = pytest.mark.usefixtures("logging_restored")


def settings(**env: str) -> TelegramSettings:
    return TelegramSettings(_env_file=None, TELEGRAM_BOT_TOKEN=TOKEN, **env)  # type: ignore[call-arg]


def set_up(**env: str) -> None:
    """What ``python -m bots.telegram`` does with its settings."""
    s = settings(**env)
    configure_logging(s.log_level or "INFO", s.log_format, token=s.bot_token.get_secret_value())


def test_a_line_with_a_card_code_a_card_label_and_the_token_comes_out_masked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    set_up()
    logging.getLogger("bots.telegram.presses").error(
        "press %s failed: 7♦ with %s", "b1|play|t1|3|10D|1", f"https://api.telegram.org/bot{TOKEN}/x")
    try:
        raise ValueError("illegal play 'QS': not in hand")
    except ValueError:
        logging.getLogger("bots.telegram").exception("unhandled error for press 1")
    err = capsys.readouterr().err
    assert "press b1|play|t1|3|??|1 failed: ?? with https://api.telegram.org/bot<token>/x" in err
    assert "illegal play '??': not in hand" in err and "Traceback" in err
    for secret in ("10D", "7♦", "QS", TOKEN, "AAAAAAAA"):
        assert secret not in err


def test_json_lines_parse_one_object_a_line_with_the_exception(capsys: pytest.CaptureFixture[str]) -> None:
    set_up(log_format="json")
    logging.getLogger("bots.telegram").info("up with %d tables", 2)
    try:
        raise RuntimeError("the second line\nof a message with 10D")
    except RuntimeError:
        logging.getLogger("bots.service").exception("timed action failed")
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert set(first) == KEYS and (first["level"], first["logger"], first["message"]) == (
        "INFO", "bots.telegram", "up with 2 tables")
    assert first["time"].endswith("Z")
    assert set(second) == {*KEYS, "exception"} and second["level"] == "ERROR"
    assert "RuntimeError: the second line\nof a message with ??" in second["exception"]


def test_the_level_setting_is_followed_and_the_http_client_stays_quiet(
    capsys: pytest.CaptureFixture[str],
) -> None:
    set_up(log_level="warning")
    logging.getLogger("bots.telegram").info("not shown")
    logging.getLogger("bots.telegram").warning("shown")
    set_up(log_level="DEBUG")
    logging.getLogger("bots.service").debug("a debug line")
    logging.getLogger("httpx").info(f"POST https://api.telegram.org/bot{TOKEN}/getUpdates")
    err = capsys.readouterr().err
    assert "not shown" not in err and "WARNING bots.telegram: shown" in err
    assert "DEBUG bots.service: a debug line" in err and "getUpdates" not in err


def test_the_redactors_examples_hold() -> None:
    result = doctest.testmod(bots.logs)
    assert result.attempted > 0 and result.failed == 0


def test_a_log_level_that_does_not_exist_is_refused() -> None:
    with pytest.raises(ValueError, match="log_level"):
        settings(log_level="loud")


async def test_the_bot_process_logs_json_lines(tmp_path: Path) -> None:
    server = FakeTelegram()
    front = HttpFront(server)
    url = await front.start()
    process = Process(url, server.token, tmp_path / "basra.sqlite3", BASRA_LOG_FORMAT="json")
    try:
        await until("the bot to poll", lambda: any(c.method == "getUpdates" for c in server.api_calls))
        await until("its start line", lambda: "is up" in process.stderr())
    finally:
        code, err = await process.stop()
        await front.stop()
    assert code == 0, err
    lines = [json.loads(line) for line in err.splitlines() if line.strip()]
    assert lines and all(set(line) >= KEYS for line in lines)
    assert any(line["logger"] == "bots.telegram.application" and "is up" in line["message"] for line in lines)
    assert server.token not in err
