"""A tiny bot on the real python-telegram-bot library, for the fake's own tests: a deep-link
/start, a table with an inline keyboard, a join button, an invitation to another user."""

from __future__ import annotations

import html
from typing import Any

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import (
    Forbidden,
)
from telegram.ext import (
    Application,
    CallbackQueryHandler,
    CommandHandler,
    ContextTypes,
)

JOIN_DATA = "join:table-1"


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_user is not None and update.effective_message is not None
    name = html.escape(update.effective_user.first_name)
    text = f"Welcome, <b>{name}</b>!"
    if context.args:
        text += f"\nJoining table {html.escape(context.args[0])}."
    await update.effective_message.reply_text(text, parse_mode="HTML")


async def table(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None
    keyboard = InlineKeyboardMarkup(
        [
            [InlineKeyboardButton("Join", callback_data=JOIN_DATA)],
            [InlineKeyboardButton("Rules", url="https://example.org/basra")],
        ]
    )
    await update.effective_message.reply_text("Table 1: 0/4 players", reply_markup=keyboard)


async def join(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    assert query is not None
    await query.answer("You joined table 1")
    leave = InlineKeyboardMarkup([[InlineKeyboardButton("Leave", callback_data="leave")]])
    await query.edit_message_text(f"Table 1: {query.from_user.first_name}", reply_markup=leave)


async def invite(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    assert update.effective_message is not None and context.args
    try:
        await context.bot.send_message(int(context.args[0]), "You are invited to table 1")
    except Forbidden:
        await update.effective_message.reply_text("They have to start the bot first.")


async def crash(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    raise RuntimeError("handler bug")


def add_handlers(application: Application[Any, Any, Any, Any, Any, Any]) -> None:
    application.add_handler(CommandHandler("start", start))
    application.add_handler(CommandHandler("table", table))
    application.add_handler(CommandHandler("invite", invite))
    application.add_handler(CommandHandler("crash", crash))
    application.add_handler(CallbackQueryHandler(join, pattern="^join:"))



AnyApp = Application[Any, Any, Any, Any, Any, Any]


