"""The ``/basra`` slash commands: new, rules, score, leaderboard, settings, resign, help, hand,
record, privacy, forget, play.

Each command is one service call and one answer. Answers only the invoker
needs are ephemeral; the lobby is public (it is the answer to ``/basra new``
when it can be, so the channel sees who opened it).

They work in a server's channels and in the DM with the bot, where a search for an
opponent (``/basra play``, one against one or, with ``mode``, two against two: ``pairing``)
and the match it finds are played: there ``/basra resign`` and ``/basra hand`` act on that
match, which has no channel of its own; with ``invite``, a friend's invitation code, it
joins that friend's search for two against two as their partner. ``/basra leaderboard``
ranks a channel's players, everyone's, or (``scope: online``) those of matches between
people the pool paired.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord import app_commands
from discord.app_commands import Choice

from ..i18n import SUPPORTED
from ..render import (
    Action,
    render_help,
    render_leaderboard,
    render_rules,
    render_settings,
    render_stats,
)
from ..render.actions import is_number
from ..render.answers import render_score
from ..render.common import VARIANT_FIELDS, VARIANT_NAMES
from ..service import (
    BadInput,
    BadSetting,
    HandView,
    NoOpenTable,
    NotSaved,
    Person,
    ServiceError,
    SettingsView,
    TableView,
)
from ..service.views import TableMode
from . import privacy as erasing
from . import texts
from .messages import embed_of, hand_parts, message_parts, with_link
from .presses import Handler, chat_of, may_change_settings, person_of, send_record
from .replies import ANSWER_WAIT, Reply
from .texts import NEW_COMMAND, PLAY_COMMAND, RESIGN_COMMAND, bilingual

if TYPE_CHECKING:
    pass

log = logging.getLogger(__name__)

#: The help's commands (``bots.render.info.COMMANDS``) as they are typed on Discord.
HELP_COMMANDS = {
    "new": NEW_COMMAND,
    "practice": "/basra new mode: practice",
    "play": PLAY_COMMAND,
    "hand": "/basra hand",
    "resign": RESIGN_COMMAND,
    "score": "/basra score",
    "top": "/basra leaderboard",
    "record": "/basra record",
    "settings": "/basra settings",
    "rules": "/basra rules",
    "help": "/basra help",
    "privacy": "/basra privacy",
    "forget": "/basra forget",
}

MODES = [
    Choice(name=bilingual(texts.MODE_1V1), value="1v1"),
    Choice(name=bilingual(texts.MODE_2V2), value="2v2"),
    Choice(name=bilingual(texts.MODE_PRACTICE), value="practice"),
]
LANGUAGES = [
    Choice(name=bilingual(texts.LANGUAGE_AR), value="ar"),
    Choice(name=bilingual(texts.LANGUAGE_EN), value="en"),
    Choice(name=bilingual(texts.LANGUAGE_AUTO), value="auto"),
]
VARIANTS = [
    Choice(name=bilingual(msgid, context=context, fields=VARIANT_FIELDS), value=name)
    for name, (context, msgid) in VARIANT_NAMES.items()
]
SCOPES = [
    Choice(name=bilingual(texts.SCOPE_CHANNEL), value="channel"),
    Choice(name=bilingual(texts.SCOPE_GLOBAL), value="global"),
    Choice(name=bilingual(texts.SCOPE_ONLINE), value="online"),
]
#: What ``/basra play`` looks for: one against one (the default), or two against two.
PLAY_MODES = [
    Choice(name=bilingual(texts.MODE_1V1), value="1v1"),
    Choice(name=bilingual(texts.MODE_2V2), value="2v2"),
]
class Commands(Handler):
    """What each command does, apart from how Discord declares it."""

    async def run(
        self,
        interaction: discord.Interaction[Any],
        name: str,
        mode: Literal["ephemeral", "public"],
        work: Any,
        *,
        command: str = NEW_COMMAND,
    ) -> None:
        """Answer a command, turning refusals into a short private reply (``command``: the
        one a refusal points to)."""
        reply = Reply(interaction, mode)
        try:
            await work(reply)
        except ServiceError as error:
            if isinstance(error, NotSaved):  # the service logged why
                self.bot.metrics.error("storage")
            t = await self.t_for(interaction)
            await reply.tell(error.message(t, command=command))
        except discord.HTTPException as error:
            log.warning("answering /basra %s failed (HTTP %s)", name, error.status)
            self.bot.metrics.error("answer")
        except Exception:
            await self.bot.presses.failed(interaction, name)

    # -- each command ------------------------------------------------------------

    async def new(self, reply: Reply, mode: TableMode, players: int | None) -> None:
        interaction = reply.interaction
        t = await self.t_for(interaction)
        if interaction.guild_id is None:  # the DM with the bot: nobody else can join there
            if mode != "practice":
                await reply.tell(t.gettext(texts.NEW_IN_DM, command=PLAY_COMMAND))
                return
        else:
            permissions = interaction.app_permissions
            if not (permissions.send_messages and permissions.embed_links):
                await reply.tell(t.gettext(texts.MISSING_PERMISSIONS))
                return
        chat = chat_of(interaction)
        seats = players if mode == "practice" else None
        claims = self.bot.platform.chat_claims
        claims[chat] = reply  # the lobby notice answers the command with the lobby itself
        try:
            await reply.within(self.service.new_lobby(chat, person_of(interaction), mode, players=seats))
        finally:
            if claims.get(chat) is reply:
                del claims[chat]
        if reply.promised:
            await reply.within(reply.answered(ANSWER_WAIT))
        if not reply.done:  # the lobby went out as a channel message (or will, when Discord allows)
            await reply.tell(t.gettext(texts.OPENED))

    async def rules(self, reply: Reply) -> None:
        t = await self.t_for(reply.interaction)
        settings: SettingsView = await reply.within(self.service.settings(chat_of(reply.interaction)))
        await reply.show(**message_parts(render_rules(t, settings.rules), "info"))

    async def score(self, reply: Reply, member: discord.abc.User | None) -> None:
        interaction = reply.interaction
        t = await self.t_for(interaction)
        chat = chat_of(interaction)
        who = member or interaction.user
        stats = await reply.within(self.service.stats(f"dc:{who.id}", chat, name=who.display_name))
        embeds = []
        table = await self.service.open_table(chat)
        if isinstance(table, TableView):
            # The running match's score in a few lines; the table itself is the live message.
            embeds.append(embed_of(render_score(table, t), "table"))
        embeds.append(embed_of(render_stats(stats, t), "info"))
        await reply.show(embeds=embeds)

    async def leaderboard(self, reply: Reply, scope: str) -> None:
        """The best players of this channel, of everywhere, or (``scope`` "online") the online
        ladder: matches between people the pool paired only."""
        t = await self.t_for(reply.interaction)
        chat = chat_of(reply.interaction) if scope == "channel" else None
        board = await reply.within(self.service.leaderboard(chat, online=scope == "online"))
        await reply.show(**message_parts(render_leaderboard(board, t), "info"))

    async def settings(
        self,
        reply: Reply,
        variant: str | None,
        on: bool | None,
        clock: int | None,
        language: str | None,
        my_language: str | None,
    ) -> None:
        interaction = reply.interaction
        chat = chat_of(interaction)
        if my_language is not None:
            await self.service.set_player_language(person_of(interaction), _language(my_language))
        t = await self.t_for(interaction)
        if (variant, clock, language) != (None, None, None):
            if not may_change_settings(interaction):
                await reply.tell(t.gettext(texts.NEEDS_MANAGE_CHANNELS))
                return
            if variant is not None:
                await self.set_variant(chat, variant, on)
            if clock is not None:
                await self.service.set_turn_seconds(chat, clock)
            if language is not None:
                await self.service.set_chat_language(chat, _language(language))
            t = await self.t_for(interaction)
        settings = await reply.within(self.service.settings(chat))
        await reply.show(**message_parts(render_settings(settings, t), "info"))

    async def set_variant(self, chat: str, variant: str, on: bool | None) -> SettingsView:
        if on is None:  # no on/off given: switch it
            current = dict((await self.service.settings(chat)).variants)
            if variant not in current:
                raise BadSetting(f"unknown variant {variant!r}")
            on = not current[variant]
        return await self.service.set_variant(chat, variant, on)

    async def apply_setting(
        self, chat: str, interaction: discord.Interaction[Any], action: Action
    ) -> SettingsView:
        """A settings button: a variant on or off, a turn clock, a language."""
        if action.verb == "variant" and action.arg:
            on = None if action.plan is None else bool(action.plan)
            return await self.set_variant(chat, action.arg, on)
        if action.verb == "clock" and action.arg and is_number(action.arg):
            return await self.service.set_turn_seconds(chat, int(action.arg))
        if action.verb == "lang":
            return await self.service.set_chat_language(chat, _language(action.arg))
        raise BadInput(f"bad settings button {action.verb!r}")

    async def resign(self, reply: Reply) -> None:
        """Resign the channel's match, or, where there is none, the stranger match the
        invoker plays in their DM."""
        interaction = reply.interaction
        t = await self.t_for(interaction)
        pid = f"dc:{interaction.user.id}"
        try:
            await reply.within(self.service.resign_in_chat(chat_of(interaction), pid))
        except NoOpenTable:
            stranger = await self.stranger_match(person_of(interaction))
            if stranger is None:
                raise
            await reply.within(self.service.resign(stranger.table_id, pid))
        await reply.tell(t.gettext(texts.RESIGNED))

    async def stranger_match(self, person: Person) -> TableView | None:
        """The running match the pool seated ``person`` at, if any (it has no channel)."""
        status = await self.service.pool_status(person)
        if status is None or status.state != "seated" or status.table_id is None:
            return None
        table = await self.service.table(status.table_id)
        return table if table.running else None

    async def play(self, reply: Reply, mode: str = "1v1", invite: str | None = None) -> None:
        """Look for someone to play now, one against one or two against two, or (``invite``)
        join the friend whose invitation it is as their partner (``pairing``)."""
        await self.bot.pairing.play(reply, mode, invite)

    async def help(self, reply: Reply) -> None:
        """What the bot does and its commands (all in the channel), each with what it does;
        in the DM with the bot, with the web table served, a link to its start page, signed
        for the one who asked alone (``bots.web.start``: playing someone online there)."""
        interaction = reply.interaction
        t = await self.t_for(interaction)
        parts = message_parts(render_help(t, HELP_COMMANDS), "info")
        web = self.bot.web
        if web is not None and interaction.guild_id is None:
            url = web.discord_start_url(person_of(interaction).player_id, t.lang)
            parts["view"] = with_link(parts["view"], t.gettext(texts.WEB_START), url)
        await reply.show(**parts)

    async def record(self, reply: Reply) -> None:
        """The channel's last finished match as a ``basra-record/1`` file, for the invoker."""
        interaction = reply.interaction
        record = await reply.within(self.service.last_record(chat_of(interaction)))
        await send_record(reply, record, await self.t_for(interaction))

    async def hand(self, reply: Reply) -> None:
        """The invoker's hand in this channel's match, fresh (like the "My hand" button)."""
        interaction = reply.interaction
        t = await self.t_for(interaction)
        found = await reply.within(self.service.open_table(chat_of(interaction)))
        table = found if isinstance(found, TableView) else await self.stranger_match(person_of(interaction))
        if table is None:
            raise NoOpenTable()
        pid = f"dc:{interaction.user.id}"
        if table.seat_of(pid) is None:
            await reply.tell(t.gettext(texts.NO_HAND))
            return
        hand: HandView = await self.service.hand(table.table_id, pid)
        slot = self.bot.hands.open(table.table_id, pid, reply)
        await reply.show(**hand_parts(hand, t, now=self.bot.clock.now(), web=self.bot.web))
        slot.version = hand.version

    async def privacy(self, reply: Reply) -> None:
        """What the bot keeps about people, for how long and why; for the invoker."""
        await erasing.privacy(self.service, await self.t_for(reply.interaction), reply)

    async def forget(self, reply: Reply) -> None:
        """The one question before erasing the invoker's data (Erase / Cancel)."""
        await erasing.forget(await self.t_for(reply.interaction), reply)


