"""A deliberately tiny Discord bot with the same mechanisms the real Basra bot uses.

It exists so the simcord harness tests (``test_example_bot.py``) can prove every
capability the real bot's end-to-end tests need:

* a slash command group ``/basra`` with subcommands, one taking a choice option;
* command/option/choice localizations supplied by an ``app_commands.Translator``;
* a public "table" message (content + embed + buttons) posted per channel and
  edited in place;
* per-player ephemeral "hand" messages whose buttons edit that hand, and which
  other players' moves refresh through the stored interaction token;
* persistent buttons: one ``discord.ui.DynamicItem`` with a template custom_id
  ``basra:<match>:<ver>:<action>``, registered with ``add_dynamic_items`` in
  ``setup_hook`` and used in ``View(timeout=None)`` views, so a fresh process
  can answer buttons created by a previous one;
* every button press answers its own interaction (``edit_message`` or an
  ephemeral ``send_message`` refusal);
* a subcommand reading an aiosqlite database (settlement across a DB thread).

State lives in :class:`TableStore`, which the tests share between two bot
instances to stand in for the database a restarted process would reload.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite
import discord
from discord import app_commands
from discord.app_commands import Choice, locale_str

CUSTOM_ID_TEMPLATE = r"basra:(?P<match>[0-9a-f]+):(?P<ver>\d+):(?P<action>\w+)"
STARTING_HAND = ("7♦", "J♣", "3♥", "K♠")
SEATS = {"1v1": 2, "2v2": 4, "practice": 1}

# Arabic strings keyed by the English source text of each locale_str.
# NOTE: Discord has no Arabic locale (discord.Locale has no "ar"), so
# Translator.translate() is never called with Arabic; see NOTES.md.
ARABIC: dict[str, str] = {
    "basra": "بصرة",
    "Play Basra, the Egyptian card game": "العب بصرة، لعبة الورق المصرية",
    "new": "جديدة",
    "Open a Basra table in this channel": "افتح طاولة بصرة في هذه القناة",
    "mode": "النمط",
    "Game mode": "نمط اللعب",
    "practice": "تدريب",
}


# --------------------------------------------------------------------------- state


@dataclass
class Table:
    match: str
    channel_id: int
    mode: str
    players: list[int]
    message_id: int | None = None
    ver: int = 0
    pile: list[str] = field(default_factory=list)
    hands: dict[int, list[str]] = field(default_factory=dict)

    @property
    def seats(self) -> int:
        return SEATS[self.mode]


@dataclass
class TableStore:
    """In-memory stand-in for the bot's database; survives a bot restart in tests."""

    db_path: Path | None = None
    tables: dict[str, Table] = field(default_factory=dict)
    by_channel: dict[int, str] = field(default_factory=dict)
    handled_by: list[tuple[str, str]] = field(default_factory=list)  # (bot instance, action)
    failed_table_edits: int = 0
    dropped_hand_refreshes: int = 0
    fail_next_press: bool = False
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(0xA0))

    def open_table(self, channel_id: int, mode: str, owner_id: int) -> Table:
        table = Table(match=f"{next(self._ids):x}", channel_id=channel_id, mode=mode, players=[owner_id])
        table.hands[owner_id] = list(STARTING_HAND)
        self.tables[table.match] = table
        self.by_channel[channel_id] = table.match
        return table


# ------------------------------------------------------------------------ rendering


def table_embed(table: Table) -> discord.Embed:
    embed = discord.Embed(title="Basra table", description=f"Mode: {table.mode}")
    embed.add_field(name="Players", value=" ".join(f"<@{p}>" for p in table.players), inline=False)
    embed.add_field(name="Pile", value=" ".join(table.pile) or "empty", inline=False)
    embed.set_footer(text=f"match {table.match} · v{table.ver}")
    return embed


def table_view(table: Table) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        BasraButton(table.match, table.ver, "join", label="Join", style=discord.ButtonStyle.success)
    )
    view.add_item(BasraButton(table.match, table.ver, "hand", label="My hand"))
    return view


