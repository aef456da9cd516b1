"""End-to-end tests of the example bot against simcord's in-memory Discord.

Each test proves one capability the real Basra bot's Discord tests rely on;
NOTES.md in this directory explains the calls used here.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable

import discord
import pytest
import simcord

from .conftest import World, pinged_user_ids
from .example_bot import CUSTOM_ID_TEMPLATE, TableStore, create_bot


def button_ids(message: discord.Message) -> list[str]:
    return [
        child.custom_id
        for row in message.components
        if isinstance(row, discord.ActionRow)
        for child in row.children
        if isinstance(child, discord.Button) and child.custom_id is not None
    ]


def button_labels(message: discord.Message) -> list[str | None]:
    return [
        child.label
        for row in message.components
        if isinstance(row, discord.ActionRow)
        for child in row.children
        if isinstance(child, discord.Button)
    ]


async def open_table(world: World, mode: str = "2v2") -> simcord.InteractionResult:
    result = await world.alice.slash(world.channel, "basra new", mode=mode)
    assert result.response is not None
    return result


# (1) ---------------------------------------------------------------- slash subcommand


async def test_slash_subcommand_with_choice_option(world: World, store: TableStore) -> None:
    result = await world.alice.slash(world.channel, "basra new", mode="2v2")

    assert result.acknowledged and not result.deferred and not result.ephemeral
    (table,) = store.tables.values()
    assert (table.mode, table.players, table.channel_id) == (
        "2v2",
        [world.alice.id],
        world.channel.id,
    )
    assert world.alice.available_commands(world.channel) == (
        "basra new",
        "basra rules",
        "basra leaderboard",
    )
    # Option values are validated like the Discord client would: only declared choices.
    with pytest.raises(simcord.OptionError):
        await world.alice.slash(world.channel, "basra new", mode="3v3")
    with pytest.raises(simcord.SetupError):
        await world.alice.slash(world.channel, "basra nosuch")


# (2) ------------------------------------------------------ public message, embed, buttons


async def test_public_table_message_embed_and_buttons(world: World) -> None:
    result = await open_table(world)
    response = result.response
    assert response is not None and not response.ephemeral

    # The same message, read three ways: result.response, a discord.Message, channel history.
    message = response.message
    assert world.channel.last_message is not None and world.channel.last_message.id == message.id
    assert [m.id for m in world.channel.history()] == [message.id]
    assert message.author.bot and message.content == f"{world.alice.mention} opened a 2v2 table"
    assert message.interaction_metadata is not None
    assert message.interaction_metadata.user.id == world.alice.id

    (embed,) = message.embeds
    assert embed.title == "Basra table" and embed.description == "Mode: 2v2"
    assert [(f.name, f.value) for f in embed.fields] == [
        ("Players", world.alice.mention),
        ("Pile", "empty"),
    ]
    assert embed.footer.text is not None and embed.footer.text.startswith("match ")

    assert button_labels(message) == ["Join", "My hand"]
    ids = button_ids(message)
    assert all(re.fullmatch(CUSTOM_ID_TEMPLATE, cid) for cid in ids)
    assert [re.fullmatch(CUSTOM_ID_TEMPLATE, cid)["action"] for cid in ids] == ["join", "hand"]  # type: ignore[index]
    # ResponseMessage exposes the raw component payload too.
    assert response.components[0]["components"][0]["custom_id"] == ids[0]


# (3) ------------------------------------- click, ephemeral reply, visibility to others


async def test_click_gives_ephemeral_hand_visible_only_to_presser(world: World) -> None:
    table = await open_table(world)
    assert table.response is not None

    hand = await world.alice.click(table.response, label="My hand")

    assert hand.acknowledged and hand.ephemeral
    assert hand.response is not None and hand.response.ephemeral
    assert hand.response.content == "Your hand (v0)"
    assert button_labels(hand.response.message) == ["7♦", "J♣", "3♥", "K♠"]

    # Public history (no viewer) and other users never see the ephemeral message ...
    public_ids = [m.id for m in world.channel.history()]
    assert hand.response.id not in public_ids
    assert world.channel.last_message is not None and world.channel.last_message.id == table.response.id
    assert hand.response.id not in [m.id for m in world.channel.history(viewer=world.bob)]
    # ... only its recipient does.
    assert hand.response.id in [m.id for m in world.channel.history(viewer=world.alice)]
    # Another user cannot click it: simcord refuses what the Discord client would not allow.
    with pytest.raises(simcord.SetupError, match="not visible"):
        await world.bob.click(hand.response, label="7♦")

    # A non-player pressing the public button is refused ephemerally, seen only by him.
    refusal = await world.bob.click(table.response, label="My hand")
    assert refusal.ephemeral and refusal.response is not None
    assert refusal.response.content == "You are not seated at this table."
    assert refusal.response.id in [m.id for m in world.channel.history(viewer=world.bob)]
    assert refusal.response.id not in [m.id for m in world.channel.history(viewer=world.alice)]
    simcord.assert_sent(world.channel, content="You are not seated at this table.", viewer=world.bob)


# (4) ----------------------------------------------- click on the ephemeral, see the edit


async def test_click_on_ephemeral_hand_edits_it_and_the_table(world: World) -> None:
    table = await open_table(world)
    assert table.response is not None
    hand = await world.alice.click(table.response, label="My hand")
    assert hand.response is not None

    played = await world.alice.click(hand.response, label="7♦")

    # UPDATE_MESSAGE: the result's response *is* the clicked ephemeral message, edited.
    assert played.response is not None and played.response.id == hand.response.id
    assert played.response.ephemeral
    assert not played.ephemeral  # InteractionResult.ephemeral is only set by send_message
    assert played.response.content == "You played 7♦. Your hand (v1)"
    assert button_labels(played.response.message) == ["J♣", "3♥", "K♠"]
    # The handle from before the click reads the live state too.
    assert hand.response.content == played.response.content

    # The public table was edited in place (same id, still the only public message).
    (public,) = world.channel.history()
    assert public.id == table.response.id and public.edited_at is not None
    assert public.embeds[0].fields[1].value == "7♦"
    assert all(":1:" in cid for cid in button_ids(public))


async def test_other_hands_are_refreshed_through_their_token_until_it_expires(
    world: World, store: TableStore
) -> None:
    env, alice, bob = world.env, world.alice, world.bob
    table = await open_table(world)
    assert table.response is not None
    alice_hand = await alice.click(table.response, label="My hand")  # token T_a, minute 0
    assert alice_hand.response is not None

    # Bob's press edits Alice's ephemeral hand through T_a (edit_original_response).
    await bob.click(table.response, label="Join")
    assert alice_hand.response.content == "Your hand (v1)"
    assert all(":1:play" in cid for cid in button_ids(alice_hand.response.message))

    # The bot cannot reach an ephemeral message through the channel API at all.
    hand_id = alice_hand.response.id
    with pytest.raises(discord.NotFound):
        await (
            env.bot.get_partial_messageable(world.channel.id)
            .get_partial_message(hand_id)
            .edit(content="nope")
        )

    await env.advance_time(16 * 60)  # virtual clock: T_a (15 min lifetime) is now dead
    bob_hand = await bob.click(table.response, label="My hand")  # fresh token T_b
    assert bob_hand.response is not None
    await alice.click(alice_hand.response, label="7♦")  # v1 -> v2; refreshes Bob via T_b
    assert bob_hand.response.content == "Your hand (v2)"
    await bob.click(bob_hand.response, label="J♣")  # v2 -> v3; refreshing Alice fails
    assert store.dropped_hand_refreshes == 1

    # Alice's hand still carries v2 buttons, so the version check refuses them.
    assert alice_hand.response.content == "You played 7♦. Your hand (v2)"
    stale = await alice.click(alice_hand.response, label="J♣")
    assert stale.response is not None
    assert stale.response.content == "This hand is out of date; press My hand again."
    assert stale.response.components == []


@pytest.mark.usefixtures("fast_settle")
async def test_practice_table_plays_out_a_whole_hand(world: World) -> None:
    table = await open_table(world, mode="practice")
    assert table.response is not None
    hand = await world.alice.click(table.response, label="My hand")
    assert hand.response is not None

    for card in ["7♦", "J♣", "3♥", "K♠"]:
        await world.alice.click(hand.response, label=card)

    assert hand.response.content == "You played K♠. Your hand (v4)"
    assert hand.response.components == []
    assert world.channel.history()[0].embeds[0].fields[1].value == "7♦ J♣ 3♥ K♠"


# (5) ---------------------------------------------------------------------- restart


async def test_new_bot_instance_answers_buttons_of_the_previous_one(world: World, store: TableStore) -> None:
    env = world.env
    first = env.bot
    table = await open_table(world)
    assert table.response is not None
    hand = await world.alice.click(table.response, label="My hand")
    assert hand.response is not None

    await first.close()  # the old process goes away; its buttons stay in the channel
    unanswered = await world.bob.click(table.response, label="Join")
    assert not unanswered.acknowledged  # nobody answered ("This interaction failed")

    second = create_bot(store, instance_name="second")
    await env.restart_bot(second)  # same simulated Discord, new client, setup_hook runs
    assert env.bot is second and second.is_ready() and first.is_closed()

    played = await world.alice.click(hand.response, label="7♦")  # ephemeral from 1st bot
    joined = await world.bob.click(table.response, label="Join")  # public from 1st bot

    assert played.response is not None and played.response.content.startswith("You played 7♦")
    assert joined.acknowledged and world.bob.id in store.tables[table_match(store)].players
    assert store.handled_by == [("first", "hand"), ("second", "play0"), ("second", "join")]


async def test_without_add_dynamic_items_a_new_instance_ignores_old_buttons(
    world: World, store: TableStore
) -> None:
    table = await open_table(world)
    assert table.response is not None

    await world.env.restart_bot(create_bot(store, instance_name="second", register_dynamic_items=False))
    result = await world.bob.click(table.response, label="Join")

    assert not result.acknowledged and result.response is None
    assert store.handled_by == []


def table_match(store: TableStore) -> str:
    (match,) = store.tables
    return match


# (6) --------------------------------------------------------------------- mentions


async def test_mentions_in_public_messages(world: World, store: TableStore) -> None:
    table = await open_table(world)
    assert table.response is not None
    await world.bob.click(table.response, label="Join")

    message = world.channel.history()[0]
    assert world.alice.mention == f"<@{world.alice.id}>"
    assert message.raw_mentions == [world.alice.id]
    assert [u.id for u in message.mentions] == [world.alice.id]  # from content only
    assert world.bob.mention in str(message.embeds[0].fields[0].value)  # embeds never ping
    assert pinged_user_ids(world.env, message) == [world.alice.id]

    # AllowedMentions.none(): the mention is rendered and parsed, but nobody is pinged.
    with sqlite3.connect(store.db_path) as db:  # type: ignore[arg-type]
        db.execute("CREATE TABLE wins (user_id INTEGER, wins INTEGER)")
        db.execute("INSERT INTO wins VALUES (?, 3)", (world.bob.id,))
    board = await world.alice.slash(world.channel, "basra leaderboard")
    assert board.response is not None
    assert board.response.content == f"1. {world.bob.mention} 3"  # read through aiosqlite
    assert [u.id for u in board.response.message.mentions] == [world.bob.id]
    assert pinged_user_ids(world.env, board.response) == []


# (7) -------------------------------------------------------------- localizations


async def test_translator_localizations_are_synced() -> None:
    catalogue = {
        "basra": "bassra",
        "new": "nouvelle",
        "Game mode": "Mode de jeu",
        "practice": "entrainement",
    }
    bot = create_bot(TableStore(), catalogues={"fr": catalogue})
    async with simcord.run(bot) as env:  # the fixture-free way to get an Env
        (command,) = await bot.tree.fetch_commands()
        new = command.options[0]
        assert isinstance(new, discord.app_commands.AppCommandGroup)
        mode = new.options[0]
        assert isinstance(mode, discord.app_commands.Argument)

        assert command.name_localizations == {discord.Locale.french: "bassra"}
        assert new.name_localizations == {discord.Locale.french: "nouvelle"}
        assert mode.description_localizations == {discord.Locale.french: "Mode de jeu"}
        assert mode.choices[2].name_localizations == {discord.Locale.french: "entrainement"}
        # Users still invoke by the base name: the client always sends it.
        guild = env.create_guild()
        channel = guild.create_text_channel("c")
        alice = guild.add_member(env.create_user("alice"))
        assert (await alice.slash(channel, "basra new", mode="1v1")).acknowledged


async def test_arabic_is_not_a_discord_locale(world: World) -> None:
    translator = world.env.bot.translator  # type: ignore[attr-defined]
    # sync() asked the translator about every discord.Locale; Arabic is not one of them,
    # so the Arabic catalogue can never produce a command localization.
    assert translator.locales_seen == {locale.value for locale in discord.Locale}
    assert "ar" not in translator.locales_seen
    (command,) = await world.env.bot.tree.fetch_commands()  # type: ignore[attr-defined]
    assert command.name_localizations == {}


async def test_interaction_locale_defaults_to_en_us_and_can_be_patched(
    world: World, set_interaction_locale: Callable[..., None]
) -> None:
    result = await world.alice.slash(world.channel, "basra rules")
    assert result.response is not None and result.response.content.endswith("(locale=en-US)")

    set_interaction_locale("fr")
    result = await world.alice.slash(world.channel, "basra rules")
    assert result.response is not None and result.response.content.endswith("(locale=fr)")


# (8) ------------------------------------------------- HTTP errors and "rate limits"


async def test_injected_rate_limit_reaches_the_bot_as_http_exception(world: World) -> None:
    env = world.env
    env.inject_error("POST", "/interactions/*/*/callback", status=429, message="You are being rate limited.")

    result = await world.alice.slash(world.channel, "basra new", mode="2v2")

    # No retry, no discord.RateLimited: the first 429 surfaces as HTTPException.
    assert not result.acknowledged
    error = simcord.assert_error(env, discord.HTTPException, contains="rate limited")
    # assert_error matches through discord.py's wrapper and returns the wrapper itself.
    assert isinstance(error, discord.app_commands.CommandInvokeError)
    assert isinstance(error.original, discord.HTTPException) and error.original.status == 429
    callbacks = [r for r in env.http_requests if r.method == "POST" and r.path.endswith("/callback")]
    assert len(callbacks) == 1
    # times=1 (default): the next call succeeds.
    again = await world.bob.slash(world.channel, "basra rules")
    assert again.acknowledged


async def test_failed_table_edit_is_survivable(world: World, store: TableStore) -> None:
    env = world.env
    table = await open_table(world)
    assert table.response is not None
    hand = await world.alice.click(table.response, label="My hand")
    assert hand.response is not None

    env.inject_error("PATCH", "/channels/*/messages/*", status=500, times=None)
    played = await world.alice.click(hand.response, label="7♦")

    assert played.response is not None and played.response.content.startswith("You played 7♦")
    assert store.failed_table_edits == 1
    assert world.channel.history()[0].embeds[0].fields[1].value == "empty"  # table unchanged
    assert env.errors == []


async def test_exception_in_a_dynamic_item_callback_is_captured(world: World, store: TableStore) -> None:
    table = await open_table(world)
    assert table.response is not None
    store.fail_next_press = True

    result = await world.bob.click(table.response, label="Join")

    assert not result.acknowledged
    simcord.assert_error(world.env, RuntimeError, contains="simulated failure")


# (9) -------------------------------------------- several users, channels and guilds


async def test_several_users_channels_and_guilds(simcord_env: simcord.Env, store: TableStore) -> None:
    env = simcord_env
    cairo, alex = env.create_guild("Cairo"), env.create_guild("Alexandria")
    lobby, backroom = cairo.create_text_channel("lobby"), cairo.create_text_channel("backroom")
    seaside = alex.create_text_channel("seaside")
    alice_user = env.create_user("alice")
    alice_cairo, alice_alex = cairo.add_member(alice_user), alex.add_member(alice_user)
    bob = cairo.add_member(env.create_user("bob"))
    carol = alex.add_member(env.create_user("carol"))

    first = await alice_cairo.slash(lobby, "basra new", mode="1v1")
    second = await bob.slash(backroom, "basra new", mode="2v2")
    third = await alice_alex.slash(seaside, "basra new", mode="practice")
    assert first.response and second.response and third.response

    assert set(store.by_channel) == {lobby.id, backroom.id, seaside.id}
    assert [len(c.history()) for c in (lobby, backroom, seaside)] == [1, 1, 1]
    # One table per channel.
    again = await bob.slash(lobby, "basra new", mode="2v2")
    assert again.ephemeral and again.response is not None
    assert again.response.content == "A table is already open here."

    joined = await bob.click(first.response, label="Join")
    assert joined.response is not None and bob.mention in str(joined.response.embeds[0].fields[0].value)
    full = await carol.click(third.response, label="Join")  # practice has one seat
    assert full.response is not None and full.response.content == "This table is full."
    # Members only reach messages of their own guild.
    with pytest.raises(simcord.SetupError):
        await carol.click(first.response, label="Join")
    assert env.bot.get_guild(alex.id) is not None and len(env.bot.guilds) == 2
