"""The JSON shapes Discord sends, as discord.py 2.7 reads them: snowflakes, users, guilds,
channels, messages and the INTERACTION_CREATE of a slash command or a button press."""

from __future__ import annotations

import itertools
import secrets
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1420070400000
#: What everyone in the fake's guilds may do (managing channels included); and the bot.
EVERYONE = (1 << 4) | (1 << 6) | (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 18)
BOT_PERMISSIONS = EVERYONE
EPHEMERAL = 1 << 6
LOADING = 1 << 7

_counter = itertools.count(1)


def snowflake(at: float | None = None) -> int:
    """A new id, made at ``at`` (epoch seconds, now by default) as Discord makes them: its
    time in the top bits, so discord.py reads when it was made (an interaction's age)."""
    ms = int((time.time() if at is None else at) * 1000)
    return ((ms - DISCORD_EPOCH_MS) << 22) | (next(_counter) % (1 << 22))


def shard_of(guild_id: int, shard_count: int) -> int:
    return (guild_id >> 22) % shard_count


def guild_id_on(shard: int, shard_count: int, serial: int = 1) -> int:
    """A guild id Discord would route to ``shard``."""
    return (((serial * shard_count) + shard) << 22) | serial


def stamp(at: float | None = None) -> str:
    return datetime.fromtimestamp(time.time() if at is None else at, UTC).isoformat()


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    #: False: a user who takes no DMs from the server's members (403, code 50007).
    takes_dms: bool = True

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass
class Channel:
    id: int
    name: str
    guild_id: int | None = None
    #: For a DM: whose it is.
    recipient: User | None = None

    def payload(self) -> dict[str, Any]:
        if self.guild_id is None:
            recipients = [self.recipient.payload()] if self.recipient is not None else []
            return {
                "id": str(self.id),
                "type": 1,
                "last_message_id": None,
                "recipients": recipients,
                "flags": 0,
            }
        return {
            "id": str(self.id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": 0,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }


@dataclass
class Guild:
    id: int
    name: str
    channels: list[Channel] = field(default_factory=list)
    members: list[User] = field(default_factory=list)

    def payload(self, bot: User) -> dict[str, Any]:
        """Its GUILD_CREATE: the channels, the bot as a member, @everyone's permissions."""
        everyone = {
            "id": str(self.id),
            "name": "@everyone",
            "permissions": str(EVERYONE),
            "position": 0,
            "color": 0,
            "hoist": False,
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.members[0].id if self.members else bot.id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [everyone],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": stamp(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members) + 1,
            "members": [member(bot, self.id)],
            "channels": [c.payload() for c in self.channels],
            "threads": [],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


def member(user: User, guild_id: int, *, permissions: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {
        "user": user.payload(),
        "nick": None,
        "avatar": None,
        "roles": [],
        "joined_at": stamp(),
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
    }
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def message(
    message_id: int,
    channel_id: int,
    author: User,
    body: dict[str, Any],
    *,
    guild_id: int | None,
    created: float,
    edited: float | None = None,
    flags: int = 0,
    kind: int = 0,
    webhook_id: int | None = None,
    interaction: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A message as Discord returns and sends it, from the body the bot sent."""
    data: dict[str, Any] = {
        "id": str(message_id),
        "channel_id": str(channel_id),
        "author": author.payload(),
        "content": body.get("content") or "",
        "timestamp": stamp(created),
        "edited_timestamp": stamp(edited) if edited is not None else None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": attachments(body.get("attachments")),
        "embeds": body.get("embeds") or [],
        "pinned": False,
        "type": kind,
        "flags": flags,
        "components": body.get("components") or [],
    }
    if guild_id is not None:
        data["guild_id"] = str(guild_id)
    if webhook_id is not None:
        data["webhook_id"] = str(webhook_id)
        data["application_id"] = str(webhook_id)
    if interaction is not None:
        data["interaction_metadata"] = interaction
    return data


def attachments(sent: Any) -> list[dict[str, Any]]:
    """A message's attachments as Discord shows them, from those a write names (a file
    uploaded with it is named by its index and filename; one kept, by its id)."""
    shown = []
    for given in sent or []:
        name = str(given.get("filename") or "file")
        ident = str(given.get("id"))
        if len(ident) < 6:  # an upload's index: it gets an id of its own
            ident = str(snowflake())
        url = f"https://cdn.discordapp.com/attachments/0/{ident}/{name}"
        shown.append(
            {"id": ident, "filename": name, "size": int(given.get("size") or 0), "url": url, "proxy_url": url}
        )
    return shown


@dataclass
class Interaction:
    """One interaction the fake sent a bot: its token, and what became of it."""

    id: int
    token: str
    type: int
    user: User
    channel: Channel
    guild: Guild | None
    data: dict[str, Any]
    #: The message whose button was pressed (a component interaction).
    message: dict[str, Any] | None = None
    created: float = field(default_factory=time.monotonic)
    #: The gateway connection it went to: (process name, shard id).
    sent_to: tuple[str | None, int] | None = None
    #: The callback's type, once the bot answered, and the process that answered.
    callback: int | None = None
    answered_by: str | None = None
    #: The message the interaction's ``@original`` names, once it has one.
    original: int | None = None

    def payload(self, application_id: int) -> dict[str, Any]:
        data: dict[str, Any] = {
            "id": str(self.id),
            "application_id": str(application_id),
            "type": self.type,
            "token": self.token,
            "version": 1,
            "data": self.data,
            "channel_id": str(self.channel.id),
            "channel": self.channel.payload(),
            "locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {},
            "context": 0 if self.guild is not None else 1,
            "attachment_size_limit": 26214400,
        }
        if self.guild is not None:
            data["guild_id"] = str(self.guild.id)
            data["guild"] = {"id": str(self.guild.id), "locale": "en-US", "features": []}
            data["guild_locale"] = "en-US"
            data["member"] = member(self.user, self.guild.id, permissions=EVERYONE)
            data["app_permissions"] = str(BOT_PERMISSIONS)
        else:
            data["user"] = self.user.payload()
            data["app_permissions"] = "0"
        if self.message is not None:
            data["message"] = self.message
        return data

    def metadata(self) -> dict[str, Any]:
        """What a message answering it says of it (``interaction_metadata``)."""
        return {
            "id": str(self.id),
            "type": self.type,
            "user": self.user.payload(),
            "authorizing_integration_owners": {"0": str(self.guild.id) if self.guild else "0"},
        }


def new_interaction(
    kind: int,
    user: User,
    channel: Channel,
    guild: Guild | None,
    data: dict[str, Any],
    message: dict[str, Any] | None = None,
) -> Interaction:
    return Interaction(
        snowflake(), "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48), kind, user, channel, guild, data, message
    )


def command_data(command: dict[str, Any], sub: str, options: dict[str, Any]) -> dict[str, Any]:
    """A slash command's ``data``: ``/<command> <sub> option:value ...`` with each option's type
    as the synced command declares it."""
    declared = next(o for o in command.get("options", []) if o["name"] == sub)
    types = {o["name"]: o["type"] for o in declared.get("options", [])}
    given = [{"name": k, "type": types[k], "value": v} for k, v in options.items()]
    return {
        "id": command["id"],
        "name": command["name"],
        "type": 1,
        "options": [{"name": sub, "type": 1, "options": given}],
    }


def component_data(custom_id: str) -> dict[str, Any]:
    return {"custom_id": custom_id, "component_type": 2}
