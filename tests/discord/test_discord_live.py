"""Live tables on Discord within its rate limits (sped up ``SPEEDUP`` times, on the fake
server and in the bot alike): a practice 2-v-2 whose three computer seats play every
0.8 s (scaled), and a person who confirms as soon as their turn comes.

The fake refuses any call over a limit with 429 and the ``world`` fixture fails a test
that met one. Times are simcord's clock, which the bot's pacing moves.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime

import pytest
from dc_config import SPEEDUP, TEST_CONFIG, BotFactory
from dc_world import World, actions, current_table, custom_id, open_lobby, press, table_message, text_of

from bots.discord import BasraBot
from bots.render import Action

pytestmark = pytest.mark.usefixtures("fast_settle")

LIVE_CONFIG = replace(TEST_CONFIG, computer_delay=0.8 / SPEEDUP)
#: What players must get, in the fake's sped-up time.
ACK_BOUND = 0.1 / SPEEDUP
TABLE_BOUND = 4.0 / SPEEDUP
EPOCH = datetime(2026, 1, 1, tzinfo=UTC)
TABLE_WRITE = re.compile(r"^/channels/\d+/messages(?:/(\d+))?$")


def virtual_time(world: World) -> float:
    """simcord's clock as the bot's event loop reads it (seconds since the env began)."""
    return (world.env.now() - EPOCH).total_seconds()


@pytest.fixture
def simcord_bot(make_bot: BotFactory) -> BasraBot:
    return make_bot(config=LIVE_CONFIG)


def shown_version(body: object) -> int | None:
    """The table version a written message shows: its "My hand" button's."""
    if not isinstance(body, dict):
        return None
    for row in body.get("components") or []:
        for button in row.get("components") or []:
            data = button.get("custom_id") or ""
            if data.startswith("b1|"):
                action = Action.decode(data)
                if action.verb == "hand":
                    return action.version
    return None


async def test_a_fast_practice_2v2_stays_live_within_the_channel_limit(world: World) -> None:
    await world.bot.service.set_rules(f"dc:{world.channel.id}", target=1)
    lobby = await open_lobby(world, world.alice, "practice", players=4)
    await press(world.alice, lobby, "start")
    table = await current_table(world)
    alice = world.alice
    hand = (await press(alice, table_message(world), "hand")).response
    assert hand is not None

    acks: list[float] = []
    lags: list[float] = []
    confirms = 0
    while (table := await world.bot.service.table(table.table_id)).running:
        assert table.to_move is not None and table.seats[table.to_move].player_id == f"dc:{alice.id}"
        card = next(a for a in actions(hand) if a.verb == "card")
        await alice.click(hand, custom_id=card.encode())
        start, mark = virtual_time(world), len(world.limits.log)
        result = await alice.click(hand, custom_id=custom_id(hand, "play"))
        confirms += 1
        assert result.acknowledged
        played = table.version + 1
        log = world.limits.log[mark:]
        answer = next(when for when, method, path, _, _ in log if path.endswith("/callback"))
        acks.append(answer - start)
        shown = [
            when
            for when, method, path, body, _ in log
            if TABLE_WRITE.match(path) and (shown_version(body) or 0) >= played
        ]
        if shown:
            lags.append(shown[0] - start)

    assert confirms == 12  # the computers played the other 36
    # Every confirm was answered before anything else the play caused, however busy the channel.
    assert max(acks) <= ACK_BOUND, acks
    assert lags and max(lags) <= TABLE_BOUND, lags
    # The channel worked at its limit (so the pacing was put to the test) and never over it.
    assert world.limits.most_in_window("channel") == 5
    assert world.limits.refused == []
    # Three computers at 0.8 s outrun 4 table refreshes in 5 s: newer states replaced older ones.
    assert world.bot.platform.dispatcher.counts["replaced"] > 0
    # No table message ever went back to an older state.
    versions: dict[str, list[int]] = {}
    for _, _method, path, body, answer in world.limits.log:
        match = TABLE_WRITE.match(path)
        version = shown_version(body)
        if match is None or version is None:
            continue
        message = match.group(1) or str(answer.get("id") if isinstance(answer, dict) else "")
        versions.setdefault(message, []).append(version)
    assert versions and all(seen == sorted(seen) for seen in versions.values()), versions
    # The last picture, with the round's and the match's results, is the channel's last word.
    assert "The match is over" in text_of(world.channel.history()[-1])
