"""Screens as discord.py views, and button custom_ids back to presses.

A button's custom_id carries the table, the state version and the action
(``bot.render.codes``), so it keeps working after a restart and a stale one is refused by
the manager. Clicks are not dispatched through discord.py's view store: the client routes
every component interaction from its custom_id alone (``SahraClient.on_interaction``),
so a click on any button — an older version's, one that no longer parses — still gets an
answer. A view is therefore only the layout of a message, stopped before it is sent:
discord.py keeps nothing per message for a stopped view, where a live one would stay in
its store for as long as the bot runs.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.render.codes import decode, encode_button
from bot.render.model import Button, Screen

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
PREFIX = "s:"


def view_of(screen: Screen) -> discord.ui.View | None:
    if not screen.rows:
        return None
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(screen.rows[:5]):  # Discord: 5 rows of 5 buttons
        for button in row[:5]:
            view.add_item(_item(button, row_index))
    view.stop()
    return view


def _item(button: Button, row: int) -> discord.ui.Button[Any]:
    if button.url:
        return discord.ui.Button(label=button.label, url=button.url, row=row)
    return discord.ui.Button(
        label=button.label,
        custom_id=PREFIX + encode_button(button),
        style=STYLES[button.style],
        disabled=not button.enabled,
        row=row,
    )


def decode_custom_id(custom_id: object) -> tuple[int, int, dict[str, Any]] | None:
    """``(table, version, action)`` of one of our buttons, or None for anything else."""
    if not isinstance(custom_id, str) or not custom_id.startswith(PREFIX):
        return None
    return decode(custom_id[len(PREFIX) :])
