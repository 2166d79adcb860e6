"""Screens as Telegram inline keyboards. Telegram has no disabled buttons, so a card that
may not be played is drawn in parentheses and answers with a short notice when tapped."""

from __future__ import annotations

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, WebAppInfo

from bot.render.codes import encode, encode_button
from bot.render.model import Button, Screen

NOOP = {"type": "noop"}


def button(item: Button) -> InlineKeyboardButton:
    if item.url and item.web_app:
        return InlineKeyboardButton(item.label, web_app=WebAppInfo(item.url))
    if item.url:
        return InlineKeyboardButton(item.label, url=item.url)
    if item.enabled:
        return InlineKeyboardButton(item.label, callback_data=encode_button(item))
    return InlineKeyboardButton(
        f"({item.label})", callback_data=encode(item.table_id, item.version, NOOP)
    )


def markup(screen: Screen) -> InlineKeyboardMarkup | None:
    if not screen.rows:
        return None
    return InlineKeyboardMarkup([[button(item) for item in row] for row in screen.rows])
