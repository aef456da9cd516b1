"""The Discord bot's logging as its entry point sets it up: no card and no token in any line
(its own, or any other that looks like one), discord.py's loggers never below INFO."""

from __future__ import annotations

import json
import logging

import discord
import pytest

from bots.discord.__main__ import configure_logging
from bots.discord.settings import DiscordSettings
from bots.logs import redact

TOKEN = "MTA5ODc2NTQzMjEwOTg3NjU0.GfakeA.0123456789abcdefghijklmnopqrstuvwxyzAB"
#: Not the bot's own token, but shaped as one.
OTHER = "OTk4NzY1NDMyMTA5ODc2NTQz.Gabcde.ZYXWVUTSRQPONMLKJIHGFEDCBA_-0123"

pytestmark = pytest.mark.usefixtures("logging_restored")


def set_up(**fields: str) -> None:
    """What ``python -m bots.discord`` does with its settings."""
    settings = DiscordSettings(_env_file=None, DISCORD_BOT_TOKEN=TOKEN, **fields)  # type: ignore[call-arg]
    configure_logging(settings.log_level or "INFO", settings.log_format,
                      token=settings.discord_bot_token.get_secret_value())


def test_a_line_with_a_card_code_a_card_label_and_a_token_comes_out_masked(
    capsys: pytest.CaptureFixture[str],
) -> None:
    set_up(log_format="json")
    logging.getLogger("bots.discord.presses").warning(
        "a %s press with 10D and K♥ failed; Authorization: Bot %s; also %s", "play", TOKEN, OTHER)
    try:
        raise discord.DiscordException(f"illegal play '7S' for token {TOKEN}")
    except discord.DiscordException:
        logging.getLogger("discord.client").exception("Ignoring exception in basra_button")
    lines = [json.loads(line) for line in capsys.readouterr().err.splitlines()]
    assert [line["message"] for line in lines] == [
        "a play press with ?? and ?? failed; Authorization: Bot <token>; also <token>",
        "Ignoring exception in basra_button",
    ]
    assert "illegal play '??' for token <token>" in lines[1]["exception"]
    text = json.dumps(lines, ensure_ascii=False)
    for secret in ("10D", "K♥", "7S", TOKEN, OTHER, "GfakeA"):
        assert secret not in text


def test_dotted_names_are_not_taken_for_tokens() -> None:
    line = "discord.errors.HTTPException in bots.discord.delivery at gateway-us-east1-b.discord.gg"
    assert redact(line) == line


def test_discord_py_stays_at_info_even_when_the_bot_logs_debug(capsys: pytest.CaptureFixture[str]) -> None:
    set_up(log_level="debug")
    logging.getLogger("discord.http").debug("PATCH /webhooks/1/aW50ZXJhY3Rpb24 with payload {...}")
    logging.getLogger("bots.discord.delivery").debug("queued a table write")
    set_up(log_level="error")
    logging.getLogger("discord.client").info("logging in using static token")
    err = capsys.readouterr().err
    assert "payload" not in err and "static token" not in err
    assert "DEBUG bots.discord.delivery: queued a table write" in err
