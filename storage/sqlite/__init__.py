"""The store on one SQLite file, through aiosqlite.

One connection serves the whole process and an asyncio lock serializes its
use, so each write is one ``BEGIN IMMEDIATE ... COMMIT`` (writes queued
meanwhile share it, each in its own savepoint: see ``writer``) that no other
task's statements can slip into. ``BEGIN IMMEDIATE`` also takes the file's
write lock up front, so processes sharing the file (a Telegram and a Discord
bot) queue instead of failing half-way. Once queued, a write commits or rolls
back whole, whatever happens to its caller.
"""

from .store import SqliteStore

__all__ = ["SqliteStore"]
