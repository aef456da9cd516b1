"""A finished match's record on Discord: the result's Record button and ``/basra record``
answer with the file, seen only by whoever asked; nothing before a match has ended."""

from __future__ import annotations

import json
import re

import discord
import pytest
from dc_world import Players, World, actions, current_table, open_lobby, press, public, text_of

from core import Match

pytestmark = pytest.mark.usefixtures("fast_settle")

FILE_NAME = re.compile(r"^basra-\d{4}-\d\d-\d\d-[0-9a-f]{6}\.json$")


def record_of(world: World, attachment: discord.Attachment) -> dict[str, object]:
    data = world.env.backend.cdn.get(attachment.url)
    assert data is not None, "the attachment was not uploaded"
    record: dict[str, object] = json.loads(data)
    return record


async def test_the_record_button_answers_the_presser_with_the_file(world: World) -> None:
    alice, bob = world.alice, world.bob
    await world.bot.service.set_rules(f"dc:{world.channel.id}", target=1)  # one round is enough
    lobby = await open_lobby(world, alice, "1v1")
    await press(bob, lobby, "join")
    await press(alice, lobby, "start")
    table = await current_table(world)
    assert all(a.verb != "record" for m in public(world) for a in actions(m))  # nothing during play
    final = await Players(world, table.table_id).play_to_end()
    result = public(world)[-1]
    assert "The match is over" in text_of(result)
    before = len(public(world))

    answer = await press(bob, result, "record")
    assert answer.ephemeral and answer.response is not None
    (attachment,) = answer.response.attachments
    assert FILE_NAME.match(attachment.filename)
    assert attachment.filename.endswith(f"-{table.table_id[:6]}.json")
    assert answer.response.content.startswith("The record of the match of ")
    record = record_of(world, attachment)
    assert record["format"] == "basra-record/1"
    assert Match.from_record(record).scores == final.scores
    # Only bob saw it; the channel got no message, and the button stays for the others.
    assert len(public(world)) == before
    assert [a.verb for a in actions(public(world)[-1])] == ["rematch", "record"]

    command = await alice.slash(world.channel, "basra record")
    assert command.ephemeral and command.response is not None
    (again,) = command.response.attachments
    assert again.filename == attachment.filename and record_of(world, again) == record


async def test_basra_record_with_no_finished_match_says_how_to_start_one(world: World) -> None:
    answer = await world.alice.slash(world.channel, "basra record")
    assert answer.ephemeral and answer.response is not None and answer.response.attachments == []
    assert answer.response.content == (
        "No match has finished in this chat yet, so there is no record to send. Start one with /basra new."
    )
    lobby = await open_lobby(world, world.alice, "1v1")
    await press(world.bob, lobby, "join")
    await press(world.alice, lobby, "start")
    # A match being played is no finished match: its record is not sent.
    during = await world.bob.slash(world.channel, "basra record")
    assert during.response is not None and during.response.content.startswith("No match has finished")
    assert during.response.attachments == []