def hand_view(table: Table, user_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for index, card in enumerate(table.hands.get(user_id, [])):
        view.add_item(BasraButton(table.match, table.ver, f"play{index}", label=card))
    return view


# -------------------------------------------------------------------------- buttons


class BasraButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CUSTOM_ID_TEMPLATE):
    """Every button of the bot; the custom_id carries match id, state version and action."""

    def __init__(
        self,
        match: str,
        ver: int,
        action: str,
        *,
        label: str | None = None,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"basra:{match}:{ver}:{action}")
        )
        self.match = match
        self.ver = ver
        self.action = action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> BasraButton:
        button = item if isinstance(item, discord.ui.Button) else None
        return cls(
            match["match"],
            int(match["ver"]),
            match["action"],
            label=button.label if button else None,
            style=button.style if button else discord.ButtonStyle.secondary,
        )

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # discord.py only *logs* exceptions raised by a DynamicItem callback; route them
        # to Client.on_error so they are reported (and simcord records them).
        try:
            await self._handle(interaction)
        except Exception:
            await interaction.client.on_error("basra_button", interaction)

    async def _handle(self, interaction: discord.Interaction[Any]) -> None:
        client: ExampleBot = interaction.client
        store = client.store
        store.handled_by.append((client.instance_name, self.action))
        if store.fail_next_press:
            store.fail_next_press = False
            raise RuntimeError("simulated failure in a button callback")
        table = store.tables.get(self.match)
        if table is None:
            await interaction.response.send_message("This table no longer exists.", ephemeral=True)
            return
        user_id = interaction.user.id

        if self.action == "join":
            if user_id in table.players:
                await interaction.response.send_message("You are already seated.", ephemeral=True)
                return
            if len(table.players) >= table.seats:
                await interaction.response.send_message("This table is full.", ephemeral=True)
                return
            table.players.append(user_id)
            table.hands[user_id] = list(STARTING_HAND)
            table.ver += 1
            # Edit the public table message in place, answering this interaction.
            await interaction.response.edit_message(embed=table_embed(table), view=table_view(table))
            await client.refresh_hands(table, except_user=user_id)
            return

        if user_id not in table.players:
            await interaction.response.send_message("You are not seated at this table.", ephemeral=True)
            return

        if self.action == "hand":
            await interaction.response.send_message(
                f"Your hand (v{table.ver})", view=hand_view(table, user_id), ephemeral=True
            )
            # Keep the interaction: its token is the only way to edit this ephemeral later.
            client.open_hands[(table.match, user_id)] = interaction
            return

        if self.action.startswith("play"):
            if self.ver != table.ver:
                await interaction.response.edit_message(
                    content="This hand is out of date; press My hand again.", view=None
                )
                return
            card = table.hands[user_id].pop(int(self.action.removeprefix("play")))
            table.pile.append(card)
            table.ver += 1
            # 1) answer the press by editing the ephemeral hand itself
            await interaction.response.edit_message(
                content=f"You played {card}. Your hand (v{table.ver})",
                view=hand_view(table, user_id),
            )
            # 2) then edit the public table message in place (a different message)
            await client.refresh_table(table)
            await client.refresh_hands(table, except_user=user_id)
            return

        await interaction.response.send_message("Unknown action.", ephemeral=True)


# ------------------------------------------------------------------- slash commands