def _mode(value: str) -> TableMode:
    if value not in ("1v1", "2v2", "practice"):
        raise BadInput(f"unknown mode {value!r}")
    return value  # type: ignore[return-value]


def _language(choice: str | None) -> str | None:
    return choice if choice in SUPPORTED else None


Answer = Callable[[Commands, Reply], Awaitable[None]]

#: The commands that take nothing (but ``rules``, declared in its place among the others): each
#: one's name, description and answer, in the order Discord lists them.
PLAIN: tuple[tuple[str, str, Answer], ...] = (
    ("resign", texts.RESIGN, Commands.resign),
    ("help", texts.HELP, Commands.help),
    ("hand", texts.HAND, Commands.hand),
    ("record", texts.RECORD, Commands.record),
    ("privacy", erasing.PRIVACY, Commands.privacy),
    ("forget", erasing.FORGET, Commands.forget),
)
#: Where the commands work: a server's channels and the DM with the bot (where a match
#: the pool found is played), for a bot installed in a server.
CONTEXTS = app_commands.AppCommandContext(guild=True, dm_channel=True, private_channel=False)
INSTALLS = app_commands.AppInstallationType(guild=True, user=False)


class BasraGroup(app_commands.Group):
    """``/basra …``: Discord's declaration of the commands (names English, texts bilingual)."""

    def __init__(self, commands: Commands) -> None:
        super().__init__(
            name="basra",
            description=bilingual(texts.GROUP),
            allowed_contexts=CONTEXTS,
            allowed_installs=INSTALLS,
        )
        self.impl = commands
        for name, description, answer in PLAIN:
            self.add_command(self._plain(name, description, answer))
        self.add_command(self._play())

    def _plain(self, name: str, description: str, answer: Answer) -> app_commands.Command[Any, ..., None]:
        """A command that takes nothing, answered to the one who asked alone."""

        async def plain(interaction: discord.Interaction[Any]) -> None:
            await self.impl.run(interaction, name, "ephemeral", lambda reply: answer(self.impl, reply))

        return app_commands.Command(name=name, description=bilingual(description), callback=plain)

    def _play(self) -> app_commands.Command[Any, ..., None]:
        """``/basra play``: look for someone to play now, one against one unless ``mode`` says
        two against two, or with ``invite`` (a friend's invitation code) join that friend as
        partner for two against two; a refusal while a match is played points to the resign
        command."""

        @app_commands.describe(mode=bilingual(texts.PLAY_MODE), invite=bilingual(texts.PLAY_INVITE))
        @app_commands.choices(mode=PLAY_MODES)
        async def play(interaction: discord.Interaction[Any], mode: Choice[str] | None = None,
                       invite: str | None = None) -> None:
            value = mode.value if mode is not None else "1v1"
            await self.impl.run(
                interaction, "play", "ephemeral", lambda r: self.impl.play(r, value, invite),
                command=RESIGN_COMMAND,
            )

        return app_commands.Command(name="play", description=bilingual(texts.PLAY), callback=play)

    @app_commands.command(name="new", description=bilingual(texts.NEW))
    @app_commands.describe(mode=bilingual(texts.NEW_MODE), players=bilingual(texts.NEW_PLAYERS))
    @app_commands.choices(mode=MODES)
    async def new(
        self, interaction: discord.Interaction[Any], mode: Choice[str], players: Literal[2, 4] | None = None
    ) -> None:
        await self.impl.run(
            interaction, "new", "public", lambda r: self.impl.new(r, _mode(mode.value), players)
        )

    @app_commands.command(name="rules", description=bilingual(texts.RULES))
    async def rules(self, interaction: discord.Interaction[Any]) -> None:
        await self.impl.run(interaction, "rules", "ephemeral", self.impl.rules)

    @app_commands.command(name="score", description=bilingual(texts.SCORE))
    @app_commands.describe(player=bilingual(texts.SCORE_PLAYER))
    async def score(self, interaction: discord.Interaction[Any], player: discord.User | None = None) -> None:
        await self.impl.run(interaction, "score", "ephemeral", lambda r: self.impl.score(r, player))

    @app_commands.command(name="leaderboard", description=bilingual(texts.LEADERBOARD))
    @app_commands.describe(scope=bilingual(texts.LEADERBOARD_SCOPE))
    @app_commands.choices(scope=SCOPES)
    async def leaderboard(
        self, interaction: discord.Interaction[Any], scope: Choice[str] | None = None
    ) -> None:
        value = scope.value if scope is not None else "channel"
        await self.impl.run(
            interaction, "leaderboard", "ephemeral", lambda r: self.impl.leaderboard(r, value)
        )

    @app_commands.command(name="settings", description=bilingual(texts.SETTINGS))
    @app_commands.describe(
        variant=bilingual(texts.SETTINGS_VARIANT),
        on=bilingual(texts.SETTINGS_ON),
        clock=bilingual(texts.SETTINGS_CLOCK),
        language=bilingual(texts.SETTINGS_LANGUAGE),
        my_language=bilingual(texts.SETTINGS_MY_LANGUAGE),
    )
    @app_commands.choices(variant=VARIANTS, language=LANGUAGES, my_language=LANGUAGES)
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        variant: Choice[str] | None = None,
        on: bool | None = None,
        clock: app_commands.Range[int, 10, 3600] | None = None,
        language: Choice[str] | None = None,
        my_language: Choice[str] | None = None,
    ) -> None:
        await self.impl.run(
            interaction,
            "settings",
            "ephemeral",
            lambda r: self.impl.settings(
                r,
                variant.value if variant else None,
                on,
                clock,
                language.value if language else None,
                my_language.value if my_language else None,
            ),
        )
