"""Sharding: a process holds the gateway shards its settings name, of the bot's count."""

from __future__ import annotations

import discord
import pytest
from pydantic import ValidationError

from bots.discord.bot import BasraBot, BotOptions, ShardedBasraBot, make_bot
from bots.discord.settings import DiscordSettings, settings_problem

TOKEN = "MTIzNDU2Nzg5MDEy.GhIjKl.abc-def_ghi"


def settings(**values: object) -> DiscordSettings:
    return DiscordSettings(_env_file=None, DISCORD_BOT_TOKEN=TOKEN, **values)  # type: ignore[arg-type]


async def test_a_process_holds_the_shards_its_settings_name() -> None:
    chosen = settings(DISCORD_SHARD_COUNT=4, DISCORD_SHARD_IDS="3, 1")
    options = BotOptions(shard_count=chosen.discord_shard_count, shard_ids=chosen.shard_ids())
    bot = make_bot(options)  # not logged in: nothing to close
    assert isinstance(bot, ShardedBasraBot) and isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count == 4
    assert bot.shard_ids == [1, 3]
    # Every press in a DM comes to shard 0's process, which pairs the pool's people alone.
    assert not bot.platform.pairs
    assert make_bot(BotOptions(shard_count=4, shard_ids=(0, 2))).platform.pairs
    assert make_bot(BotOptions(shard_count=4)).platform.pairs


async def test_without_a_shard_count_the_bot_is_one_unsharded_client() -> None:
    bot = make_bot(BotOptions())
    try:
        assert type(bot) is BasraBot
        assert not isinstance(bot, discord.AutoShardedClient)
        assert bot.platform.pairs
    finally:
        await bot.close()


@pytest.mark.parametrize(
    ("values", "problem"),
    [
        ({"DISCORD_SHARD_IDS": "1"}, "DISCORD_SHARD_IDS needs DISCORD_SHARD_COUNT"),
        ({"DISCORD_SHARD_COUNT": 2, "DISCORD_SHARD_IDS": "0,5"}, "DISCORD_SHARD_IDS [5] are not shards of 2"),
        ({"DISCORD_SHARD_COUNT": 2, "DISCORD_SHARD_IDS": "x"}, "DISCORD_SHARD_IDS is not a list of numbers"),
        ({"DISCORD_SHARD_COUNT": 0}, "DISCORD_SHARD_COUNT Input should be greater than or equal to 1"),
    ],
)
def test_wrong_shard_settings_are_refused_in_one_line(values: dict[str, object], problem: str) -> None:
    with pytest.raises(ValidationError) as refused:
        settings(**values)
    assert settings_problem(refused.value).startswith(problem)
