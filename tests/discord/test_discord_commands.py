"""The slash commands, their declarations, and starting the bot from the command line."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from dc_world import (
    Players,
    World,
    actions,
    body_of,
    buttons,
    current_table,
    open_hand,
    open_lobby,
    press,
    public,
    text_of,
)

from bots.discord.__main__ import main
from bots.i18n import card_label

pytestmark = pytest.mark.usefixtures("fast_settle")

COMMANDS = (
    "basra new",
    "basra rules",
    "basra score",
    "basra leaderboard",
    "basra settings",
    "basra resign",
    "basra help",
    "basra hand",
    "basra record",
    "basra privacy",
    "basra forget",
    "basra play",
)
ARABIC = range(0x0600, 0x0700)


def has_arabic(text: str) -> bool:
    return any(ord(ch) in ARABIC for ch in text)


async def test_the_commands_are_synced_with_descriptions_in_both_languages(world: World) -> None:
    assert world.alice.available_commands(world.channel) == COMMANDS
    (group,) = await world.bot.tree.fetch_commands()
    assert group.name == "basra" and has_arabic(group.description) and "Egyptian" in group.description
    described = [group.description]
    for sub in group.options:
        described.append(sub.description)
        for option in getattr(sub, "options", []):
            described.append(option.description)
            described += [choice.name for choice in option.choices if not choice.name.isdigit()]
    assert all(has_arabic(text) and len(text) <= 100 for text in described)
    # Names stay English (Discord has no Arabic locale to localize them into).
    assert all(sub.name.isascii() for sub in group.options)


async def test_help_rules_score_and_leaderboard_answer_privately(world: World) -> None:
    for command in ("basra help", "basra rules", "basra score", "basra leaderboard"):
        result = await world.bob.slash(world.channel, command)
        assert result.acknowledged and result.ephemeral and result.response is not None, command
        assert text_of(result.response).strip(), command
    rules = await world.bob.slash(world.channel, "basra rules")
    assert rules.response is not None and "121" in text_of(rules.response)
    shown = await world.bob.slash(world.channel, "basra help")
    assert shown.response is not None
    help_text = text_of(shown.response)
    for command in ("/basra new", "/basra hand", "/basra resign", "/basra leaderboard", "/basra settings"):
        assert f"{command}** — " in help_text or f"{command} — " in help_text, (command, help_text)
    score = await world.bob.slash(world.channel, "basra score")
    assert score.response is not None and str(world.bob.id) not in text_of(score.response)
    assert "bob" in text_of(score.response)


async def test_settings_need_the_manage_channel_permission_and_change_the_language(world: World) -> None:
    refused = await world.bob.slash(world.channel, "basra settings", clock=60)
    assert refused.response is not None
    assert refused.response.content == "Only members who can manage this channel can change its settings."
    settings = await world.bot.service.settings(f"dc:{world.channel.id}")
    assert settings.turn_seconds != 60

    changed = await world.alice.slash(world.channel, "basra settings", clock=60, language="ar")
    assert changed.response is not None and "1:00" in text_of(changed.response)
    assert (await world.bot.service.settings(f"dc:{world.channel.id}")).turn_seconds == 60
    # The channel now speaks Arabic, to everyone who chose nothing else ...
    help_ar = await world.bob.slash(world.channel, "basra help")
    assert help_ar.response is not None and has_arabic(text_of(help_ar.response))
    # ... and a person may keep their own language.
    mine = await world.bob.slash(world.channel, "basra settings", my_language="en")
    assert mine.acknowledged
    help_en = await world.bob.slash(world.channel, "basra help")
    assert help_en.response is not None and not has_arabic(text_of(help_en.response))

    # The settings message's buttons work too, for those allowed.
    toggled = await press(world.alice, changed.response, "variant", arg="optional capture")
    assert toggled.response is not None and "✓" in text_of(toggled.response)
    assert (await world.bot.service.settings(f"dc:{world.channel.id}")).rules.optional_capture


async def test_one_game_per_channel_and_resign_ends_it(world: World) -> None:
    lobby = await open_lobby(world, world.alice, "1v1")
    again = await world.bob.slash(world.channel, "basra new", mode="2v2")
    assert again.ephemeral and again.response is not None
    assert again.response.content == "This chat already has a game. Finish or cancel it first."
    await press(world.bob, lobby, "join")
    await press(world.alice, lobby, "start")

    resigned = await world.bob.slash(world.channel, "basra resign")

    assert resigned.ephemeral and resigned.response is not None
    assert resigned.response.content == "You resigned the match."
    result = text_of(public(world)[-1])
    assert "resigned" in result and "alice won!" in result.replace("\u2068", "").replace("\u2069", "")
    score = await world.alice.slash(world.channel, "basra score")
    assert score.response is not None and "1 win" in text_of(score.response)
    board = await world.alice.slash(world.channel, "basra leaderboard", scope="global")
    assert board.response is not None and "alice" in text_of(board.response)


async def test_hand_command_and_the_practice_hint(world: World) -> None:
    none = await world.alice.slash(world.channel, "basra hand")
    assert none.response is not None
    assert none.response.content == "There is no game in this chat. Start one with /basra new."
    lobby = await open_lobby(world, world.alice, "practice")
    await press(world.alice, lobby, "start")
    table = await current_table(world)
    assert table.practice

    shown = await world.alice.slash(world.channel, "basra hand")

    assert shown.ephemeral and shown.response is not None
    hand = shown.response
    assert [b.label for b in buttons(hand)][-1] == "Hint"
    hint = await world.alice.click(hand, label="Hint")
    assert hint.response is not None and hint.response.id == hand.id
    # The service's hint, worded above the hand, whose confirm button plays it.
    expected = await world.bot.service.hint(table.table_id, f"dc:{world.alice.id}")
    assert body_of(hint.response).lstrip().startswith(f"**Hint: {card_label(expected.card)} — ")
    play = next(a for a in actions(hand) if a.verb == "play")
    assert (play.card, play.plan) == (expected.card, expected.plan)
    assert (await current_table(world)).version == table.version  # a hint plays nothing
    # Confirming plays the hinted card; the computer answers at once and the hint is back.
    await world.alice.click(hand, custom_id=play.encode())
    after = await world.bot.service.hand(table.table_id, f"dc:{world.alice.id}")
    assert after.version > table.version and after.your_turn and expected.card not in after.hand
    assert [b.label for b in buttons(hand)][-1] == "Hint"
    await Players(world, table.table_id, hands={world.alice.id: hand}).play_turn()
    assert "Hint" in [b.label for b in buttons(hand)]


async def test_a_match_between_people_offers_no_hint(world: World) -> None:
    lobby = await open_lobby(world, world.alice, "1v1")
    await press(world.bob, lobby, "join")
    await press(world.alice, lobby, "start")
    for member in (world.alice, world.bob):
        hand = await open_hand(world, member)
        assert "Hint" not in [b.label for b in buttons(hand)]
        assert [a.verb for a in actions(hand)] == ["card"] * 4


# -- the command line ------------------------------------------------------------------


def test_a_missing_token_is_one_clear_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_BOT_TOKEN", raising=False)
    assert main() == 2
    assert capsys.readouterr().err == "basra-discord: DISCORD_BOT_TOKEN is not set\n"

    monkeypatch.setenv("DISCORD_BOT_TOKEN", "hunter2")
    assert main() == 2
    err = capsys.readouterr().err
    assert err.startswith("basra-discord: DISCORD_BOT_TOKEN does not look like a Discord bot token")
    assert "hunter2" not in err and err.count("\n") == 1


def test_python_m_bots_discord_without_a_token_exits_without_a_traceback(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_BOT_TOKEN"}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[2])
    done = subprocess.run(
        [sys.executable, "-m", "bots.discord"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr == "basra-discord: DISCORD_BOT_TOKEN is not set\n" and done.stdout == ""