class ExampleTranslator(app_commands.Translator):
    """Looks the English source text up in per-locale catalogues keyed by Locale value."""

    def __init__(self, catalogues: Mapping[str, Mapping[str, str]]) -> None:
        self.catalogues = catalogues
        self.locales_seen: set[str] = set()

    async def translate(
        self,
        string: locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        self.locales_seen.add(locale.value)
        return self.catalogues.get(locale.value, {}).get(string.message)


class BasraGroup(
    app_commands.Group,
    name=locale_str("basra"),
    description=locale_str("Play Basra, the Egyptian card game"),
):
    def __init__(self, client: ExampleBot) -> None:
        super().__init__()
        self.client = client

    @app_commands.command(
        name=locale_str("new"), description=locale_str("Open a Basra table in this channel")
    )
    @app_commands.rename(mode=locale_str("mode"))
    @app_commands.describe(mode=locale_str("Game mode"))
    @app_commands.choices(
        mode=[
            Choice(name=locale_str("1v1"), value="1v1"),
            Choice(name=locale_str("2v2"), value="2v2"),
            Choice(name=locale_str("practice"), value="practice"),
        ]
    )
    async def new(self, interaction: discord.Interaction[Any], mode: Choice[str]) -> None:
        store = self.client.store
        assert interaction.channel_id is not None  # guild-only in practice
        if interaction.channel_id in store.by_channel:
            await interaction.response.send_message("A table is already open here.", ephemeral=True)
            return
        table = store.open_table(interaction.channel_id, mode.value, interaction.user.id)
        await interaction.response.send_message(
            f"{interaction.user.mention} opened a {mode.value} table",
            embed=table_embed(table),
            view=table_view(table),
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        table.message_id = (await interaction.original_response()).id

    @app_commands.command(name="rules", description="How to play Basra")
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await interaction.response.send_message(
            f"Capture cards by matching or summing. (locale={interaction.locale.value})",
            ephemeral=True,
        )

    @app_commands.command(name="leaderboard", description="Top players")
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        assert self.client.store.db_path is not None
        async with aiosqlite.connect(self.client.store.db_path) as db:
            await db.execute("CREATE TABLE IF NOT EXISTS wins (user_id INTEGER, wins INTEGER)")
            async with db.execute("SELECT user_id, wins FROM wins ORDER BY wins DESC") as cursor:
                rows = await cursor.fetchall()
        lines = [f"{n}. <@{user_id}> {wins}" for n, (user_id, wins) in enumerate(rows, start=1)]
        await interaction.response.send_message(
            "\n".join(lines) or "No games yet.", allowed_mentions=discord.AllowedMentions.none()
        )


# ------------------------------------------------------------------------------ bot


class ExampleBot(discord.Client):
    def __init__(
        self,
        store: TableStore,
        *,
        instance_name: str = "first",
        register_dynamic_items: bool = True,
        catalogues: Mapping[str, Mapping[str, str]] | None = None,
    ) -> None:
        super().__init__(intents=discord.Intents.default())
        # simcord looks for the command tree under the attribute name ``tree``.
        self.tree = app_commands.CommandTree(self)
        self.tree.add_command(BasraGroup(self))
        self.store = store
        self.instance_name = instance_name
        self.register_dynamic_items = register_dynamic_items
        # Per process, like the interaction tokens in it: lost on restart.
        self.open_hands: dict[tuple[str, int], discord.Interaction[Any]] = {}
        self.translator = ExampleTranslator({"ar": ARABIC} if catalogues is None else catalogues)

    async def setup_hook(self) -> None:
        if self.register_dynamic_items:
            self.add_dynamic_items(BasraButton)
        await self.tree.set_translator(self.translator)
        await self.tree.sync()

    async def refresh_table(self, table: Table) -> None:
        """Edit the public table message in place; a failed edit is not fatal."""
        if table.message_id is None:
            return
        message = self.get_partial_messageable(table.channel_id).get_partial_message(table.message_id)
        try:
            await message.edit(embed=table_embed(table), view=table_view(table))
        except discord.HTTPException:
            self.store.failed_table_edits += 1  # the next successful refresh catches up

    async def refresh_hands(self, table: Table, *, except_user: int) -> None:
        """Re-render other players' open ephemeral hands through their interaction tokens.

        Tokens die 15 minutes after the interaction that created the hand; such hands
        keep their old version and their buttons are refused as out of date.
        """
        for (match, user_id), interaction in list(self.open_hands.items()):
            if match != table.match or user_id == except_user:
                continue
            try:
                await interaction.edit_original_response(
                    content=f"Your hand (v{table.ver})", view=hand_view(table, user_id)
                )
            except discord.HTTPException:
                del self.open_hands[(match, user_id)]
                self.store.dropped_hand_refreshes += 1


def create_bot(store: TableStore | None = None, **kwargs: Any) -> ExampleBot:
    return ExampleBot(store if store is not None else TableStore(), **kwargs)
