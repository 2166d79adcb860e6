"""Screens as discord.py views. Every button is a ``DynamicItem`` whose custom_id carries
the table, the state version and the action (``bot.render.codes``), so buttons keep
working after a restart and a stale one is refused by the manager, not by a lost view."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.render.codes import decode, encode_button
from bot.render.model import Button, Screen

if TYPE_CHECKING:
    from bot.discord.frontend import DiscordFrontend

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}
PREFIX = "s:"


class SahraButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"s:(?P<data>.+)"):
    """A table button; its custom_id is all the state it needs."""

    def __init__(self, data: str, item: discord.ui.Button[Any] | None = None) -> None:
        super().__init__(item or discord.ui.Button(label="·", custom_id=PREFIX + data))
        self.data = data

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction[Any],
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> SahraButton:
        return cls(match["data"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        frontend: DiscordFrontend = interaction.client.frontend
        await frontend.on_button(interaction, decode(self.data))


def view_of(screen: Screen) -> discord.ui.View | None:
    if not screen.rows:
        return None
    view = discord.ui.View(timeout=None)
    for row_index, row in enumerate(screen.rows[:5]):  # Discord: 5 rows of 5 buttons
        for button in row[:5]:
            view.add_item(_item(button, row_index))
    return view


def _item(button: Button, row: int) -> discord.ui.Item[Any]:
    if button.url:
        return discord.ui.Button(label=button.label, url=button.url, row=row)
    data = encode_button(button)
    item: discord.ui.Button[Any] = discord.ui.Button(
        label=button.label,
        custom_id=PREFIX + data,
        style=STYLES[button.style],
        disabled=not button.enabled,
        row=row,
    )
    return SahraButton(data, item)
